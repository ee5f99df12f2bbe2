import Foundation
import LaunchServer
import PagingGraphQL

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Starts a launch server on an ephemeral loopback port, runs `body` with it, and stops it
/// whatever happens, as `defer` would if it could await.
///
/// The body runs on the caller's actor (the main actor for the tests of `PagedList`), so it may
/// touch the caller's state.
///
/// - Parameters:
///   - configure: changes to the default configuration (SpaceX data, no latency, no faults).
///   - gate: when given, every request waits at it before the server handles it (through the
///     server's injectable latency), and it is opened before the server stops so that no held
///     request can keep the server from stopping.
///   - body: the test.
/// - Returns: what `body` returns.
func withLaunchServer<T>(
    isolation: isolated (any Actor)? = #isolation,
    _ configure: (inout LaunchServerConfiguration) -> Void = { _ in },
    gate: RequestGate? = nil,
    _ body: (LaunchServer) async throws -> T
) async throws -> T {
    var configuration = LaunchServerConfiguration()
    // A test's socket sends `connection_init` at once; on a busy machine the server's three
    // seconds for it ran out first (RELIABILITY.md, "Under load"). The test of that wait sets its own.
    configuration.subscriptionInitTimeout = .seconds(600)
    configure(&configuration)
    if let gate {
        configuration.latency = .fixed(.nanoseconds(1))
        configuration.sleep = { _ in await gate.pass() }
    }
    return try await LaunchServer.withRunning(configuration) { server in
        // A held request must not keep the server from stopping.
        defer { gate?.open() }
        return try await body(server)
    }
}

extension LaunchServer {
    /// A GraphQL client for the server, over the tests' one transport (``TestSession``).
    var client: GraphQLClient {
        GraphQLClient(endpoint: graphQLURL, timeout: patience, transport: TestSession.transport)
    }

    /// A REST client for the server's timeline and launch list.
    var rest: RESTClient { RESTClient(baseURL: baseURL) }
}
