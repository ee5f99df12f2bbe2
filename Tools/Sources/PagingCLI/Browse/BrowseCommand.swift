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

            The --header fields go only to the endpoint's origin (scheme, host and port): a redirect \
            to another origin is followed without them (stderr says so once per origin).
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

    func validate() throws {
        guard (1...1000).contains(pageSize) else {
            throw ValidationError("--page-size must be between 1 and 1000; it is \(pageSize).")
        }
        guard prefetchDistance >= 0 else { throw ValidationError("--prefetch must be 0 or more.") }
        if fields != nil, template != nil { throw ValidationError("give --fields or --template, not both.") }
    }

    func run() async throws {
        let io = CommandIO.current
        let endpoint = try connection.endpointURL(command: "browse")
        let document = try connection.document(command: "browse")
        guard document.variables.pagesForward, document.variables.first != nil else {
            throw CLIError.usage(
                "browse pages forward, but the connection \"\(document.connectionFieldName)\" does not take first: and after: as variables; add `first: $first, after: $after`."
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
        let source = ConnectionSource(
            client: client, document: document, variables: try connection.variableValues(), idKey: idField)
        let pager: Pager<String, JSONNode>
        do {
            pager = source.makePager(
                configuration: try PagingConfiguration(pageSize: pageSize, prefetchDistance: prefetchDistance)
            )
        } catch {
            throw CLIError.usage("\(error)")
        }
        let format = NodeFormat.make(fields: fields.map(NodeFormat.paths), template: template)
        if interactive {
            let session = ListSession(
                screen: ListScreen(title: document.connectionFieldName, noun: "nodes", canBook: false),
                pager: pager, format: format, actions: .none)
            try await TerminalRunner.run(session, terminal: terminal)
        } else {
            try await Self.printPages(pager: pager, format: format, io: io)
        }
    }

    /// Prints each page as it loads.
    static func printPages(pager: Pager<String, JSONNode>, format: RowFormat<JSONNode>, io: CommandIO)
        async throws
    {
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
