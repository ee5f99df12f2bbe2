import ArgumentParser
import Foundation
import Paging
import PagingGraphQLClient

/// `paging browse`: the demo's screen over any Relay connection.
struct BrowseCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "browse",
        abstract: "Browse any GraphQL connection in the terminal, paged as you scroll.",
        discussion: """
            Rows show the node fields named by --fields (dotted paths, comma-separated) or a \
            --template such as '{mission.name} from {site}'. Enter shows the node's JSON.
            Without a terminal, each page is printed as it loads.

            With --offset, the query pages by offset instead: its field takes $offset and $limit and \
            returns an object with one list of nodes and totalCount. The whole list shows, with a \
            placeholder row for each node not loaded; g goes to the top, G to the end, and a number \
            then G to that row, each with one request (two near an end). R refreshes the rows around \
            the one selected, with one request.

            The --header fields go only to the endpoint's origin (scheme, host and port): a redirect \
            to another origin is followed without them (stderr says so once per origin).

            With --live and --subscription FILE, the list stays live: the subscription's events go \
            into a store, and its directives (@prependEdge(connections:), @prependNode(connections:) \
            naming the query's @connection key) put each new node into the list. The title line \
            says live, connecting or reconnecting; after a reconnection the nodes added meanwhile \
            come in once, in order, and the rows being read do not move. The subscription goes over \
            --websocket (graphql-transport-ws; the endpoint with the ws or wss scheme unless given), \
            without the --header fields. Without a terminal, the first page prints, then each node \
            as it arrives, until --live-count have.
            """
    )

    @OptionGroup var connection: ConnectionOptions

    @Option(
        name: .long,
        help: ArgumentHelp(
            "The node fields to show as columns, such as name,owner.login.", valueName: "paths"))
    var fields: String?

    @Option(
        name: .long,
        help: ArgumentHelp("A row template: text with {field.path} placeholders.", valueName: "text"))
    var template: String?

    @Option(name: .customLong("id-field"), help: "The node field that tells nodes apart.")
    var idField: String = "id"

    @Option(name: .customLong("page-size"), help: "Nodes per page.")
    var pageSize: Int = 20

    @Option(
        name: .customLong("prefetch"), help: "Load the next page when the selection is this close to the end."
    )
    var prefetchDistance: Int = 5

    @Flag(
        name: .long,
        help: "Page by offset: the query's field takes $offset and $limit and returns a list and totalCount.")
    var offset = false

    @Flag(name: .long, help: "Keep the list live over --subscription.")
    var live = false

    @Option(
        name: .long,
        help: ArgumentHelp(
            "The subscription that keeps the list live: a file, - for standard input, or the document itself.",
            valueName: "file"))
    var subscription: String?

    @Option(
        name: .customLong("websocket"),
        help: ArgumentHelp(
            "The subscriptions' WebSocket URL; the endpoint with the ws or wss scheme unless given.",
            valueName: "url"))
    var webSocketURL: String?

    @Option(
        name: .customLong("live-count"),
        help: "Without a terminal, with --live: print the first page, then stop after this many new nodes.")
    var liveCount: Int = 3

    func validate() throws {
        if live, subscription == nil {
            throw ValidationError(
                "--live needs --subscription FILE, the subscription whose events add to the list.")
        }
        if !live, subscription != nil || webSocketURL != nil {
            throw ValidationError("--subscription and --websocket are for --live; add --live.")
        }
        if live, offset { throw ValidationError("--live pages by cursor; it cannot be used with --offset.") }
        guard liveCount >= 0 else {
            throw ValidationError("--live-count must be 0 or more; it is \(liveCount).")
        }
        guard (1...1000).contains(pageSize) else {
            throw ValidationError("--page-size must be between 1 and 1000; it is \(pageSize).")
        }
        guard (0...100_000).contains(prefetchDistance) else {
            throw ValidationError("--prefetch must be between 0 and 100000; it is \(prefetchDistance).")
        }
        if fields != nil, template != nil { throw ValidationError("give --fields or --template, not both.") }
    }

    func run() async throws {
        let io = CommandIO.current
        let endpoint = try connection.endpointURL(command: "browse")
        let offsetDocument =
            offset
            ? try OffsetDocument(
                text: try connection.queryText(command: "browse"), operationName: connection.operationName,
                variables: try connection.variableValues(), idKey: idField) : nil
        let document = offset ? nil : try connection.document(command: "browse")
        if let document, !document.variables.pagesForward || document.variables.first == nil {
            throw CLIError.usage(
                "browse pages forward, but the connection \"\(document.connectionFieldName)\" does not take first: and after: as variables; add `first: $first, after: $after`, or page by offset with --offset."
            )
        }
        let terminal = RawTerminal()
        let interactive = io.isOutputTerminal && terminal.isInteractive
        // A notice that a redirect went without the --header fields waits for the screen to give
        // the terminal back.
        let notices = HeldLines(sink: io.standardError, holding: interactive)
        defer { notices.release() }
        // The fields go to the endpoint's origin only: the transport keeps them off a redirect to
        // another origin.
        let headers = HeaderScope(
            start: endpoint, fields: try connection.headerFields(), notice: notices.line)
        let timeout = Duration.milliseconds(Int(connection.timeout * 1000))
        let client = GraphQLClient(
            endpoint: endpoint, headers: headers.fields, timeout: timeout,
            transport: try headers.makeTransport(idleTimeout: timeout))
        let format = NodeFormat.make(fields: fields.map(NodeFormat.paths), template: template)
        if let offsetDocument {
            // Printed page after page, the list must hold every page: placeholders and a window are
            // for the screen.
            let pager = Pager(
                source: offsetDocument.source(client: client),
                configuration: interactive ? try offsetConfiguration() : try plainConfiguration())
            if interactive {
                let title = Self.fieldName(in: offsetDocument.text) ?? "nodes"
                let session = ListSession(
                    screen: ListScreen(title: title, noun: "nodes", canBook: false, placeholders: true),
                    pager: pager, format: format, actions: .none)
                try await TerminalRunner.run(session, terminal: terminal)
            } else {
                try await Self.printPages(pager: pager, format: format, io: io)
            }
            return
        }
        guard let document else { return }
        if live {
            try await runLive(
                document: document, endpoint: endpoint, headers: headers, timeout: timeout, format: format,
                io: io, terminal: terminal, interactive: interactive)
            return
        }
        let pager = try makePager(document: document, client: client)
        if interactive {
            let session = ListSession(
                screen: ListScreen(title: document.connectionFieldName, noun: "nodes", canBook: false),
                pager: pager, format: format, actions: .none)
            try await TerminalRunner.run(session, terminal: terminal)
        } else {
            try await Self.printPages(pager: pager, format: format, io: io)
        }
    }

    /// The pager of the connection: its nodes told apart by `--id-field`, `--page-size` to a page.
    /// - Throws: ``CLIError`` (usage) for a configuration out of range.
    func makePager(document: ConnectionDocument, client: GraphQLClient) throws -> Pager<String, JSONNode> {
        let source = ConnectionSource(
            client: client, document: document, variables: try connection.variableValues(), idKey: idField)
        do {
            return source.makePager(
                configuration: try PagingConfiguration(pageSize: pageSize, prefetchDistance: prefetchDistance)
            )
        } catch {
            throw CLIError.usage("\(error)")
        }
    }

    /// The configuration of a list printed without a terminal: the pages and the prefetch distance.
    func plainConfiguration() throws(CLIError) -> PagingConfiguration {
        do {
            return try PagingConfiguration(pageSize: pageSize, prefetchDistance: prefetchDistance)
        } catch {
            throw .usage("\(error)")
        }
    }

    /// The configuration of an offset list: placeholders, a jump past two pages from what is held,
    /// and a window of ten pages or more (enough for a page and the prefetch distance both sides).
    func offsetConfiguration() throws(CLIError) -> PagingConfiguration {
        let window = (pageSize + 2 * prefetchDistance + pageSize - 1) / pageSize
        do {
            return try PagingConfiguration(
                pageSize: pageSize, prefetchDistance: prefetchDistance,
                maximumHeld: .pages(max(10, window + 1)),
                placeholders: true, jumpThreshold: max(2 * pageSize, prefetchDistance + 1))
        } catch {
            throw .usage("\(error)")
        }
    }

    /// The name (or alias) of the query's first field, for the title: the word before the first
    /// `(`, `{` or `:` after the operation's opening brace.
    static func fieldName(in text: String) -> String? {
        guard let open = text.firstIndex(of: "{") else { return nil }
        let rest = text[text.index(after: open)...]
        // An alias (`launches: launchPage`) is the name the data has.
        let name = rest.prefix { $0 != "(" && $0 != "{" && $0 != ":" }.trimmingCharacters(
            in: .whitespacesAndNewlines)
        return name.isEmpty ? nil : name
    }

    /// Prints each page as it loads.
    static func printPages<Key: Hashable & Sendable>(
        pager: Pager<Key, JSONNode>, format: RowFormat<JSONNode>, io: CommandIO
    ) async throws {
        var printed = 0
        var page = 0
        while pager.hasNext {
            do {
                _ = try await pager.loadNext().value
            } catch {
                throw CLIError.failed(
                    "loading page \(page + 1) failed: \(FetchCommand.describe(error.underlyingError ?? error))"
                )
            }
            let items = pager.items
            guard items.count > printed else { continue }
            page += 1
            io.standardOutput.line("Page \(page): nodes \(printed + 1)–\(items.count)")
            for index in printed..<items.count {
                io.standardOutput.line(
                    "  "
                        + format.line(format.cells(items[index]), width: 120).trimmingCharacters(
                            in: .whitespaces))
            }
            printed = items.count
        }
        io.standardOutput.line("All \(printed) nodes loaded.")
    }
}

