import ArgumentParser
import LaunchServer

/// The launch server's data, latency and fault options, shared by `demo` and `serve`.
struct ServerOptions: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "Serve this many synthetic launches instead of the 100 real SpaceX launches.",
            valueName: "count"))
    var synthetic: Int?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Delay each request: milliseconds (300) or a random range (100-600).", valueName: "ms"))
    var latency: LatencyOption?

    @Option(
        name: .customLong("failure-rate"),
        help: ArgumentHelp(
            "Fail this share of requests, 0 to 1 (an HTTP 500, a GraphQL error or a dropped connection).",
            valueName: "rate"))
    var failureRate: Double = 0

    @Option(
        name: .customLong("rate-limit"),
        help: ArgumentHelp(
            "Answer at most this many requests per window, GitHub's way (X-RateLimit-* fields on every answer, 403 beyond).",
            valueName: "requests"))
    var rateLimit: Int?

    @Option(
        name: .customLong("rate-limit-window"),
        help: ArgumentHelp("With --rate-limit: the window's length in seconds.", valueName: "seconds"))
    var rateLimitWindow: Int = 60

    @Option(
        name: .long, help: "Seed of the random latency and failures: the same seed fails the same requests.")
    var seed: UInt64 = 0

    func validate() throws {
        if let synthetic, synthetic < 0 {
            throw ValidationError("--synthetic must be 0 or more; it is \(synthetic).")
        }
        if let rateLimit, rateLimit < 1 {
            throw ValidationError("--rate-limit must be 1 or more; it is \(rateLimit).")
        }
        if rateLimitWindow < 1 {
            throw ValidationError("--rate-limit-window must be 1 second or more; it is \(rateLimitWindow).")
        }
        guard (0...1).contains(failureRate) else {
            throw ValidationError(
                "--failure-rate must be between 0 and 1 (0.1 fails one request in ten); it is \(failureRate)."
            )
        }
    }

    /// The server configuration these options describe, on top of `base`.
    /// - Parameters:
    ///   - base: where to listen and what database to use.
    ///   - defaultLatency: the latency when `--latency` is not given.
    func configuration(
        base: LaunchServerConfiguration = LaunchServerConfiguration(), defaultLatency: Latency = .none
    )
        -> LaunchServerConfiguration
    {
        var configuration = base
        if let synthetic { configuration.dataset = .synthetic(count: synthetic) }
        configuration.latency = latency?.latency ?? defaultLatency
        configuration.faults = failureRate > 0 ? FaultInjection(rate: failureRate) : .none
        configuration.rateLimit = rateLimit.map {
            RateLimitPolicy(requests: $0, window: .seconds(rateLimitWindow))
        }
        configuration.seed = seed
        return configuration
    }
}

/// A latency on the command line: `300` (milliseconds) or `100-600` (a random range).
struct LatencyOption: ExpressibleByArgument, Sendable, Equatable {
    /// The server's latency.
    let latency: Latency

    init?(argument: String) {
        let parts = argument.split(separator: "-", omittingEmptySubsequences: false)
        switch parts.count {
        case 1:
            guard let value = Int(parts[0]), value >= 0 else { return nil }
            latency = value == 0 ? .none : .fixed(.milliseconds(value))
        case 2:
            guard let low = Int(parts[0]), let high = Int(parts[1]), low >= 0, low <= high else { return nil }
            latency = .random(.milliseconds(low) ... .milliseconds(high))
        default:
            return nil
        }
    }

    static var defaultCompletionKind: CompletionKind { .default }
}
