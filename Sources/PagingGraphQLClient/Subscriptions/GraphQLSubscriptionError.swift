/// Why a subscription of ``GraphQLClient/subscribe(_:onStart:)`` ended with an error, or why
/// a ``GraphQLWebSocketClient`` reconnects.
///
/// ```swift
/// do {
///     for try await response in client.subscribe(LaunchAdded()) { show(response) }
/// } catch let error as GraphQLSubscriptionError where error.code == .closed {
///     if error.closeCode == .forbidden { signIn() }
/// }
/// ```
///
/// ``isRetryable`` says whether the client reconnects after it; an error a
/// subscription ends with is either not retryable, or the last of the attempts
/// ``GraphQLReconnectPolicy/maximumAttempts`` allows.
public struct GraphQLSubscriptionError: Error, Sendable, CustomStringConvertible {
    /// The code of a ``GraphQLSubscriptionError``: what kind of failure it is; compare
    /// with `==` or `switch` over the static members.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Value: String, Hashable, Sendable {
            case connectionFailed, closed, acknowledgementTimeout, badMessage, graphQLErrors,
                undecodableResponse, unencodableVariables, connectionParameters, notConfigured
        }

        private let value: Value
        private init(_ value: Value) { self.value = value }

        /// The connection could not be opened, or was lost without a close frame (a
        /// network failure; browsers call it 1006). Retried.
        public static var connectionFailed: Self { Self(.connectionFailed) }
        /// The server closed the connection; ``GraphQLSubscriptionError/closeCode`` says
        /// with what, and whether it is retried.
        public static var closed: Self { Self(.closed) }
        /// The server did not acknowledge `connection_init` within
        /// ``GraphQLWebSocketClient/acknowledgementTimeout``; the client closed with 4504.
        /// Retried.
        public static var acknowledgementTimeout: Self { Self(.acknowledgementTimeout) }
        /// The server sent a message that breaks the protocol (not JSON, of an unknown
        /// type, for an id the client never used); the client closed with 4400. Not
        /// retried.
        public static var badMessage: Self { Self(.badMessage) }
        /// The server answered this subscription with an `error` message (a validation
        /// error, say): ``GraphQLSubscriptionError/graphQLErrors``. Ends this subscription
        /// alone.
        public static var graphQLErrors: Self { Self(.graphQLErrors) }
        /// A `next` message whose payload does not decode into the operation's data; the
        /// client completed the subscription. Ends this subscription alone.
        public static var undecodableResponse: Self { Self(.undecodableResponse) }
        /// The operation's variables could not be encoded as JSON.
        public static var unencodableVariables: Self { Self(.unencodableVariables) }
        /// The `connectionParameters` closure of the ``GraphQLWebSocketClient`` threw.
        /// Not retried.
        public static var connectionParameters: Self { Self(.connectionParameters) }
        /// The ``GraphQLClient`` has no ``GraphQLClient/webSocket`` to subscribe with.
        public static var notConfigured: Self { Self(.notConfigured) }

        /// The name of the code, such as `closed`.
        public var description: String { value.rawValue }
    }

    private enum Reason: Sendable {
        case connectionFailed(any Error)
        case closed(WebSocketCloseCode, reason: String)
        case acknowledgementTimeout
        case badMessage(String)
        case graphQLErrors([GraphQLResponseError])
        case undecodableResponse(GraphQLClientError)
        case unencodableVariables(GraphQLClientError)
        case connectionParameters(any Error)
        case notConfigured
    }

    private let reason: Reason

    private init(_ reason: Reason) {
        self.reason = reason
    }

    static func connectionFailed(_ error: any Error) -> Self { Self(.connectionFailed(error)) }
    static func closed(_ code: WebSocketCloseCode, reason: String) -> Self {
        Self(.closed(code, reason: reason))
    }
    static var acknowledgementTimeout: Self { Self(.acknowledgementTimeout) }
    static func badMessage(_ problem: String) -> Self { Self(.badMessage(problem)) }
    static func graphQLErrors(_ errors: [GraphQLResponseError]) -> Self { Self(.graphQLErrors(errors)) }
    static func undecodableResponse(_ error: GraphQLClientError) -> Self { Self(.undecodableResponse(error)) }
    static func unencodableVariables(_ error: GraphQLClientError) -> Self {
        Self(.unencodableVariables(error))
    }
    static func connectionParameters(_ error: any Error) -> Self { Self(.connectionParameters(error)) }
    static var notConfigured: Self { Self(.notConfigured) }

    /// What kind of failure this is.
    public var code: Code {
        switch reason {
        case .connectionFailed: .connectionFailed
        case .closed: .closed
        case .acknowledgementTimeout: .acknowledgementTimeout
        case .badMessage: .badMessage
        case .graphQLErrors: .graphQLErrors
        case .undecodableResponse: .undecodableResponse
        case .unencodableVariables: .unencodableVariables
        case .connectionParameters: .connectionParameters
        case .notConfigured: .notConfigured
        }
    }

    /// Whether the client reconnects after this failure of its connection: a lost
    /// connection, an acknowledgement that did not come, and a close code that is
    /// ``WebSocketCloseCode/isRetryable``. `false` for a server's message that breaks the
    /// protocol, and for the failures of one subscription (``Code/graphQLErrors``,
    /// ``Code/undecodableResponse``, ``Code/unencodableVariables``), which no connection
    /// mends.
    public var isRetryable: Bool {
        switch reason {
        case .connectionFailed, .acknowledgementTimeout: true
        case .closed(let code, _): code.isRetryable
        case .badMessage, .graphQLErrors, .undecodableResponse, .unencodableVariables, .connectionParameters,
            .notConfigured:
            false
        }
    }

    /// The close code: the server's for ``Code/closed``; the client's own for
    /// ``Code/badMessage`` (4400) and ``Code/acknowledgementTimeout`` (4504); `nil`
    /// otherwise.
    public var closeCode: WebSocketCloseCode? {
        switch reason {
        case .closed(let code, _): code
        case .badMessage: .badRequest
        case .acknowledgementTimeout: .connectionAcknowledgementTimeout
        default: nil
        }
    }

    /// The close reason: the server's for ``Code/closed``, what was wrong with the
    /// server's message for ``Code/badMessage``; `nil` otherwise.
    public var closeReason: String? {
        switch reason {
        case .closed(_, let reason): reason
        case .badMessage(let problem): problem
        default: nil
        }
    }

    /// The errors of the server's `error` message, for ``Code/graphQLErrors``; empty
    /// otherwise.
    public var graphQLErrors: [GraphQLResponseError] {
        if case .graphQLErrors(let errors) = reason { errors } else { [] }
    }

    /// The error underneath: the transport's for ``Code/connectionFailed``, the
    /// `connectionParameters` closure's for ``Code/connectionParameters``, a
    /// ``GraphQLClientError`` (with the coding path) for ``Code/undecodableResponse``
    /// and ``Code/unencodableVariables``; `nil` otherwise.
    public var underlyingError: (any Error)? {
        switch reason {
        case .connectionFailed(let error), .connectionParameters(let error): error
        case .undecodableResponse(let error), .unencodableVariables(let error): error
        default: nil
        }
    }

    /// What went wrong and what to do, in a sentence or two.
    public var description: String {
        switch reason {
        case .connectionFailed(let error):
            "The WebSocket connection failed or was lost: \(error)."
        case .closed(let code, let reason):
            "The server closed the WebSocket connection with \(code)\(reason.isEmpty ? "" : ": \(reason)")"
                + (code.isRetryable ? "." : "; the client does not reconnect after it.")
        case .acknowledgementTimeout:
            "The server did not acknowledge connection_init in time (the client's acknowledgementTimeout); "
                + "check that it speaks graphql-transport-ws."
        case .badMessage(let problem):
            "The server broke the graphql-transport-ws protocol (\(problem)); the client closed with 4400."
        case .graphQLErrors(let errors):
            "The server refused the subscription: "
                + errors.map(\.message).joined(separator: "; ") + "."
        case .undecodableResponse(let error):
            "A subscription's result did not decode: \(error)"
        case .unencodableVariables(let error):
            "\(error)"
        case .connectionParameters(let error):
            "The connection parameters (connection_init payload) could not be made: \(error)."
        case .notConfigured:
            "The GraphQLClient has no webSocket: give it a GraphQLWebSocketClient to subscribe."
        }
    }
}