/// Row formats for JSON nodes: columns of fields, or a template.
enum NodeFormat {
    /// Splits `a,b.c` into field paths.
    static func paths(_ text: String) -> [[String]] {
        text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            .map { $0.split(separator: ".").map(String.init) }
    }

    /// The format for the options: the fields as columns, a template as one column, or, with
    /// neither, every scalar member of the node (up to six) in name order.
    static func make(fields: [[String]]?, template: String?) -> RowFormat<JSONNode> {
        let details: @Sendable (JSONNode) -> (title: String, lines: [String]) = { node in
            (
                text(node.id),
                pretty(node.value).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            )
        }
        if let template {
            return RowFormat(
                columns: [.init(title: template, width: nil)],
                cells: { [render(template: template, node: $0.value)] }, details: details)
        }
        if let fields, !fields.isEmpty {
            return RowFormat(
                columns: fields.map { .init(title: $0.joined(separator: "."), width: nil) },
                cells: { node in fields.map { path in value(at: path, in: node.value) } }, details: details)
        }
        return RowFormat(
            columns: [.init(title: "Node", width: nil)],
            cells: { node in [summary(node.value)] }, details: details)
    }

    /// The text of the value at a path, such as `mission.name`.
    static func value(at path: [String], in node: JSONValue) -> String {
        node[path: path.map { .key($0) }].map(text) ?? ""
    }

