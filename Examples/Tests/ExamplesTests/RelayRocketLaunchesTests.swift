import Foundation
import LaunchServer
import PagingGraphQL
import Testing

@testable import RelayRocketLaunches

/// Counts the requests a client sends, by operation name.
private final class CountingTransport: GraphQLTransport {
    let base = URLSessionTransport()
    let names = Counter()

    func send(_ request: GraphQLHTTPRequest) async throws -> GraphQLHTTPResponse {
        let body = try JSONSerialization.jsonObject(with: request.body) as? [String: Any]
        names.add(body?["operationName"] as? String ?? "?")
        return try await base.send(request)
    }
}

/// The operation names seen, in order.
private final class Counter: @unchecked Sendable {
    // @unchecked: every access holds the lock.
    private var seen: [String] = []
    private let lock = NSLock()
    func add(_ name: String) { lock.withLock { seen.append(name) } }
    var names: [String] { lock.withLock { seen } }
}

@Suite("RelaySwiftUI's pagination fragment, on generated types")
struct RelayRocketLaunchesTests {
    @Test(
        "the fragment's list starts from the parent query's launches and pages the rest with its refetch query"
    )
    @MainActor
    func pagesARocketsLaunches() async throws {
        try await LaunchServer.withRunning(LaunchServerConfiguration()) { server in
            // Every Falcon 9 launch, newest first, from the server's own connection.
            let all = try await GraphQLClient(endpoint: server.graphQLURL).send(
                UntypedOperation(document: "{ launchConnection(first: 100) { nodes { id rocket { id } } } }"))
            let expected = (all.data?["launchConnection"]?["nodes"]?.arrayValue ?? []).compactMap { node in
                node["rocket"]?["id"]?.stringValue == "falcon9" ? node["id"]?.stringValue : nil
            }
            try #require(expected.count > 20, "enough launches for three pages")

            let transport = CountingTransport()
            let client = GraphQLClient(endpoint: server.graphQLURL, transport: transport)
            let view = try #require(try await RocketLaunchesView(rocket: "falcon9", client: client))
            #expect(view.rocket.name == "Falcon 9")
            try await view.loadNext(10)
            #expect(view.launches.items.map(\.id) == Array(expected.prefix(10)))
            #expect(transport.names.names == ["RocketQuery"], "the first page came with the rocket")

            var pages = 1
            while view.launches.hasNext, !Task.isCancelled {
                try await view.loadNext(10)
                pages += 1
                try #require(pages <= 20, "the list did not end")
            }
            #expect(view.launches.items.map(\.id) == expected)
            #expect(transport.names.names.dropFirst().allSatisfy { $0 == "RocketLaunchesPaginationQuery" })
            #expect(transport.names.names.count == pages)
        }
    }
}
