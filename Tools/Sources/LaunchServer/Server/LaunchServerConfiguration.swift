public import Foundation

/// How a ``LaunchServer`` starts: where it listens, what it serves, and how it misbehaves.
///
/// The defaults serve the 100 real SpaceX launches from memory on an ephemeral loopback port,
/// with no latency and no faults.
///
/// ```swift
/// var configuration = LaunchServerConfiguration()
/// configuration.latency = .random(.milliseconds(50) ... .milliseconds(400))
/// configuration.faults = FaultInjection(rate: 0.1)
/// let server = try await LaunchServer.start(configuration)
/// ```
public struct LaunchServerConfiguration: Sendable {
    /// The address to listen on; loopback by default.
    public var host: String = "127.0.0.1"
    /// The port to listen on; 0 (the default) lets the system choose a free one.
    public var port: Int = 0
    /// Where the database lives; in memory by default.
    public var database: LaunchDatabase = .inMemory
    /// What a new database is filled with; the real SpaceX launches by default.
    public var dataset: LaunchDataset = .spaceX
    /// The delay before each request is handled.
    public var latency: Latency = .none
    /// The share of requests that fail, and how.
    public var faults: FaultInjection = .none
    /// How many requests the server answers per window of time, GitHub's way; `nil` (the
    /// default) for no limit.
    public var rateLimit: RateLimitPolicy?
    /// The date and time, which the rate limit's windows follow. Tests inject a clock they
    /// move by hand; the default is the system's.
    public var date: @Sendable () -> Date = { Date() }
    /// The seed of the random latency and faults: the same seed gives the same sequence.
    public var seed: UInt64 = 0
    /// The largest request body accepted, in bytes; larger bodies get HTTP 413. 1 MiB by default.
    public var maximumBodySize: Int = 1 << 20
    /// How long a WebSocket may stay open without `connection_init` before the server closes
    /// it with 4408; 3 seconds by default.
    public var subscriptionInitTimeout: Duration = .seconds(3)
    /// The largest WebSocket message read, in bytes; a larger one closes the socket with 1009
    /// (message too big). 64 KiB by default.
    public var maximumMessageSize: Int = 64 * 1024
    /// What a WebSocket's `connection_init` must carry as its payload's `authorization`
    /// member, or be closed with 4403; `nil` (the default) accepts every socket. (HTTP requests
    /// are not checked.)
    public var subscriptionAuthorization: String?
    /// How often the server schedules a launch on its own (at the head of the newest-first
    /// list, delivered by `launchAdded`), to watch a list live; `nil` (the default) for never.
    public var scheduleEvery: Duration?
    /// Whether the server logs each request (at `info` level); only errors otherwise.
    public var logsRequests: Bool = false
    /// How long ``LaunchServer/stop()`` lets the requests in flight finish before it cancels
    /// them: a request that never ends (a client that stopped reading, a handler held up) does
    /// not keep the server from stopping. 10 seconds unless set.
    public var shutdownGracePeriod: Duration = .seconds(10)
    /// How the server waits for a latency. Tests inject a function that records the durations
    /// instead of waiting; the default is `Task.sleep(for:)`.
    public var sleep: @Sendable (Duration) async throws -> Void = { duration in
        try await Task.sleep(for: duration)
    }

    /// Creates the default configuration.
    public init() {}

    /// Checks the values that can be out of range.
    ///
    /// - Throws: ``LaunchServerError`` naming the bad value.
    func validate() throws(LaunchServerError) {
        guard (0...65_535).contains(port) else {
            throw .invalidConfiguration("port must be between 0 and 65535; it is \(port)")
        }
        guard (0...1).contains(faults.rate) else {
            throw .invalidConfiguration("faults.rate must be between 0 and 1; it is \(faults.rate)")
        }
        guard maximumBodySize > 0 else {
            throw .invalidConfiguration("maximumBodySize must be positive; it is \(maximumBodySize)")
        }
        guard maximumMessageSize > 0 else {
            throw .invalidConfiguration("maximumMessageSize must be positive; it is \(maximumMessageSize)")
        }
        guard subscriptionInitTimeout > .zero else {
            throw .invalidConfiguration(
                "subscriptionInitTimeout must be positive; it is \(subscriptionInitTimeout)")
        }
        if let scheduleEvery, scheduleEvery < .milliseconds(10) {
            throw .invalidConfiguration("scheduleEvery must be 10 ms or more; it is \(scheduleEvery)")
        }
        if let rateLimit, rateLimit.requests < 1 || rateLimit.window < .seconds(1) {
            throw .invalidConfiguration(
                "the rate limit must allow 1 request or more per window of a second or more; it is \(rateLimit.requests) per \(rateLimit.window)"
            )
        }
        if case .synthetic(let count) = dataset, count < 0 {
            throw .invalidConfiguration("the synthetic dataset's count must be 0 or more; it is \(count)")
        }
    }
}