    /// Replaces `{path}` placeholders with the node's values.
    static func render(template: String, node: JSONValue) -> String {
        var result = ""
        var rest = Substring(template)
        while let open = rest.firstIndex(of: "{") {
            result += rest[..<open]
            guard let close = rest[open...].firstIndex(of: "}") else { break }
            let path = rest[rest.index(after: open)..<close].split(separator: ".").map(String.init)
            result += value(at: path, in: node)
            rest = rest[rest.index(after: close)...]
        }
        return result + rest
    }

    /// `key: value` for up to six scalar members in name order.
    static func summary(_ node: JSONValue) -> String {
        guard let members = node.objectValue else { return text(node) }
        return members.keys.sorted().compactMap { key -> String? in
            guard let value = members[key], value.objectValue == nil, value.arrayValue == nil else {
                return nil
            }
            return "\(key): \(text(value))"
        }.prefix(6).joined(separator: "  ")
    }

    /// A value as text: strings bare, anything else as compact JSON.
    static func text(_ value: JSONValue) -> String {
        switch value {
        case .string(let string): string
        case .null: ""
        default: value.compactJSON
        }
    }

    /// A value as indented JSON.
    static func pretty(_ value: JSONValue) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(value) else { return value.compactJSON }
        return String(decoding: data, as: UTF8.self)
    }
}
