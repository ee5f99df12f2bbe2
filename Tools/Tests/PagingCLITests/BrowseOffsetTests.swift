import Foundation
import LaunchServer
import Paging
import PagingGraphQL
import Testing
import ToolsLock

@testable import PagingCLI
@testable import PagingHTTPClient

/// `paging browse --offset`: an offset list shown whole, with placeholders, and jumps by key, against
/// the launch server on loopback.
@Suite("paging browse --offset")
struct BrowseOffsetTests {
    static let query = """
        query LaunchPage($offset: Int, $limit: Int) {
          launchPage(offset: $offset, limit: $limit) { launches { id site mission { name } } totalCount }
        }
        """

    /// Passes requests on, and records the offset and limit of each.
    final class RecordingTransport: GraphQLTransport {
        private let base: any GraphQLTransport
        private let sent = Locked<[(offset: Int, limit: Int)]>([])

        init(wrapping base: any GraphQLTransport) { self.base = base }

        var requests: [(offset: Int, limit: Int)] { sent.withLock { $0 } }

        func send(_ request: GraphQLHTTPRequest) async throws -> GraphQLHTTPResponse {
            let variables = (try? JSONValue(json: request.body))?["variables"]
            sent.withLock {
                $0.append((variables?["offset"]?.intValue ?? -1, variables?["limit"]?.intValue ?? -1))
            }
            return try await base.send(request)
        }
    }

    /// A browse session of the launch server's offset list, as `browse --offset` makes it.
    private func session(
        _ server: LaunchServer, transport: RecordingTransport
    ) throws -> ListSession<Int, JSONNode> {
        let command = try BrowseCommand.parse([
            "--endpoint", server.graphQLURL.absoluteString, "--query", Self.query, "--offset",
            "--fields", "id,site",
        ])
        let document = try OffsetDocument(text: Self.query, operationName: nil, variables: [:], idKey: "id")
        let client = GraphQLClient(endpoint: server.graphQLURL, transport: transport)
        let pager = Pager(
            source: document.source(client: client), configuration: try command.offsetConfiguration())
        return ListSession(
            screen: ListScreen(
                title: "launchPage", noun: "nodes", canBook: false, placeholders: true,
                size: ScreenSize(rows: 24, columns: 100)),
            pager: pager, format: NodeFormat.make(fields: [["id"], ["site"]], template: nil), actions: .none)
    }

    @Test("the whole list shows, with placeholder rows; G, g and 500G each take one or two requests")
    func jumpsByKey() async throws {
        try await withLaunchServer({ $0.dataset = .synthetic(count: 1_000) }) { server in
            let transport = RecordingTransport(
                wrapping: HTTPClientTransport(idleTimeout: patience))
            let session = try session(server, transport: transport)
            await session.start()
            await session.settle()
            var lines = await session.text()
            #expect(lines[0].contains("loaded of 1000"), "\(lines[0])")
            let first = transport.requests.count
            #expect(first <= 2)
            // The end: one jump to the last row.
            await session.send(.character("G"))
            await session.settle()
            var screen = await session.screen
            #expect(transport.requests.count - first <= 2, "\(transport.requests)")
            // The footer is selected, the last row loaded above it.
            #expect(screen.selection == 1_000 && screen.presented[999] != nil)
            lines = await session.text()
            let selected = try #require(lines.first { $0.hasPrefix("> ") })
            #expect(selected.contains("End of the 1000 nodes"), "\(selected)")
            let last = try #require(lines.firstIndex(of: selected))
            #expect(!lines[last - 1].contains("░"), "the last row is loaded: \(lines[last - 1])")
            // A row in the middle.
            let beforeRow = transport.requests.count
            await session.send([.character("5"), .character("0"), .character("0"), .character("G")])
            await session.settle()
            screen = await session.screen
            #expect(transport.requests.count - beforeRow <= 2, "\(transport.requests)")
            #expect(screen.selection == 499 && screen.selectedItem != nil)
            #expect(screen.presented.count == 1_000)
            // Rows above what is held are placeholders, drawn with their row numbers.
            #expect(screen.bodyRow(at: 0) == .placeholder(0))
            // R refreshes where the reader is: one request, for the page around the row selected,
            // not the top; the selection stays.
            let beforeRefresh = transport.requests.count
            await session.send(.character("R"))
            await session.settle()
            screen = await session.screen
            let refreshes = transport.requests[beforeRefresh...]
            #expect(refreshes.count == 1, "\(refreshes)")
            #expect(refreshes.allSatisfy { $0.offset <= 499 && 499 < $0.offset + $0.limit }, "\(refreshes)")
            #expect(screen.selection == 499 && screen.selectedItem != nil)
            // The top.
            let beforeTop = transport.requests.count
            await session.send(.character("g"))
            await session.settle()
            screen = await session.screen
            #expect(transport.requests.count - beforeTop <= 2, "\(transport.requests)")
            #expect(screen.selection == 0 && screen.selectedItem != nil)
            // g again: held, no request.
            let held = transport.requests.count
            await session.send(.character("g"))
            await session.settle()
            #expect(transport.requests.count == held)
            // Every request asked for at most the server's limit.
            #expect(transport.requests.allSatisfy { $0.limit <= 100 })
        }
    }

