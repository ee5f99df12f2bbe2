import Foundation
import Paging
import PagingGraphQL
import PagingTesting
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The client's fault matrix over a real socket: each way ``HostileServer`` misbehaves, met by
/// the GraphQL client over `URLSessionTransport`, by a pager that has loaded pages already, and
/// by `paging fetch`. Each must give its typed error and lose nothing: after the server behaves
/// again, `retry()` or `--resume` completes the list with every item once, in order.
///
/// Serialized: two of the faults move 64 MiB each and one waits out the client's timeout, and
/// the other cases must not compete with them for the two cores.
@Suite("The client's fault matrix over a real socket", .serialized, .timeLimit(.minutes(30)))
struct FaultMatrixEndToEndTests {
    /// How long the client waits for bytes before it gives up on a request: short, so that the
    /// stall costs little, yet far more than a loopback answer takes.
    static let timeout = Duration.seconds(1)

    /// The client of the tests: `URLSessionTransport`, the tests' one (``TestSession``).
    static func client(_ server: HostileServer) -> GraphQLClient {
        GraphQLClient(endpoint: server.endpoint, timeout: timeout, transport: TestSession.transport)
    }

    // MARK: The client

    /// The client meets the fault on its first request: the error has the row's code, status,
    /// transport error and message; the second request, answered well, succeeds.
    @Test(
        "The client answers each fault with its typed error, and the next request succeeds",
        arguments: FaultCase.all)
    func client(_ row: FaultCase) async throws {
        try await HostileServer.withRunning { server in
            let client = Self.client(server)
            server.inject(row.fault, atRequest: 1, times: 1)
            let error = try await #require(throws: GraphQLClientError.self) {
                try await client.send(ItemsQuery(first: 5))
            }
            row.check(error, endpoint: server.endpoint, keptAlive: false)
            let response = try await client.send(ItemsQuery(first: 5))
            #expect(response.data?.items.map(\.id) == Array(server.catalog.ids.prefix(5)))
            #expect(server.requests.map(\.fault) == [row.fault, nil])
        }
    }

    /// A body announced as 1 GiB and written for as long as the client reads, up to 64 MiB: the
    /// client refuses it at its head (its limit is 64 MiB) and hangs up, instead of reading it.
    @Test("The client refuses a body far larger than any GraphQL response as soon as it is announced")
    func endlessBody() async throws {
        try await HostileServer.withRunning { server in
            server.inject(.endlessBody, atRequest: 1, times: 1)
            let error = try await #require(throws: GraphQLClientError.self) {
                try await Self.client(server).send(ItemsQuery(first: 5))
            }
            #expect(error.code == .transport)
            #expect((error.underlyingError as? URLError)?.code == .dataLengthExceedsMaximum)
            let outcome = await server.outcome(ofRequest: 1)
            #expect(
                outcome.clientHungUp,
                "the client read \(outcome.bodyBytesSent) bytes of an announced 1 GiB before the server gave up"
            )
            #expect(outcome.bodyBytesSent < 1 << 20)
        }
    }

    // MARK: The pagers

    /// The pagers of `PagingGraphQLClient` that page a connection.
    enum PagerKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
        /// The Apollo-style query pager, on the typed ``ItemsQuery``.
        case querySource = "GraphQLQuerySource"
        /// The pager of a document's connection, on its analysis (nodes decoded from JSON).
        case connectionSource = "ConnectionSource"

        /// The pager's name, for the test's name.
        var testDescription: String { rawValue }
    }

    /// Each pager of a connection meets the fault on its third page (see
    /// ``loseNothing(_:_:_:)``).
    @Test(
        "A pager keeps the pages it loaded through each fault, and retry() completes the list exactly",
        arguments: FaultCase.all, PagerKind.allCases)
    func pager(_ row: FaultCase, _ kind: PagerKind) async throws {
        try await HostileServer.withRunning { server in
            let configuration = try PagingConfiguration(pageSize: 5, prefetchDistance: 0)
            switch kind {
            case .querySource:
                let source = GraphQLQuerySource(
                    client: Self.client(server),
                    initialQuery: ItemsQuery(first: 5),
                    extractPageInfo: { data in
                        CursorBasedPagination.Forward(
                            hasNext: data.items.pageInfo.hasNextPage, endCursor: data.items.pageInfo.endCursor
                        )
                    },
                    pageResolver: { page, direction in
                        direction == .next ? ItemsQuery(first: 5, after: page.endCursor) : nil
                    },
                    transform: { data in Array(data.items) })
                try await Self.loseNothing(source.makePager(configuration: configuration), server, row)
            case .connectionSource:
                let source = ConnectionSource(
                    client: Self.client(server),
                    document: try ConnectionDocument(ItemsQuery.connectionDocument),
                    as: Item.self)
                try await Self.loseNothing(source.makePager(configuration: configuration), server, row)
            }
        }
    }

    /// Loads two pages, meets the fault on the third, and after the server behaves again
    /// retries and loads to the end.
    /// - Parameters:
    ///   - pager: a pager of `server`'s list, pages of 5, nothing loaded yet.
    ///   - server: the server.
    ///   - row: the fault, and the error it must give.
    static func loseNothing<Key>(_ pager: Pager<Key, Item>, _ server: HostileServer, _ row: FaultCase)
        async throws
    {
        let expected = server.catalog.ids
        #expect(try await pager.loadNext().value == .loaded)
        #expect(try await pager.loadNext().value == .loaded)
        #expect(pager.items.ids == Array(expected.prefix(10)))

        server.inject(row.fault, atRequest: 3)
        let failure = try await #require(throws: PagingError.self) { try await pager.loadNext().value }
        #expect(failure.code == .loadFailed)
        let error = try #require(failure.underlyingError as? GraphQLClientError, "\(failure)")
        row.check(error, endpoint: server.endpoint, keptAlive: true)
        #expect(pager.items.ids == Array(expected.prefix(10)))
        #expect(pager.loadStates.next == .failed(failure))
        #expect(pager.hasNext)

        server.behave()
        #expect(try await pager.retry().value == .loaded)
        #expect(pager.items.ids == Array(expected.prefix(15)))
        #expect(try await Drive.toEnd(pager) == 0)
        #expect(pager.items.ids == expected)
        // The retry asked for exactly the page that failed; nothing was asked twice otherwise.
        let after = [nil] + [4, 9, 9, 14, 19].map { ItemCatalog.cursor(at: $0) }
        #expect(server.requests.map(\.after) == after)
        #expect(server.requests.map(\.first) == Array(repeating: 5, count: 6))
        #expect(server.requests.map(\.fault) == [nil, nil, row.fault, nil, nil, nil])
    }

    // MARK: paging fetch

    /// The arguments of `paging fetch` exporting `server`'s list to a file, pages of 5, with no
    /// retries unless `retries` is given.
    static func fetchArguments(_ server: HostileServer, output: String, retries: Int = 0) -> [String] {
        [
            "fetch", "--endpoint", server.endpoint.absoluteString, "--query", ItemsQuery.document,
            "--page-size", "5", "--retries", String(retries), "--timeout", "1", "-o", output,
        ]
    }

    /// `paging fetch` without retries meets the fault on its third page: it exits 1 with the
    /// client's message and the cursor of the last item written; once the server behaves, the
    /// same command with `--resume` appends the rest to the file.
    @Test(
        "paging fetch stops at each fault with a clear error, and --resume completes the file exactly",
        arguments: FaultCase.all)
    func fetch(_ row: FaultCase) async throws {
        try await withScratchFile { output in
            try await HostileServer.withRunning { server in
                let expected = server.catalog.ids
                let arguments = Self.fetchArguments(server, output: output)
                server.inject(row.fault, atRequest: 3)
                let first = await PagingProcess.run(arguments)
                #expect(first.status == 1)
                #expect(first.standardError.contains("the export failed after 10 items in 2 pages: "))
                for excerpt in row.messageExcerpts {
                    #expect(first.standardError.contains(excerpt), "\(first.standardError)")
                }
                if let code = row.urlErrorCode {
                    #expect(
                        first.standardError.contains("URLError \(code.rawValue)"), "\(first.standardError)")
                }
                #expect(first.resumeCursor == ItemCatalog.cursor(at: 9), "\(first.standardError)")
                #expect(try ids(inJSONLinesFile: output) == Array(expected.prefix(10)))

                server.behave()
                let cursor = try #require(first.resumeCursor)
                let second = await PagingProcess.run(arguments + ["--resume", cursor])
                #expect(second.status == 0, "\(second.standardError)")
                #expect(try ids(inJSONLinesFile: output) == expected)
                let after = [nil] + [4, 9, 9, 14, 19].map { ItemCatalog.cursor(at: $0) }
                #expect(server.requests.map(\.after) == after)
                #expect(server.requests.map(\.fault) == [nil, nil, row.fault, nil, nil, nil])
            }
        }
    }

    /// `paging fetch` with one retry meets the fault once, on its third page: it waits (recorded,
    /// not made) as long as `Retry-After` or its backoff says and completes the export when the
    /// fault is transient, and stops at once, after 10 items, when it is not.
    @Test(
        "paging fetch retries a transient fault once and completes; it stops at once on the others",
        arguments: FaultCase.all)
    func fetchRetries(_ row: FaultCase) async throws {
        try await withScratchFile { output in
            try await HostileServer.withRunning { server in
                let sleeps = Recorder<Duration>()
                server.inject(row.fault, atRequest: 3, times: 1)
                let run = await PagingProcess.run(
                    Self.fetchArguments(server, output: output, retries: 1), sleeps: sleeps)
                let exported = try ids(inJSONLinesFile: output)
                if let delay = row.fetchRetryDelay {
                    #expect(run.status == 0, "\(run.standardError)")
                    #expect(exported == server.catalog.ids)
                    #expect(sleeps.recorded == [delay])
                    #expect(run.standardError.contains("retrying in "), "\(run.standardError)")
                    #expect(server.requests.map(\.fault) == [nil, nil, row.fault, nil, nil, nil])
                } else {
                    #expect(run.status == 1)
                    #expect(exported == Array(server.catalog.ids.prefix(10)))
                    #expect(sleeps.recorded.isEmpty)
                    #expect(server.requests.count == 3)
                }
            }
        }
    }
}

/// Runs `body` with the path of a file that does not exist yet, in a folder of its own that is
/// removed afterwards.
/// - Parameter body: the test, given the path.
/// - Returns: what `body` returns.
private func withScratchFile<T>(
    isolation: isolated (any Actor)? = #isolation, _ body: (String) async throws -> T
) async throws -> T {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("paging-faults-\(UUID())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    return try await body(folder.appendingPathComponent("items.jsonl").path)
}

/// The `id` of each line of a JSON Lines file, in order.
/// - Parameter path: the file.
/// - Returns: the ids; empty when the file does not exist.
/// - Throws: when a line is not a JSON object with a string `id`.
private func ids(inJSONLinesFile path: String) throws -> [String] {
    guard let data = FileManager.default.contents(atPath: path) else { return [] }
    return try data.split(separator: UInt8(ascii: "\n")).map { line in
        guard let object = try JSONSerialization.jsonObject(with: Data(line)) as? [String: Any],
            let id = object["id"] as? String
        else { throw UnexpectedResponse("a line without an id: \(String(decoding: line, as: UTF8.self))") }
        return id
    }
}
