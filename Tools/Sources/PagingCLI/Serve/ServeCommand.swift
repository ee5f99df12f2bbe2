import ArgumentParser
import Foundation
import LaunchServer

/// `paging serve`: runs the launch server until Ctrl-C, and prints how to page it.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run the launch server (GraphQL and REST) until Ctrl-C.",
        discussion: """
            Serves the Apollo tutorial's launches (the 100 real SpaceX launches, or --synthetic N) \
            as the tutorial's connection, a Relay connection, an offset page and REST lists, and \
            the launches added and booked as GraphQL subscriptions over WebSocket \
            (graphql-transport-ws, at /graphql); --schedule-every adds launches on its own.
            """
    )

    @Option(name: .long, help: "The port to listen on; 0 lets the system choose.")
    var port: Int = 8080

    @Option(name: .long, help: "The address to listen on; 0.0.0.0 to accept connections from other machines.")
    var host: String = "127.0.0.1"

    @Option(
        name: .long,
        help: ArgumentHelp("Keep the launches in this SQLite file instead of memory.", valueName: "file"))
    var database: String?

    @Flag(name: .customLong("log-requests"), help: "Log each request.")
    var logRequests = false

    @Option(
        name: .customLong("schedule-every"),
        help: ArgumentHelp(
            "Schedule a launch every this many seconds, at the head of the list and on the launchAdded subscription, to watch a list live.",
            valueName: "seconds"))
    var scheduleEvery: Double?

    @OptionGroup var server: ServerOptions

    func validate() throws {
        guard (0...65_535).contains(port) else {
            throw ValidationError("--port must be between 0 and 65535; it is \(port).")
        }
        if let scheduleEvery, !(scheduleEvery >= 0.01 && scheduleEvery <= 86_400) {
            throw ValidationError(
                "--schedule-every must be between 0.01 and 86400 seconds; it is \(scheduleEvery).")
        }
    }

    func run() async throws {
        let io = CommandIO.current
        var base = LaunchServerConfiguration()
        base.host = host
        base.port = port
        base.logsRequests = logRequests
        if let database { base.database = .file(path: database) }
        if let scheduleEvery { base.scheduleEvery = .milliseconds(Int64((scheduleEvery * 1000).rounded())) }
        let running: LaunchServer
        do {
            running = try await LaunchServer.start(server.configuration(base: base))
        } catch {
            throw CLIError.failed(
                "the launch server could not start: \(error). If the port is taken, choose another with --port (0 picks a free one)."
            )
        }
        io.standardOutput.write(Self.banner(for: running))
        let (stopped, stop) = AsyncStream<Void>.makeStream()
        let stopWatching = io.onInterrupt { stop.finish() }
        for await _ in stopped {}
        stopWatching()
        io.standardOutput.line("Stopping the launch server…")
        await running.stop()
    }

    /// What `serve` prints once it listens: the routes, and commands to try.
    static func banner(for server: LaunchServer) -> String {
        let graphQL = server.graphQLURL.absoluteString
        let base = server.baseURL.absoluteString
        let query =
            "query($first: Int, $after: String) { launchConnection(first: $first, after: $after) { edges { node { id site mission { name } rocket { name } launchDate } } pageInfo { hasNextPage endCursor } totalCount } }"
        return """
            The launch server is listening on \(base)
              GraphQL  \(graphQL)
              REST     \(base)/api/launches?per_page=20
              Live     \(graphQL.replacingOccurrences(of: "http://", with: "ws://")) (WebSocket, graphql-transport-ws):
                       subscription { launchAdded { id mission { name } site } }

            Export every launch as JSON Lines:
              paging fetch --endpoint \(graphQL) --query '\(query)'

            Or the REST list, following its Link headers:
              paging fetch --rest '\(base)/api/launches?per_page=20'

            Browse it in the terminal:
              paging browse --endpoint \(graphQL) --query '\(query)' --fields mission.name,rocket.name,site,launchDate

            Press Ctrl-C to stop.

            """
    }
}