    @Test("moving down onto placeholders loads the pages there, and the rows do not move")
    func scrollingFillsPlaceholders() async throws {
        try await withLaunchServer({ $0.dataset = .synthetic(count: 300) }) { server in
            let transport = RecordingTransport(
                wrapping: HTTPClientTransport(idleTimeout: patience))
            let session = try session(server, transport: transport)
            await session.start()
            await session.settle()
            for _ in 0..<4 {
                await session.send(.pageDown)
                await session.settle()
            }
            let screen = await session.screen
            #expect(screen.selection == 4 * screen.bodyHeight)
            #expect(screen.selectedItem != nil, "the row selected was loaded")
            #expect(screen.presented.count == 300)
            // Loaded page by page, each a page after the one before: a selection that moves less than
            // two pages past what is held does not jump. (Keys sent faster than the pages load move
            // it farther, and it jumps: that is the point of a threshold.)
            let offsets = transport.requests.map(\.offset)
            #expect(offsets == offsets.sorted(), "\(offsets)")
            let lines = await session.text()
            #expect(lines.last?.contains("g/G/nG") == true, "\(lines.last ?? "")")
        }
    }

    @Test("without a terminal, browse --offset prints every page; a query without $offset is refused")
    func printsPagesAndRefusesBadQueries() async throws {
        // More pages than the screen's window holds: every one is printed.
        try await withLaunchServer({ $0.dataset = .synthetic(count: 450) }) { server in
            let run = await Command.run([
                "browse", "--endpoint", server.graphQLURL.absoluteString, "--query", Self.query, "--offset",
                "--fields", "id,site", "--page-size", "20",
            ])
            #expect(run.status == 0, "\(run.standardError)")
            #expect(run.outputLines.first == "Page 1: nodes 1–20")
            // Each node once (the drift check asks each page after the first from one node earlier,
            // so those pages bring 19 new nodes).
            let nodes = run.outputLines.filter { $0.hasPrefix("  ") }
            #expect(nodes.count == 450 && Set(nodes).count == 450)
            #expect(run.outputLines.last == "All 450 nodes loaded.")
            let tooFar = await Command.run([
                "browse", "--endpoint", server.graphQLURL.absoluteString, "--query", Self.query, "--offset",
                "--prefetch", "\(Int.max)",
            ])
            #expect(tooFar.status == 2 && tooFar.standardError.contains("--prefetch"))
            let bad = await Command.run([
                "browse", "--endpoint", server.graphQLURL.absoluteString, "--offset", "--query",
                "query { launchPage(limit: 5) { launches { id } totalCount } }",
            ])
            #expect(bad.status == 2)
            #expect(bad.standardError.contains("does not declare $offset"), "\(bad.standardError)")
        }
    }

    @Test("a page object is read from the query's one field: one list, and totalCount when there")
    func readsPages() throws {
        let document = try OffsetDocument(text: Self.query, operationName: nil, variables: [:], idKey: "id")
        let data: JSONValue = [
            "launchPage": ["launches": [["id": "1"], ["id": "2"]], "totalCount": 9]
        ]
        let page = try document.page(from: data)
        #expect(page.items.map(\.id) == ["1", "2"] && page.totalCount == 9)
        #expect(try document.page(from: ["launchPage": nil]).items.isEmpty)
        let twoLists = #expect(throws: CLIError.self) {
            try document.page(from: ["launchPage": ["a": [], "b": []]])
        }
        #expect(twoLists?.message.contains("a, b") == true)
        #expect(throws: CLIError.self) {
            _ = try OffsetDocument(
                text: "query ($offsetX: Int, $limit: Int) { a }", operationName: nil, variables: [:],
                idKey: "id")
        }
        #expect(BrowseCommand.fieldName(in: Self.query) == "launchPage")
    }
}
