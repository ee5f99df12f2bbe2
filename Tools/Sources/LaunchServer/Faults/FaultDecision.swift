/// What the server does to one request before handling it.
struct FaultDecision: Sendable, Hashable {
    /// How long to wait first.
    var delay: Duration
    /// The failure to serve instead of a response, if any.
    var fault: FaultKind?
}
