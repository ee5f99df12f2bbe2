public import Foundation
import Hummingbird
import HummingbirdWebSocket
import Logging
import NIOCore
import ServiceLifecycle

/// The launch server, running in-process: GraphQL and REST over HTTP, and GraphQL subscriptions
/// over WebSocket, on a loopback port.
///
/// Start it, use its ``baseURL``, stop it:
///
/// ```swift
/// let server = try await LaunchServer.start()
/// defer { Task { await server.stop() } }
/// let url = server.graphQLURL  // http://127.0.0.1:<port>/graphql
/// ```
///
/// ``start(_:)`` returns once the server is listening (it waits for the bound port, it does not
/// sleep), so requests can be sent at once. Call ``stop()`` before the server is released.
public final class LaunchServer: Sendable {
    /// The address of the server, such as `http://127.0.0.1:52117`.
    public let baseURL: URL
    /// The port the server listens on (the system's choice when the configuration asked for 0).
    public let port: Int
    /// The address of the GraphQL endpoint, ``baseURL`` + `/graphql`.
    public var graphQLURL: URL { baseURL.appending(path: "graphql") }

    /// The store, for tests that look at or change the data directly.
    let store: LaunchStore
    /// The schema and resolvers, for tests that run GraphQL without HTTP.
    let api: LaunchAPI
    private let group: ServiceGroup
    private let running: Task<Void, any Error>

    private init(
        baseURL: URL, port: Int, store: LaunchStore, api: LaunchAPI, group: ServiceGroup,
        running: Task<Void, any Error>
    ) {
        self.baseURL = baseURL
        self.port = port
        self.store = store
        self.api = api
        self.group = group
        self.running = running
    }

    /// Opens the database, fills it if it is new, and starts listening.
    ///
    /// - Parameter configuration: Where to listen, what to serve, and the latency and faults;
    ///   the defaults serve the SpaceX launches from memory on an ephemeral loopback port.
    /// - Returns: The running server, once it accepts connections.
    /// - Throws: ``LaunchServerError`` when the configuration is invalid, the database cannot be
    ///   prepared, or the address cannot be bound.
    public static func start(_ configuration: LaunchServerConfiguration = LaunchServerConfiguration())
        async throws
        -> LaunchServer
    {
        try configuration.validate()
        let store = try await LaunchStore.open(
            database: configuration.database, dataset: configuration.dataset)
        let api: LaunchAPI
        do {
            api = try LaunchAPI()
        } catch {
            throw LaunchServerError.startFailed("the GraphQL schema could not be built: \(error)")
        }
        var logger = Logger(label: "LaunchServer")
        logger.logLevel = configuration.logsRequests ? .info : .error

        // The responder needs the base URL for its links, and the URL needs the bound port: the
        // list endpoint reads it from this box, which is filled before the first request.
        let baseAddress = LinkBase(host: configuration.host)
        let context = LaunchContext(store: store)
        let responder = LaunchResponder(
            graphQL: GraphQLEndpoint(
                api: api, context: context, maximumBodySize: configuration.maximumBodySize),
            timeline: TimelineEndpoint(store: store),
            list: LaunchListEndpoint(store: store, baseURL: baseAddress),
            faults: FaultInjector(
                latency: configuration.latency, faults: configuration.faults, seed: configuration.seed),
            rateLimiter: configuration.rateLimit.map { RateLimiter(policy: $0, date: configuration.date) },
            sleep: configuration.sleep,
            logger: logger
        )
        let subscriptions = SubscriptionEndpoint(
            api: api, context: context, initTimeout: configuration.subscriptionInitTimeout,
            maximumMessageBytes: configuration.maximumMessageSize,
            authorization: configuration.subscriptionAuthorization,
            sleep: { duration in try await Task.sleep(for: duration) })
        let (listening, continuation) = AsyncStream<Int>.makeStream()
        let application = Application(
            responder: responder,
            server: .http1WebSocketUpgrade(
                configuration: HTTP1WebSocketUpgradeChannel.Configuration(
                    ws: WebSocketServerConfiguration(
                        maxFrameSize: configuration.maximumMessageSize, validateUTF8: true))
            ) { request, _, _ in
                subscriptions.shouldUpgrade(request)
            },
            configuration: ApplicationConfiguration(
                address: .hostname(configuration.host, port: configuration.port),
                serverName: "LaunchServer"
            ),
            onServerRunning: { channel in
                let port = channel.localAddress?.port ?? configuration.port
                baseAddress.bind(port: port)
                continuation.yield(port)
                continuation.finish()
            },
            logger: logger
        )
        var services: [any Service] = [application]
        if let interval = configuration.scheduleEvery {
            services.append(LaunchScheduler(store: store, interval: interval, logger: logger))
        }
        var groupConfiguration = ServiceGroupConfiguration(services: services, logger: logger)
        // Past the grace period, a graceful shutdown cancels what is still running.
        groupConfiguration.maximumGracefulShutdownDuration = configuration.shutdownGracePeriod
        let group = ServiceGroup(configuration: groupConfiguration)
        // On threads of its own (ServerThreads), passed on to every connection's task.
        let running = Task(executorPreference: ServerThreads.shared) {
            defer { continuation.finish() }
            try await group.run()
        }
        var iterator = listening.makeAsyncIterator()
        guard let port = await iterator.next() else {
            let reason: String
            do {
                try await running.value
                reason = "the server stopped before it listened"
            } catch {
                reason = "\(error)"
            }
            throw LaunchServerError.startFailed(
                "could not listen on \(configuration.host):\(configuration.port): \(reason)")
        }
        guard let baseURL = URL(string: "http://\(LinkBase.hostText(configuration.host)):\(port)") else {
            await group.triggerGracefulShutdown()
            _ = await running.result
            throw LaunchServerError.invalidConfiguration(
                "'\(configuration.host)' is not a host name or address")
        }
        return LaunchServer(
            baseURL: baseURL, port: port, store: store, api: api, group: group, running: running)
    }

    /// Stops accepting connections, lets the requests in flight finish (for at most
    /// ``LaunchServerConfiguration/shutdownGracePeriod``, then cancels them), and returns once
    /// the server has stopped. Calling it again does nothing more.
    public func stop() async {
        await group.triggerGracefulShutdown()
        _ = await running.result
    }
}
