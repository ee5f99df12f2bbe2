import Foundation
import LaunchServer
import PagingTesting
import ToolsLock

@testable import PagingCLI

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What a command run in-process printed and returned.
struct CommandRun: Sendable {
    var status: Int32
    var standardOutput: String
    var standardError: String

    /// The standard output's lines, without the empty last one.
    var outputLines: [String] { standardOutput.split(separator: "\n").map(String.init) }

    /// The cursor printed after `--resume`, unquoted.
    var resumeCursor: String? {
        guard let range = standardError.range(of: "--resume ") else { return nil }
        let rest = standardError[range.upperBound...].prefix { $0 != "\n" }
        if rest.hasPrefix("'"), rest.hasSuffix("'"), rest.count >= 2 {
            return String(rest.dropFirst().dropLast()).replacingOccurrences(of: "'\\''", with: "'")
        }
        return String(rest)
    }
}

/// A clock tests move by hand.
final class ManualClock: Sendable {
    private let time = Locked(Duration.zero)
    func advance(by duration: Duration) { time.withLock { $0 += duration } }
    var now: @Sendable () -> Duration { { self.time.withLock { $0 } } }
}

enum Command {
    /// Runs `paging` with arguments in-process, capturing its output; waits recorded, not made.
    /// - Parameters:
    ///   - date: the date and time the command sees; the system's unless given.
    ///   - onSleep: told each wait, after it is recorded (a test moves its clocks by it).
    static func run(
        _ arguments: [String], sleep: Recorder<Duration> = Recorder<Duration>(),
        clock: ManualClock = ManualClock(),
        errorIsTerminal: Bool = false, interrupt: (@Sendable (@escaping @Sendable () -> Void) -> Void)? = nil,
        date: @escaping @Sendable () -> Date = { Date() }, onSleep: (@Sendable (Duration) -> Void)? = nil
    ) async -> CommandRun {
        let output = TextBuffer()
        let error = TextBuffer()
        let io = CommandIO(
            standardOutput: output.sink, standardError: error.sink, isOutputTerminal: false,
            isErrorTerminal: errorIsTerminal,
            sleep: { duration in
                sleep.record(duration)
                onSleep?(duration)
            },
            now: clock.now,
            onInterrupt: { handler in
                interrupt?(handler)
                return {}
            },
            date: date)
        let status = await CommandIO.$current.withValue(io) {
            await PagingCommand.execute(patient(arguments))
        }
        return CommandRun(status: status, standardOutput: output.text, standardError: error.text)
    }

    /// The commands that send requests and take `--timeout`.
    private static let timedCommands: Set<String> = ["fetch", "browse", "schema"]

    /// `arguments` with `--timeout` set to ``patience`` after the command's name, when the command
    /// takes it and the test did not set it: the 30 s a user gets measured, with every test at
    /// once, how many ran beside the request.
    static func patient(_ arguments: [String]) -> [String] {
        guard let command = arguments.first, timedCommands.contains(command),
            !arguments.contains(where: { $0 == "--timeout" || $0.hasPrefix("--timeout=") })
        else { return arguments }
        return [command, "--timeout", String(patience.components.seconds)] + arguments.dropFirst()
    }
}

/// Starts a launch server for one test and stops it after.
func withLaunchServer<T>(
    _ configure: (inout LaunchServerConfiguration) -> Void = { _ in },
    _ body: (LaunchServer) async throws -> T
) async throws -> T {
    var configuration = LaunchServerConfiguration()
    // A test's socket sends `connection_init` at once; on a busy machine the server's three
    // seconds for it ran out first (RELIABILITY.md, "Under load"). The test of that wait sets its own.
    configuration.subscriptionInitTimeout = .seconds(600)
    configure(&configuration)
    return try await LaunchServer.withRunning(configuration, body)
}

/// The query the fetch tests export: every launch of the Relay connection, both ways.
let launchConnectionQuery = """
    query Launches($first: Int, $after: String, $last: Int, $before: String) {
      launchConnection(first: $first, after: $after, last: $last, before: $before) {
        edges { cursor node { id site mission { name } } }
        pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
        totalCount
      }
    }
    """

/// The ids of exported JSON Lines.
func ids(inJSONLines text: String) throws -> [String] {
    try text.split(separator: "\n").map { line in
        let object = try JSONSerialization.jsonObject(with: Data(line.utf8))
        guard let dictionary = object as? [String: Any], let id = dictionary["id"] as? String else {
            throw TestFailure("a line without an id: \(line)")
        }
        return id
    }
}

/// A failure of a test's own step.
struct TestFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// Every launch id the server has, newest first, in one request (at most 100).
func allLaunchIDs(_ server: LaunchServer) async throws -> [String] {
    var request = URLRequest(url: server.graphQLURL)
    request.httpMethod = "POST"
    request.setValue("application/json", forHTTPHeaderField: "Content-Type")
    request.httpBody = Data(#"{"query":"{ launchConnection(first: 100) { nodes { id } } }"}"#.utf8)
    let (data, _) = try await URLSession.shared.data(for: request)
    guard let object = try JSONSerialization.jsonObject(with: data) as? [String: Any],
        let dataObject = object["data"] as? [String: Any],
        let connection = dataObject["launchConnection"] as? [String: Any],
        let nodes = connection["nodes"] as? [[String: Any]]
    else { throw TestFailure("unexpected answer: \(String(decoding: data, as: UTF8.self))") }
    return nodes.compactMap { $0["id"] as? String }
}
