import Foundation
import LaunchServer
import Paging
import PagingGraphQL
import PagingHTTPClient
import PagingTesting
import Testing
import ToolsLock

@testable import PagingCLI

/// A live list (`LiveList`) against the launch server on loopback, over `NIOWebSocketTransport`,
/// while its connection is broken again and again: at the end it holds every launch exactly
/// once, in the server's order.
@Suite("Live lists end to end", .timeLimit(.minutes(30)))
struct LiveListEndToEndTests {
    /// `launchConnection`, keyed for the subscription's directive.
    static let list = """
        query Launches($first: Int, $after: String) {
          launchConnection(first: $first, after: $after) @connection(key: "Launches") {
            edges { node { \(Launch.selection) } }
          }
        }
        """

    /// Each launch scheduled, put at the top of the lists of `Launches` by the store.
    static let launchAdded = UntypedOperation(
        document: """
            subscription LiveLaunches {
              launchAdded @prependNode(connections: ["Launches"]) { \(Launch.selection) }
            }
            """,
        operationName: "LiveLaunches")

    /// A way the connection breaks.
    enum Fault: CaseIterable, CustomStringConvertible {
        /// The socket is reset between the client and the server.
        case drop
        /// The socket goes silent both ways; the client's pings go unanswered.
        case stall
        /// The client's network goes off, for a while.
        case network

        var description: String {
            switch self {
            case .drop: "drop"
            case .stall: "stall"
            case .network: "network off"
            }
        }
    }

    /// The disconnections to make: `PAGING_DISCONNECTS`, or 100.
    static var disconnects: Int {
        ProcessInfo.processInfo.environment["PAGING_DISCONNECTS"].flatMap(Int.init) ?? 100
    }

