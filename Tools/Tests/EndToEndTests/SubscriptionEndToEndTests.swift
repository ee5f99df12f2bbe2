import Foundation
import LaunchServer
import PagingGraphQL
import PagingHTTPClient
import Testing

/// GraphQL subscriptions end to end: the client (`GraphQLClient.subscribe`, over
/// `NIOWebSocketTransport`) against the launch server's WebSocket endpoint on loopback.
@Suite("Subscriptions end to end", .timeLimit(.minutes(30)))
struct SubscriptionEndToEndTests {
    static let added = UntypedOperation(
        document: "subscription LiveLaunches { launchAdded { id site mission { name } } }",
        operationName: "LiveLaunches")

    static func schedule(_ mission: String) -> UntypedOperation {
        UntypedOperation(
            document:
                "mutation Schedule($mission: String!) { scheduleLaunch(mission: $mission, site: \"KSC LC 39A\") { id } }",
            operationName: "Schedule", variables: ["mission": .string(mission)])
    }

    /// A client of the server with a store and a WebSocket client whose reconnections wait
    /// milliseconds.
    static func client(_ server: LaunchServer, store: GraphQLStore = GraphQLStore()) -> (
        GraphQLClient, GraphQLWebSocketClient
    ) {
        let webSocket = GraphQLWebSocketClient(
            url: server.webSocketURL, transport: NIOWebSocketTransport(),
            reconnectPolicy: GraphQLReconnectPolicy(
                initialDelay: .milliseconds(20), maximumDelay: .milliseconds(200), maximumAttempts: nil))
        let client = GraphQLClient(
            endpoint: server.graphQLURL, timeout: patience, transport: TestSession.transport,
            store: store,
            webSocket: webSocket)
        return (client, webSocket)
    }

    @Test("each launch scheduled arrives once, in order, and is written into the store")
    func delivered() async throws {
        try await withLaunchServer { server in
            let store = GraphQLStore()
            let (client, _) = Self.client(server, store: store)
            var responses = client.subscribe(Self.added).makeAsyncIterator()
            await server.waitForSubscriptions(1)
            var ids: [String] = []
            // Scheduled by a client without the store: only the subscription writes the launches.
            for mission in ["Alpha", "Beta", "Gamma"] {
                let response = try await server.client.send(Self.schedule(mission))
                ids.append(try #require(response.data?["scheduleLaunch"]?["id"]?.stringValue))
            }
            for (index, mission) in ["Alpha", "Beta", "Gamma"].enumerated() {
                let response = try #require(try await responses.next())
                let launch = response.data?["launchAdded"]
                #expect(launch?["id"]?.stringValue == ids[index])
                #expect(launch?["mission"]?["name"]?.stringValue == mission)
                // Written before it was delivered, with the fields the subscription selects.
                let record = store.record(for: CacheKey("Launch:\(ids[index])"))
                #expect(record?["site"] == .scalar(.string("KSC LC 39A")))
            }
        }
    }

    @Test("after the server goes away and comes back on its port, the client reconnects and resubscribes")
    func reconnects() async throws {
        var configuration = LaunchServerConfiguration()
        let first = try await LaunchServer.start(configuration)
        // Stopped here unless the test stops it first (stopping again does nothing).
        defer { Task { await first.stop() } }
        let (client, webSocket) = Self.client(first)
        var statuses = webSocket.statusUpdates.makeAsyncIterator()
        var responses = client.subscribe(Self.added).makeAsyncIterator()
        await first.waitForSubscriptions(1)
        _ = try await client.send(Self.schedule("Before"))
        let before = try #require(try await responses.next())
        #expect(before.data?["launchAdded"]?["mission"]?["name"]?.stringValue == "Before")

        await first.stop()
        configuration.port = first.port
        // The client retries until a server listens on the port again.
        try await LaunchServer.withRunning(configuration) { second in
            await second.waitForSubscriptions(1)
            let response = try await GraphQLClient(
                endpoint: second.graphQLURL, timeout: patience, transport: TestSession.transport
            ).send(Self.schedule("After"))
            #expect(response.errors.isEmpty)
            let after = try #require(try await responses.next())
            #expect(after.data?["launchAdded"]?["mission"]?["name"]?.stringValue == "After")
        }
        var seen: [String] = []
        while let status = await statuses.next() {
            seen.append(status.description)
            if case .connected(let connection) = status, connection >= 2 { break }
        }
        #expect(seen.first == "idle" || seen.first?.hasPrefix("connecting") == true)
        #expect(seen.contains { $0.hasPrefix("reconnecting") })
        #expect(seen.last == "connected(connection: 2)")
    }
}
