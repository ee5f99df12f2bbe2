import Foundation
import GraphQL

/// The server's side of one connection of the GraphQL over WebSocket protocol
/// (`graphql-transport-ws`, the one Apollo's and Relay's clients speak), as a state machine:
/// each frame the client sends goes in, and what the server must do comes out (send messages,
/// start or stop a subscription, close the socket with one of the protocol's codes). It does no
/// input or output and keeps no clock, so every rule of the protocol is tested here without a
/// socket, and the frame handler can be fuzzed.
///
/// The rules it keeps:
/// - The client must send `connection_init` first, within the server's wait (``initTimedOut()``
///   closes with 4408 until it has); a second one closes with 4429. Its payload is checked by
///   the `authorize` closure: refused, the socket closes with 4403.
/// - `subscribe` before the acknowledgement closes with 4401; with an id in use by an active
///   subscription, with 4409.
/// - `ping` is answered with `pong` (its payload echoed) at any time; `pong` needs no answer.
/// - A frame that is not text, not JSON, larger than the limit, of an unknown type, of a type
///   only the server sends, or missing a field its type needs, closes with 4400 and a reason.
/// - `complete` from the client stops its subscription (nothing for an id not active).
/// - The server's results go out as `next` while the subscription is active, its end as
///   `complete`, its failure as `error` (with no `complete` after it).
/// - Once closed, nothing more comes out.
struct GraphQLWSConnection {
    /// The WebSocket subprotocol name.
    static let subprotocol = "graphql-transport-ws"

    /// What the server must do.
    enum Action: Equatable {
        /// Send a message.
        case send(Outgoing)
        /// Start a subscription for an id.
        case start(id: String, Subscription)
        /// Stop the subscription of an id (the client completed it).
        case stop(id: String)
        /// Close the socket with a code and a reason (at most 123 bytes of UTF-8).
        case close(code: UInt16, reason: String)
    }

    /// An operation a client asked for.
    struct Subscription: Equatable, Decodable {
        var query: String
        var operationName: String?
        var variables: [String: Map]?
        var extensions: [String: Map]?
    }

    /// A message the server sends.
    enum Outgoing: Equatable {
        case connectionAck
        case pong(payload: [String: Map]?)
        case next(id: String, payload: GraphQLResult)
        case error(id: String, errors: [GraphQLError])
        case complete(id: String)

        /// The message as the text of a frame.
        func text() throws -> String {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            let data: Data
            switch self {
            case .connectionAck: data = try encoder.encode(OutgoingFrame<Map>(type: "connection_ack"))
            case .pong(let payload): data = try encoder.encode(OutgoingFrame(type: "pong", payload: payload))
            case .next(let id, let payload):
                data = try encoder.encode(OutgoingFrame(type: "next", id: id, payload: payload))
            case .error(let id, let errors):
                data = try encoder.encode(OutgoingFrame(type: "error", id: id, payload: errors))
            case .complete(let id): data = try encoder.encode(OutgoingFrame<Map>(type: "complete", id: id))
            }
            return String(decoding: data, as: UTF8.self)
        }
    }

    /// The protocol's close codes.
    enum CloseCode: UInt16 {
        case badRequest = 4400
        case unauthorized = 4401
        case forbidden = 4403
        case initialisationTimeout = 4408
        case subscriberAlreadyExists = 4409
        case tooManyInitialisationRequests = 4429
    }

    private enum Phase: Equatable {
        case awaitingInit
        case acknowledged
        case closed
    }

    /// The largest frame read, in bytes of UTF-8.
    let maximumMessageBytes: Int
    /// Whether a `connection_init` payload (`nil` when absent) is accepted.
    let authorize: @Sendable ([String: Map]?) -> Bool
    private var phase = Phase.awaitingInit
    /// The ids of the subscriptions running.
    private(set) var active: Set<String> = []

    /// Creates a connection waiting for `connection_init`.
    /// - Parameters:
    ///   - maximumMessageBytes: the largest frame read; larger ones close the socket with 4400.
    ///   - authorize: whether an init payload is accepted; every one by default.
    init(
        maximumMessageBytes: Int = 64 * 1024,
        authorize: @escaping @Sendable ([String: Map]?) -> Bool = { _ in true }
    ) {
        self.maximumMessageBytes = maximumMessageBytes
        self.authorize = authorize
    }

    /// Whether the socket is closed.
    var isClosed: Bool { phase == .closed }

    /// Whether the client's `connection_init` was acknowledged.
    var isAcknowledged: Bool { phase == .acknowledged }

    // MARK: From the client

