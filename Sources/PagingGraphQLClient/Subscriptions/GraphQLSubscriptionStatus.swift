/// The state of a ``GraphQLWebSocketClient``'s connection, as
/// ``GraphQLWebSocketClient/statusUpdates`` reports it.
///
/// A banner reads it to say "reconnecting"; a number of ``connected(connection:)``
/// larger than the one seen tells that a reconnection happened, and events sent
/// while the connection was down were lost. A list catches up after each one with
/// ``LiveList``, which waits for its own subscription to be in place
/// (``GraphQLClient/subscribe(_:onStart:)``) rather than for this status.
///
/// ```swift
/// for await status in webSocket.statusUpdates {
///     banner.text = if case .reconnecting = status { "Reconnecting…" } else { nil }
/// }
/// ```
///
/// The order on one connection's life: ``connecting(attempt:)`` (attempt 0), then
/// ``connected(connection:)``; when it is lost, ``reconnecting(attempt:delay:error:)``
/// and ``connecting(attempt:)`` (attempt 1, 2, ...) until it is ``connected(connection:)``
/// again or ``failed(_:)``; ``idle`` when the last subscription ends.
public enum GraphQLSubscriptionStatus: Sendable, CustomStringConvertible {
    /// No connection, and none wanted: no subscription runs (the client opens its
    /// connection with the first one and closes it after the last).
    case idle
    /// Opening a connection and waiting for the server's `connection_ack`.
    /// - Parameter attempt: 0 for the first connection, *n* for the *n*th attempt in a
    ///   row after a failure.
    case connecting(attempt: Int)
    /// The server acknowledged the connection, and the `subscribe` message of every
    /// running subscription is queued on it, before any later message.
    /// - Parameter connection: how many connections the client has had acknowledged,
    ///   this one included: 1 for the first, more after a reconnection or after the
    ///   client went idle and connected again.
    case connected(connection: Int)
    /// The connection failed and the client waits before the next attempt.
    /// - Parameters:
    ///   - attempt: the number, in a row from 1, of the attempt waited for.
    ///   - delay: the wait, drawn by ``GraphQLReconnectPolicy``.
    ///   - error: why the connection failed.
    case reconnecting(attempt: Int, delay: Duration, error: GraphQLSubscriptionError)
    /// The client gave up: the failure is not retryable, or the policy allows no more
    /// attempts. Every subscription ended with the error; a new subscription starts
    /// a new connection.
    case failed(GraphQLSubscriptionError)

    /// The status in a few words, such as `reconnecting(attempt: 2, delay: 1.5 seconds)`.
    public var description: String {
        switch self {
        case .idle: "idle"
        case .connecting(let attempt): "connecting(attempt: \(attempt))"
        case .connected(let connection): "connected(connection: \(connection))"
        case .reconnecting(let attempt, let delay, let error):
            "reconnecting(attempt: \(attempt), delay: \(delay), error: \(error.code))"
        case .failed(let error): "failed(\(error.code))"
        }
    }
}
