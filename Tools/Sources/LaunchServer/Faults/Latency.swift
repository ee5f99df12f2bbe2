/// How long the server waits before it handles each request, so clients show their loading
/// states.
public enum Latency: Sendable, Hashable {
    /// No added delay.
    case none
    /// The same delay for every request.
    case fixed(Duration)
    /// A delay drawn uniformly from the range for each request, from the configured seed.
    case random(ClosedRange<Duration>)
}