    @Test("100 random disconnects while launches are scheduled: every launch once, in server order")
    func randomDisconnects() async throws {
        let seed =
            ProcessInfo.processInfo.environment["PAGING_SEED"].flatMap(UInt64.init)
            ?? UInt64.random(in: 1...UInt64.max)
        print("Live list end-to-end seed: \(seed) (replay with PAGING_SEED=\(seed))")
        var random = SeededGenerator(seed: seed)
        try await withLaunchServer { server in
            let proxy = try FaultyTCPProxy.start(relayingTo: server.port)
            defer { proxy.stop() }
            // The client's network: what `demo --live`'s o key switches.
            let network = NetworkSwitch(
                over: TestSession.transport,
                webSockets: NIOWebSocketTransport(
                    connectTimeout: .seconds(5), closeTimeout: .milliseconds(300),
                    pingInterval: .milliseconds(100)),
                on: true)
            var components = URLComponents(url: server.webSocketURL, resolvingAgainstBaseURL: false)
            components?.port = proxy.port
            let url = try #require(components?.url)
            let webSocket = GraphQLWebSocketClient(
                url: url, transport: network,
                reconnectPolicy: GraphQLReconnectPolicy(
                    initialDelay: .milliseconds(10), maximumDelay: .milliseconds(100), maximumAttempts: nil),
                random: SeededGenerator(seed: seed))
            // Pages over HTTP straight to the server; only the socket goes through the proxy.
            let client = GraphQLClient(
                endpoint: server.graphQLURL, timeout: patience, transport: TestSession.transport,
                store: GraphQLStore(), webSocket: webSocket)
            let pager = ConnectionSource(
                client: client, document: try ConnectionDocument(Self.list), as: Launch.self
            ).makePager(configuration: try PagingConfiguration(pageSize: 50, prefetchDistance: 0))
            #expect(try await pager.loadNext().value == .loaded)
            let initial = pager.items.count
            // A catch-up may meet every launch scheduled so far (on a busy machine, each catch-up
            // may be superseded by the next connection's until the last): it loads up to 100 pages
            // to reach the rows held, rather than restarting the list.
            let live = LiveList(
                pager: pager, client: client, subscription: Self.launchAdded, maximumPages: 100)
            let running = Task { try await live.run() }
            defer { running.cancel() }

            let scheduler = server.client
            let scheduled = Locked<[String]>([])
            @Sendable func schedule(_ count: Int) async throws {
                for _ in 0..<count {
                    let mission = "Live \(scheduled.withLock { $0.count })"
                    let response = try await scheduler.send(SubscriptionEndToEndTests.schedule(mission))
                    let id = try #require(response.data?["scheduleLaunch"]?["id"]?.stringValue)
                    scheduled.withLock { $0.append(id) }
                }
            }
            // Launches are scheduled all along, a few milliseconds apart: some while the list is
            // live, some while it is disconnected, some while it catches up.
            let pace = Locked(SeededGenerator(seed: seed &+ 1))
            let background = Task {
                while !Task.isCancelled {
                    try await schedule(1)
                    try await Task.sleep(
                        for: .milliseconds(pace.withLock { Int.random(in: 2...8, using: &$0) }))
                }
            }
            var statuses = webSocket.statusUpdates.makeAsyncIterator()
            var connections = 0
            /// Waits for the next connection acknowledged.
            func reconnected() async {
                while let status = await statuses.next() {
                    if case .failed(let error) = status {
                        Issue.record("the client gave up reconnecting: \(error)")
                        return
                    }
                    if case .connected(let number) = status, number > connections {
                        connections = number
                        return
                    }
                }
            }
            await reconnected()
            var faults: [Fault: Int] = [:]
            for _ in 0..<Self.disconnects {
                let fault = Fault.allCases.randomElement(using: &random) ?? .drop
                faults[fault, default: 0] += 1
                switch fault {
                case .drop:
                    proxy.dropAll()
                case .stall:
                    proxy.stallAll()
                case .network:
                    network.turnOff()
                    try await schedule(Int.random(in: 1...3, using: &random))
                    network.turnOn()
                }
                await reconnected()
            }
            background.cancel()
            _ = try? await background.value
            // The last launch comes live once the list is live again.
            try await schedule(1)
            let scheduledIDs = scheduled.withLock { $0 }
            // Every launch scheduled is held once the last connection's catch-up has swapped in.
            // Not sooner: on a busy machine each catch-up may be superseded by the next connection's
            // before its pages come, and the last launch may come live before the last catch-up
            // starts. Bounded, so that a list that never settles fails the test rather than hanging.
            let wanted = Set(scheduledIDs)
            let settled = await withTaskGroup(of: PagingSnapshot<Launch>?.self) { group in
                group.addTask {
                    await pager.until { snapshot in
                        !snapshot.loadStates.refresh.isLoading
                            && wanted.isSubset(of: Set(snapshot.items.lazy.map(\.id)))
                    }
                }
                group.addTask {
                    try? await Task.sleep(for: .seconds(120))
                    return nil
                }
                let first = await group.next() ?? nil
                group.cancelAll()
                return first
            }
            let held = try #require(
                settled,
                "not every launch scheduled came in within 120 s: \(pager.items.count) held of \(scheduledIDs.count) scheduled; \(pager.loadStates)"
            ).items.ids
            print(
                "Live list end to end: \(scheduledIDs.count) launches scheduled over \(connections) connections; faults \(faults)"
            )

            let current = try await ListsThatMoveEndToEndTests.current(scheduler)
            if let split = held.indices.first(where: { $0 >= current.count || held[$0] != current[$0] }) {
                print(
                    "first difference at \(split): held \(held[max(0, split - 3)..<min(held.count, split + 5)]) server \(current[max(0, split - 3)..<min(current.count, split + 5)])"
                )
            }
            #expect(held == Array(current.prefix(held.count)), "the server's order, with no gap")
            #expect(Set(held).count == held.count, "each launch once")
            #expect(Set(scheduledIDs).isSubset(of: Set(held)), "every launch scheduled")
            #expect(held.count >= initial + scheduledIDs.count)
            #expect(connections >= Self.disconnects + 1)
        }
    }
}

extension Pager {
    /// The first snapshot, from the current one on, that satisfies a condition.
    func until(_ condition: @Sendable (PagingSnapshot<Item>) -> Bool) async -> PagingSnapshot<Item>? {
        for await snapshot in snapshots where condition(snapshot) { return snapshot }
        return nil
    }
}
