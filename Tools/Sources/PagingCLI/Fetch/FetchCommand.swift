import ArgumentParser
import Foundation
import PagingExport
import PagingGraphQLClient
import Synchronization

/// `paging fetch`: exports every node of a connection (or every item of a REST list) as JSON
/// Lines or one JSON array, retrying transient failures and resuming from a printed cursor.
struct FetchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fetch",
        abstract: "Export every node of a connection as JSON Lines (or one JSON array).",
        discussion: """
            GraphQL: --endpoint URL --query FILE, where the query marks its connection with \
            @connection or gives it first/after (or last/before) variables and selects pageInfo.
            REST: --rest URL, following Link: rel="next" headers, or --next-field PATH in the JSON body.

            Connections inside connections: mark each level with @connection, and every inner \
            connection of every outer node is paged to its end through the server's node(id:) field, \
            up to --concurrency outer nodes at once, written in the outer order. Each line is an outer \
            node whose inner connections hold all their nodes; with --flatten, each line is an innermost \
            node with its parent's id as parentId, and --resume continues inside an inner connection.

            GraphQL errors next to a page's data (a field that failed is null) stop the export with \
            exit status 1 and the errors, before that page is written; --allow-partial exports such \
            pages with their nulls instead, warns with each error, and counts what was nulled.

            Transient failures (no connection, HTTP 408, 429 and 5xx) are retried with backoff, or \
            after the wait Retry-After asks for. When the server's rate limit (X-RateLimit-Remaining, \
            X-RateLimit-Reset) says no request is left, the export waits for the reset, up to an hour, \
            and says so on the progress line. \
            When the export stops early (Ctrl-C, a failure, --max-pages, --max-items) the cursor to \
            continue from is printed; pass it with --resume to export the rest, nothing lost or repeated. \
            With -o FILE, a resumed export continues the file: JSON Lines are appended, and a --slurp \
            array gets the new elements after the old ones (written beside the file and renamed over \
            it, so the file never loses what it held).

            The --header fields go only to the origin (scheme, host and port) the export started on: \
            the endpoint's, or with --rest the first page's. A next page or a redirect on another \
            origin is asked for without them (stderr says so once per origin), unless \
            --send-headers-to-any-host.

            Exit codes: 0 done, 1 failed, 2 bad arguments, 130 interrupted.
            """
    )

    @OptionGroup var connection: ConnectionOptions

    @Option(
        name: .long,
        help: ArgumentHelp("Export a REST list from this URL instead of GraphQL.", valueName: "url"))
    var rest: String?

    @Option(
        name: .customLong("next-field"),
        help: ArgumentHelp(
            "With --rest: the JSON body field (a dotted path) holding the next page's URL or token, instead of the Link header.",
            valueName: "path"))
    var nextField: String?

    @Option(
        name: .customLong("token-param"),
        help: ArgumentHelp(
            "With --next-field: the query parameter the next-page token goes in, when it is not a URL.",
            valueName: "name"))
    var tokenParameter: String?

    @Option(
        name: .customLong("items-field"),
        help: ArgumentHelp(
            "With --rest: the JSON body field (a dotted path) holding the items, when the body is an object.",
            valueName: "path"))
    var itemsField: String?

    @Option(
        name: [.short, .long],
        help: ArgumentHelp(
            "Write to this file instead of standard output: replaced, or with --resume continued (JSON Lines appended; a --slurp array rewritten with the old elements and the new, put in place when the export ends).",
            valueName: "file"))
    var output: String?

    @Flag(name: .long, help: "Write one JSON array instead of JSON Lines.")
    var slurp = false

    @Flag(name: .long, help: "Page backward from the end (last/before); nodes come out last first.")
    var last = false

    @Option(
        name: .customLong("page-size"),
        help: ArgumentHelp("Items per request (first/last; per_page with --rest).", valueName: "n"))
    var pageSize: Int?

    @Option(name: .customLong("max-pages"), help: ArgumentHelp("Stop after this many pages.", valueName: "n"))
    var maximumPages: Int?

    @Option(name: .customLong("max-items"), help: ArgumentHelp("Stop after this many items.", valueName: "n"))
    var maximumItems: Int?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Continue after this cursor, as printed by an export that stopped early.", valueName: "cursor"))
    var resume: String?

    @Option(
        name: .long, help: ArgumentHelp("Retries of a transient failure before giving up.", valueName: "n"))
    var retries: Int = 5

    @Flag(
        name: .customLong("allow-partial"),
        help: ArgumentHelp(
            "Export a page whose data came with GraphQL errors, with null where they are, instead of stopping; each error is printed as a warning, and what they nulled is counted at the end."
        ))
    var allowPartial = false

    @Flag(
        name: .customLong("send-headers-to-any-host"),
        help: ArgumentHelp(
            "Send the --header fields to every origin the export reaches (a next-page link or a redirect to another host), not only to the origin (scheme, host and port) it started on."
        ))
    var sendHeadersToAnyHost = false

    @Flag(
        name: .long,
        help: ArgumentHelp(
            "With connections inside connections: one line per innermost node, with its parent's id as \"parentId\", instead of one line per outer node with all its inner nodes inside."
        ))
    var flatten = false

    @Option(
        name: .long,
        help: ArgumentHelp(
            "With connections inside connections: how many outer nodes have their inner connections paged at once (lines are written in the outer order all the same).",
            valueName: "n"))
    var concurrency: Int = FetchCommand.defaultConcurrency

    @Flag(name: [.short, .long], help: "Print no progress.")
    var quiet = false

    /// The default number of items per request.
    static let defaultPageSize = 50

    /// The default number of outer nodes whose inner connections are paged at once.
    static let defaultConcurrency = 4

    func validate() throws {
        if let pageSize, !(1...1000).contains(pageSize) {
            throw ValidationError("--page-size must be between 1 and 1000; it is \(pageSize).")
        }
        if let maximumPages, maximumPages < 1 {
            throw ValidationError("--max-pages must be 1 or more; it is \(maximumPages).")
        }
        if let maximumItems, maximumItems < 1 {
            throw ValidationError("--max-items must be 1 or more; it is \(maximumItems).")
        }
        if retries < 0 { throw ValidationError("--retries must be 0 or more; it is \(retries).") }
        if connection.timeout <= 0 { throw ValidationError("--timeout must be more than 0 seconds.") }
        if rest != nil, connection.endpoint != nil {
            throw ValidationError("give either --endpoint (GraphQL) or --rest (a REST list), not both.")
        }
        if rest == nil, connection.endpoint == nil {
            throw ValidationError(
                "give --endpoint URL and --query FILE for a GraphQL connection, or --rest URL for a REST list (`paging serve` runs a local server with both)."
            )
        }
        if rest != nil {
            if last {
                throw ValidationError(
                    "--last pages a GraphQL connection backward; a REST list pages forward only.")
            }
            if connection.query != nil {
                throw ValidationError("--query is for GraphQL (--endpoint); --rest takes none.")
            }
            if allowPartial {
                throw ValidationError(
                    "--allow-partial is for GraphQL (--endpoint): a REST list has no errors next to its data."
                )
            }
        } else {
            if nextField != nil || tokenParameter != nil || itemsField != nil {
                throw ValidationError("--next-field, --token-param and --items-field are for --rest.")
            }
        }
        if !(1...32).contains(concurrency) {
            throw ValidationError("--concurrency must be between 1 and 32; it is \(concurrency).")
        }
        if rest != nil, flatten {
            throw ValidationError(
                "--flatten is for GraphQL connections inside connections; a REST list has none.")
        }
        if tokenParameter != nil, nextField == nil {
            throw ValidationError("--token-param goes with --next-field.")
        }
    }

    func run() async throws {
        let io = CommandIO.current
        let progress = ProgressReporter(
            style: quiet ? .quiet : io.isErrorTerminal ? .bar : .lines(interval: .seconds(2)),
            sink: io.standardError, now: io.now)
        let fields = try connection.headerFields()
        let start = try startURL()
        let headers = HeaderScope(
            start: start, fields: fields, sendsToAnyHost: sendHeadersToAnyHost,
            anyHostOption: "--send-headers-to-any-host", notice: { progress.interject($0 + "\n") })
        let transport = RetryingTransport(
            base: try headers.makeTransport(
                idleTimeout: .milliseconds(Int(connection.timeout * 1000)),
                maximumConnectionsPerHost: concurrency + 1),
            policy: RetryPolicy(maximumRetries: retries),
            sleep: io.sleep,
            onRetry: { progress.retrying($0) },
            onRateLimit: { progress.rateLimited($0) },
            date: io.date)
        let partialData = PartialDataLog(progress: progress)
        let exporter = try makeExporter(
            start: start, headers: headers, transport: transport,
            partialData: allowPartial ? partialData.handling : .refuse)
        if let pageSize, pageSize != exporter.settings.pageSize {
            progress.interject(
                "paging: --page-size \(pageSize) is not used: the query asks for \(exporter.settings.pageSize) a page itself (make it a variable to set it).\n"
            )
        }
        let file = try openOutput()
        let standardOutput = io.standardOutput
        let sink =
            file?.writer
            ?? JSONExportWriter(format: slurp ? .array : .lines) {
                standardOutput.write(String(decoding: $0, as: UTF8.self))
            }
        let export = Task { await exporter.run(into: sink) { progress.report($0) } }
        let stopWatching = io.onInterrupt { export.cancel() }
        let result = await withTaskCancellationHandler {
            await export.value
        } onCancel: {
            export.cancel()
        }
        stopWatching()
        var closingError: (any Error)?
        do {
            if let file { try file.close() } else { try sink.finish() }
        } catch {
            closingError = error
            file?.discard()
        }
        if let summary = partialData.summary(itemsWithNulls: result.itemsWithNulls) {
            progress.interject(summary + "\n")
        }
        try report(
            result, progress: progress, io: io, closingError: closingError,
            fileKept: file?.keepsFileUntilClosed ?? false)
    }

    private func report(
        _ result: Exporter.Result, progress: ProgressReporter, io: CommandIO, closingError: (any Error)?,
        fileKept: Bool
    )
        throws
    {
        let written =
            "\(result.items) item\(result.items == 1 ? "" : "s") in \(result.pages) page\(result.pages == 1 ? "" : "s")"
        let resumeLine = result.resumeCursor.map {
            "to continue, run the same command with --resume \(Self.shellQuoted($0))"
        }
        if let closingError {
            let reason = (closingError as? ExportError)?.message ?? ConnectionOptions.describe(closingError)
            let problem = "cannot finish writing the output: \(reason)."
            guard fileKept, let output else { throw CLIError.failed(problem) }
            throw CLIError.failed(
                "\(problem) '\(output)' still holds what it held before; fix the problem and run the same command again."
            )
        }
        switch result.ending {
        case .completed:
            progress.finish("done")
        case .limitReached:
            progress.finish("stopped at the limit")
            io.standardError.line(
                "paging: stopped after \(written) (\(maximumItems != nil ? "--max-items" : "--max-pages")).")
            if let resumeLine { io.standardError.line("paging: \(resumeLine)") }
        case .interrupted:
            progress.finish("interrupted")
            io.standardError.line("paging: interrupted after \(written).")
            io.standardError.line(
                "paging: \(resumeLine ?? "nothing was exported; run the same command again to start over")")
            throw ExitCode(ExitStatus.interrupted)
        case .failed(let error):
            progress.finish("failed")
            if let error = error as? CLIError, error.exitCode == ExitStatus.usage { throw error }
            // A page size the engine refuses (a literal `first: 0`), a layout or a --resume the
            // export cannot take: the command line's to fix.
            if let error = error as? ExportError,
                [.invalidSettings, .unsupportedLayout, .malformedCursor].contains(error.code)
            {
                throw CLIError.usage(error.message + (Self.hint(for: error).map { " " + $0 } ?? ""))
            }
            var message = "the export failed after \(written): \(Self.describe(error))"
            message +=
                "\npaging: \(resumeLine ?? "nothing was exported; fix the problem and run the same command again")"
            throw CLIError.failed(message)
        }
    }

    /// A failure, described for a person: what went wrong and what to do.
    static func describe(_ error: any Error) -> String {
        switch error {
        case let error as CLIError:
            return error.message
        case let error as PartialDataError:
            return """
                \(PartialDataError.summary(of: error.report)):
                \(PartialDataError.list(error.report.errors))
                Nothing of that page was written. Fix the query (the errors say where), or pass \
                --allow-partial to export the data with null where the errors are.
                """
        case let error as ExportError:
            return error.message + (Self.hint(for: error).map { " " + $0 } ?? "")
        case let error as GraphQLClientError where error.code == .transport:
            return "\(error.description) (no retry succeeded; see --retries)"
        case let error as GraphQLClientError where error.code == .graphQLErrors:
            return "\(error.description). Check the query and --variables against the schema."
        case let error as GraphQLClientError where error.code == .httpStatus:
            let status = error.statusCode ?? 0
            let hint =
                RetryPolicy.isTransient(status: status)
                ? " The server kept failing (see --retries); try again later."
                : " Check the URL and the --header values (an Authorization header for 401 or 403)."
            return error.description + hint
        case let error as URLError:
            return
                "no response from the server: \(RetryNotice.reason(for: error)) (no retry succeeded). Check that the server is running and the URL is right."
        default:
            return String(describing: error)
        }
    }

    /// The option that helps with an export's failure, when one does.
    private static func hint(for error: ExportError, backward: Bool = false) -> String? {
        switch error.code {
        case .unpageableQuery where error.message.contains("paged backward"): "(--last pages backward.)"
        case .unpageableQuery where error.message.contains("paged forward") && !backward:
            "(Pass --last to page backward.)"
        case .unsupportedLayout where error.message.contains("resume with the flattened layout"):
            "That is: resume with --flatten."
        case .unsupportedLayout where error.message.contains("flattened"): "(That is --flatten.)"
        case .malformedCursor: "(That is --resume.)"
        case .noItems: "Name the member that holds the items with --items-field."
        case .malformedNextPage where error.message.contains("not a URL;"): "(That is --token-param.)"
        // The library's message says what to check; the --header fields withheld from another
        // origin were told once already (HeaderScope).
        case .httpStatus, .malformedNextPage, .notJSON, .repeatedCursor, .writeFailed,
            .invalidSettings, .outputUnusable, .outputInOtherFormat, .unpageableQuery, .unsupportedLayout,
            .malformedPage, .innerPageErrors:
            nil
        }
    }

    /// Where the export starts: the GraphQL endpoint, or the REST list's first page (with
    /// `per_page` set to `--page-size`).
    private func startURL() throws(CLIError) -> URL {
        guard let rest else { return try connection.endpointURL(command: "fetch") }
        var url = try ConnectionOptions.httpURL(rest, option: "--rest")
        if let pageSize, var components = URLComponents(url: url, resolvingAgainstBaseURL: false) {
            var items = (components.queryItems ?? []).filter { $0.name != "per_page" }
            items.append(URLQueryItem(name: "per_page", value: String(pageSize)))
            components.queryItems = items
            url = components.url ?? url
        }
        return url
    }

    /// The exporter: of a REST list, or of a GraphQL connection and the connections inside its
    /// nodes.
    private func makeExporter(
        start: URL, headers: HeaderScope, transport: any GraphQLTransport, partialData: PartialDataHandling
    ) throws(CLIError) -> Exporter {
        let timeout = Duration.milliseconds(Int(connection.timeout * 1000))
        let settings = Exporter.Settings(
            pageSize: pageSize ?? Self.defaultPageSize, maximumPages: maximumPages,
            maximumItems: maximumItems,
            resume: resume)
        if rest != nil {
            let locator: NextPageLocator =
                nextField.map { .bodyField(path: Self.path($0), tokenParameter: tokenParameter) }
                ?? .linkHeader
            if let resume {
                do {
                    try RESTListSource.validate(cursor: resume)
                } catch {
                    throw .usage("--resume: \(error.message)")
                }
            }
            let source = RESTListSource(
                start: start, locator: locator, itemsPath: itemsField.map(Self.path),
                headers: headers.fields,
                sendsHeaders: { headers.permits($0) }, timeout: timeout, transport: transport)
            return Exporter(source: source, settings: settings, partialData: partialData)
        }
        // The endpoint is the export's origin: the fields go with every request, and the
        // transport keeps them off a redirect to another origin.
        let client = GraphQLClient(
            endpoint: start, headers: headers.fields, timeout: timeout, transport: transport)
        let text = try connection.queryText(command: "fetch")
        let variables = try connection.variableValues()
        let query: GraphQLExportQuery
        do throws(ExportError) {
            query = try GraphQLExportQuery(
                text, connectionKey: connection.connectionKey, operationName: connection.operationName)
        } catch {
            throw .usage(error.message)
        }
        if flatten, query.innerConnections.isEmpty {
            throw .usage(
                "--flatten writes the nodes of a connection inside the nodes of another, but the query has no such connection marked; mark each connection to page with @connection, the inner one inside the outer one's edges { node { ... } } or nodes { ... }."
            )
        }
        if allowPartial, !query.innerConnections.isEmpty {
            throw .usage(
                "--allow-partial is not available for connections inside connections: a page whose data came with GraphQL errors stops the export."
            )
        }
        do throws(ExportError) {
            return try Exporter(
                client: client, query: query, variables: variables, backward: last,
                layout: flatten ? .flattened : .nested, concurrency: concurrency, settings: settings,
                partialData: partialData)
        } catch {
            throw .usage(error.message + (Self.hint(for: error, backward: last).map { " " + $0 } ?? ""))
        }
    }

    private static func path(_ text: String) -> [String] {
        text.split(separator: ".").map(String.init)
    }

    /// The file the output goes to (`-o FILE`), replaced by a new export and continued by a
    /// resumed one (``JSONExportFile``); `nil` for standard output.
    private func openOutput() throws(CLIError) -> JSONExportFile? {
        guard let output, output != "-" else { return nil }
        do {
            return try JSONExportFile.open(
                URL(fileURLWithPath: output), format: slurp ? .array : .lines, continuing: resume != nil)
        } catch {
            guard error.code == .outputInOtherFormat else { throw .usage(error.message) }
            let hint =
                slurp
                ? "If the file holds JSON Lines, resume without --slurp; or write to another file with -o."
                : "To continue its array, resume with --slurp; or write to another file with -o."
            throw .usage("\(error.message) \(hint)")
        }
    }

    /// Quotes a value for a POSIX shell when it needs it.
    static func shellQuoted(_ value: String) -> String {
        let safe = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "-_=.:/+,@%"))
        if !value.isEmpty, value.unicodeScalars.allSatisfy({ safe.contains($0) }) { return value }
        return "'" + value.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
