/// The code of a WebSocket close frame: RFC 6455's, and those of the GraphQL over
/// WebSocket protocol (`graphql-transport-ws`).
///
/// ``isRetryable`` says whether a ``GraphQLWebSocketClient`` reconnects after a
/// server closed with the code; <doc:Subscriptions> lists them.
///
/// ```swift
/// if error.closeCode == .unauthorized { signIn() }
/// ```
public struct WebSocketCloseCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The code's number.
    public var rawValue: UInt16

    /// Creates a code from its number.
    /// - Parameter rawValue: the number, such as 4401.
    public init(rawValue: UInt16) {
        self.rawValue = rawValue
    }

    /// Creates a code from its number.
    /// - Parameter rawValue: the number, such as 4401.
    public init(_ rawValue: UInt16) {
        self.rawValue = rawValue
    }

    /// 1000: the connection did what it was for. The client closes with it when its
    /// last subscription ends; from the server, with subscriptions running, the client
    /// reconnects.
    public static let normalClosure = Self(1000)
    /// 1001: the server is going down, or the page away. Retried.
    public static let goingAway = Self(1001)
    /// 1002: a WebSocket protocol error. Not retried.
    public static let protocolError = Self(1002)
    /// 1003: a kind of data the endpoint does not take. Not retried.
    public static let unsupportedData = Self(1003)
    /// 1005: a close frame without a code. Retried.
    public static let noStatusReceived = Self(1005)
    /// 1006: the connection was lost without a close frame (never sent in one). Retried.
    public static let abnormalClosure = Self(1006)
    /// 1007: a message whose data is not what its type says. Not retried.
    public static let invalidFramePayloadData = Self(1007)
    /// 1008: a message that breaks the endpoint's policy. Not retried.
    public static let policyViolation = Self(1008)
    /// 1009: a message too large to take. Not retried.
    public static let messageTooBig = Self(1009)
    /// 1011: the server met an unexpected condition. Retried.
    public static let internalError = Self(1011)
    /// 1012: the server is restarting. Retried.
    public static let serviceRestart = Self(1012)
    /// 1013: the server is overloaded for now. Retried.
    public static let tryAgainLater = Self(1013)

    /// 4400 (`graphql-transport-ws`): a message that breaks the protocol. The client
    /// closes with it when the server's message does; from the server, not retried.
    public static let badRequest = Self(4400)
    /// 4401: a subscription before the connection was acknowledged. Not retried.
    public static let unauthorized = Self(4401)
    /// 4403: the server refused the `connection_init` payload (the credentials). Not retried.
    public static let forbidden = Self(4403)
    /// 4406: the server does not speak the subprotocol. Not retried.
    public static let subprotocolNotAcceptable = Self(4406)
    /// 4408: `connection_init` did not come in the server's time. Retried.
    public static let connectionInitialisationTimeout = Self(4408)
    /// 4409: a subscription id already in use on the connection. Not retried.
    public static let subscriberAlreadyExists = Self(4409)
    /// 4429: more than one `connection_init` on a connection. Retried: a new connection
    /// sends one.
    public static let tooManyInitialisationRequests = Self(4429)
    /// 4500: the server failed on its side. Not retried.
    public static let internalServerError = Self(4500)
    /// 4504: the client's own, when `connection_ack` did not come in its time
    /// (``GraphQLWebSocketClient/acknowledgementTimeout``). Retried.
    public static let connectionAcknowledgementTimeout = Self(4504)

    /// Codes that say a new connection would fail the same way.
    private static let fatal: Set<UInt16> = [1002, 1003, 1007, 1008, 1009, 1010, 4004, 4005, 4500]

    /// Whether a client reconnects after the server closed with this code.
    ///
    /// Not retried: the protocol's client errors (4400...4499: a bad message,
    /// credentials refused, a duplicate id), except 4408 and 4429, which a new
    /// connection does not repeat; 4500; and RFC 6455's 1002, 1003, 1007, 1008, 1009
    /// and 1010. Every other code is retried: the server going away or restarting
    /// (1001, 1012), a lost connection (1006), 1000 while subscriptions run.
    /// - Complexity: O(1).
    public var isRetryable: Bool {
        if self == .connectionInitialisationTimeout || self == .tooManyInitialisationRequests { return true }
        if (4400...4499).contains(rawValue) { return false }
        return !Self.fatal.contains(rawValue)
    }

    /// The number and, for a known code, its name: `4401 unauthorized`.
    public var description: String {
        let names: [UInt16: String] = [
            1000: "normal closure", 1001: "going away", 1002: "protocol error", 1003: "unsupported data",
            1005: "no status received", 1006: "abnormal closure", 1007: "invalid frame payload data",
            1008: "policy violation", 1009: "message too big", 1011: "internal error",
            1012: "service restart", 1013: "try again later", 4400: "bad request", 4401: "unauthorized",
            4403: "forbidden", 4406: "subprotocol not acceptable",
            4408: "connection initialisation timeout", 4409: "subscriber already exists",
            4429: "too many initialisation requests", 4500: "internal server error",
            4504: "connection acknowledgement timeout",
        ]
        guard let name = names[rawValue] else { return "\(rawValue)" }
        return "\(rawValue) \(name)"
    }
}