    /// A text frame from the client.
    /// - Complexity: O(*n*) for a frame of *n* bytes.
    mutating func receive(text: String) -> [Action] {
        guard phase != .closed else { return [] }
        guard text.utf8.count <= maximumMessageBytes else {
            return close(
                .badRequest, "Message of \(text.utf8.count) bytes, over the limit of \(maximumMessageBytes)")
        }
        guard let object = (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any] else {
            return close(.badRequest, "Invalid message: not a JSON object")
        }
        guard let type = object["type"] as? String else {
            return close(.badRequest, "Invalid message: no \"type\" string")
        }
        let id = object["id"]
        if id != nil, !(id is String) { return close(.badRequest, "Invalid message: \"id\" is not a string") }
        switch type {
        case "connection_init":
            guard phase == .awaitingInit else {
                return close(.tooManyInitialisationRequests, "Too many initialisation requests")
            }
            guard case .some(let payload) = Self.payload([String: Map].self, in: text) else {
                return close(
                    .badRequest, "Invalid message: the \"payload\" of connection_init is not an object")
            }
            guard authorize(payload) else { return close(.forbidden, "Forbidden") }
            phase = .acknowledged
            return [.send(.connectionAck)]
        case "ping":
            guard case .some(let payload) = Self.payload([String: Map].self, in: text) else {
                return close(.badRequest, "Invalid message: the \"payload\" of ping is not an object")
            }
            return [.send(.pong(payload: payload))]
        case "pong":
            return []
        case "subscribe":
            guard phase == .acknowledged else { return close(.unauthorized, "Unauthorized") }
            guard let id = id as? String, !id.isEmpty else {
                return close(.badRequest, "Invalid message: subscribe without an \"id\"")
            }
            guard case .some(.some(let subscription)) = Self.payload(Subscription.self, in: text) else {
                return close(
                    .badRequest, "Invalid message: the \"payload\" of subscribe has no \"query\" string")
            }
            guard !active.contains(id) else {
                return close(.subscriberAlreadyExists, "Subscriber for \(id) already exists")
            }
            active.insert(id)
            return [.start(id: id, subscription)]
        case "complete":
            guard phase == .acknowledged else { return close(.unauthorized, "Unauthorized") }
            guard let id = id as? String, !id.isEmpty else {
                return close(.badRequest, "Invalid message: complete without an \"id\"")
            }
            guard active.remove(id) != nil else { return [] }
            return [.stop(id: id)]
        case "connection_ack", "next", "error":
            return close(.badRequest, "Invalid message: \(type) is sent by the server only")
        default:
            return close(.badRequest, "Invalid message: unknown type")
        }
    }

    /// A binary frame from the client: the protocol's messages are text.
    mutating func receiveBinary() -> [Action] {
        guard phase != .closed else { return [] }
        return close(.badRequest, "Invalid message: binary frame")
    }

    /// The server's wait for `connection_init` is over.
    mutating func initTimedOut() -> [Action] {
        guard phase == .awaitingInit else { return [] }
        return close(.initialisationTimeout, "Connection initialisation timeout")
    }

    /// The client closed the socket, or it was lost: the subscriptions running stop.
    mutating func socketClosed() -> [Action] {
        guard phase != .closed else { return [] }
        phase = .closed
        defer { active = [] }
        return active.sorted().map { .stop(id: $0) }
    }

    // MARK: From the server's subscriptions

    /// A result of a subscription, sent while it is active.
    mutating func next(id: String, _ result: GraphQLResult) -> [Action] {
        guard phase == .acknowledged, active.contains(id) else { return [] }
        return [.send(.next(id: id, payload: result))]
    }

    /// A subscription ended: `complete`, if it was active.
    mutating func finished(id: String) -> [Action] {
        guard phase == .acknowledged, active.remove(id) != nil else { return [] }
        return [.send(.complete(id: id))]
    }

    /// A subscription failed before its results (a validation error): `error`, with no
    /// `complete` after it, if it was active.
    mutating func failed(id: String, errors: [GraphQLError]) -> [Action] {
        guard phase == .acknowledged, active.remove(id) != nil else { return [] }
        return [.send(.error(id: id, errors: errors))]
    }

    // MARK: Helpers

    private mutating func close(_ code: CloseCode, _ reason: String) -> [Action] {
        let stopped = active.sorted().map { Action.stop(id: $0) }
        phase = .closed
        active = []
        return stopped + [.close(code: code.rawValue, reason: Self.truncated(reason))]
    }

    /// A close reason within the 123 bytes a close frame allows, cut at a character.
    static func truncated(_ reason: String) -> String {
        guard reason.utf8.count > 123 else { return reason }
        var cut = ""
        for character in reason {
            guard cut.utf8.count + String(character).utf8.count <= 123 else { break }
            cut.append(character)
        }
        return cut
    }

    /// The `payload` member of a frame decoded as a type: `.some(nil)` when it is absent or
    /// `null`, `nil` when it does not decode. Only for a frame already read as JSON: the decoder
    /// never meets text that is not JSON (on some, Foundation's decoder traps).
    private static func payload<T: Decodable>(_ type: T.Type, in text: String) -> T?? {
        do {
            return .some(try JSONDecoder().decode(IncomingFrame<T>.self, from: Data(text.utf8)).payload)
        } catch {
            return nil
        }
    }
}

/// A frame the client sent, read for its payload.
private struct IncomingFrame<Payload: Decodable>: Decodable {
    var payload: Payload?
}

/// A frame the server sends: its type, id and payload.
private struct OutgoingFrame<Payload: Encodable>: Encodable {
    var type: String
    var id: String?
    var payload: Payload?

    init(type: String, id: String? = nil, payload: Payload? = nil) {
        self.type = type
        self.id = id
        self.payload = payload
    }
}
