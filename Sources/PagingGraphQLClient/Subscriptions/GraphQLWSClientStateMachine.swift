import Foundation

/// The client's side of one connection of the GraphQL over WebSocket protocol
/// (`graphql-transport-ws`), as a state machine: each event (the socket opened, a
/// frame arrived, a subscription started or ended, the acknowledgement's wait ran
/// out) goes in, and what the client must do comes out. It does no input or output
/// and keeps no clock, so every rule of the protocol is tested here without a
/// socket; ``GraphQLWebSocketClient`` performs its actions.
///
/// The rules it keeps:
/// - `connection_init` goes first, with the connection parameters as its payload;
///   `subscribe` messages wait for `connection_ack`, and go out in order after it.
/// - Each subscription gets an id unused on the connection (`1`, `2`, ...); `next`,
///   `error` and `complete` are routed to its subscriber by id. A message for an id the
///   client completed is dropped (the server may have sent it before it read the
///   `complete`); one for an id the client never used breaks the protocol.
/// - `ping` is answered with `pong` (its payload echoed).
/// - Each `subscribe` (or run of them sent on the acknowledgement) is followed by a
///   `ping`. The server answers pings in order, after what came before them, so the
///   `pong` that answers it tells that the server has read those `subscribe` messages:
///   ``Action/started(_:)``. A server that starts a subscription before it reads the
///   next message (as the launch server does) then sends every event published from
///   there on. A `pong` with no ping waiting (a server's heartbeat) starts nothing.
/// - A message that breaks the protocol (binary, not JSON, not an object, of an
///   unknown type or one only clients send, before `connection_ack` when it needs it,
///   without a field its type needs, for an unknown id) closes with 4400 and fails the
///   connection with ``Failure/badMessage(_:)``; nothing is trapped.
/// - A close from the server fails the connection with its code and reason.
/// - Once closed, nothing more comes out.
struct GraphQLWSClientStateMachine<Subscriber: Hashable & Sendable>: Sendable {
    /// The WebSocket subprotocol name.
    static var subprotocol: String { "graphql-transport-ws" }

    /// What the client must do.
    enum Action: Hashable, Sendable {
        /// Send a text frame.
        case send(String)
        /// The server acknowledged the connection, with its payload, if any.
        case acknowledged(payload: JSONValue?)
        /// The server has read the `subscribe` messages of these subscribers, in the
        /// order they were sent: the `pong` answering the `ping` sent after them came.
        case started([Subscriber])
        /// A result for a subscriber: the `next` message's payload.
        case next(Subscriber, payload: JSONValue)
        /// The server ended a subscription with errors; it is over.
        case error(Subscriber, [GraphQLResponseError])
        /// The server completed a subscription; it is over.
        case complete(Subscriber)
        /// Close the socket with a code and a reason (at most 123 bytes of UTF-8).
        case close(WebSocketCloseCode, reason: String)
        /// The connection is over with a failure (always the last action).
        case failed(Failure)
    }

    /// Why a connection ended.
    enum Failure: Hashable, Sendable {
        /// The server closed the socket.
        case closed(WebSocketCloseCode, reason: String)
        /// The server broke the protocol; the client closed with 4400.
        case badMessage(String)
        /// No `connection_ack` in time; the client closed with 4504.
        case acknowledgementTimeout
    }

    private enum Phase: Hashable, Sendable {
        /// Before ``opened(payload:)``.
        case idle
        /// `connection_init` sent.
        case awaitingAcknowledgement
        case acknowledged
        case closed
    }

    private var phase = Phase.idle
    /// The running subscriptions, by id.
    private var subscribers: [String: Subscriber] = [:]
    /// The ids, by subscriber.
    private var ids: [Subscriber: String] = [:]
    /// The ids whose `subscribe` waits for the acknowledgement, in order, and their messages.
    private var queue: [(id: String, message: String)] = []
    /// How many ids were given out: `1` to `"\(issued)"`.
    private var issued = 0
    /// The subscribers of each `ping` sent after `subscribe` messages and not answered
    /// yet, oldest first.
    private var unanswered: [[Subscriber]] = []

    /// Creates a machine for a connection about to open.
    init() {}

    /// Whether the connection is over.
    var isClosed: Bool { phase == .closed }

    /// Whether the server acknowledged the connection.
    var isAcknowledged: Bool { phase == .acknowledged }

    /// The ids of the running subscriptions, by subscriber.
    var activeIDs: [Subscriber: String] { ids }

    // MARK: From the client

    /// The socket opened: send `connection_init`.
    /// - Parameter payload: the connection parameters (credentials), or `nil` for none.
    /// - Complexity: O(*n*) for a payload of *n* values.
    mutating func opened(payload: JSONValue?) -> [Action] {
        guard phase == .idle else { return [] }
        phase = .awaitingAcknowledgement
        return [.send(Self.message("connection_init", payload: payload))]
    }

    /// Starts a subscription: `subscribe` now, or after the acknowledgement.
    /// - Parameters:
    ///   - subscriber: who receives its messages; nothing happens if it already has one.
    ///   - payload: the operation: `query`, `operationName`, `variables`.
    /// - Complexity: O(*n*) for a payload of *n* values.
    mutating func subscribe(_ subscriber: Subscriber, payload: JSONValue) -> [Action] {
        guard phase != .closed, ids[subscriber] == nil else { return [] }
        issued += 1
        let id = String(issued)
        subscribers[id] = subscriber
        ids[subscriber] = id
        let message = Self.message("subscribe", id: id, payload: payload)
        guard phase == .acknowledged else {
            queue.append((id, message))
            return []
        }
        unanswered.append([subscriber])
        return [.send(message), .send(Self.message("ping"))]
    }

    /// Ends a subscription from the client's side: `complete`, if its `subscribe` went out.
    /// - Parameter subscriber: the subscriber; nothing happens if it has none running.
    /// - Complexity: O(*q*) for *q* subscriptions waiting for the acknowledgement.
    mutating func complete(_ subscriber: Subscriber) -> [Action] {
        guard let id = ids.removeValue(forKey: subscriber) else { return [] }
        subscribers[id] = nil
        if let index = queue.firstIndex(where: { $0.id == id }) {
            queue.remove(at: index)
            return []
        }
        guard phase == .acknowledged else { return [] }
        return [.send(Self.message("complete", id: id))]
    }

    /// Closes the connection normally (its last subscription ended): 1000.
    mutating func close() -> [Action] {
        guard phase != .closed else { return [] }
        end()
        return [.close(.normalClosure, reason: "Normal Closure")]
    }

    /// The wait for `connection_ack` is over: close with 4504 if it did not come.
    mutating func acknowledgementTimedOut() -> [Action] {
        guard case .awaitingAcknowledgement = phase else { return [] }
        end()
        return [
            .close(.connectionAcknowledgementTimeout, reason: "Connection acknowledgement timeout"),
            .failed(.acknowledgementTimeout),
        ]
    }

    /// The socket was lost without a close frame (the driver knows the error).
    mutating func socketLost() {
        end()
    }

    // MARK: From the server

    /// A frame from the server.
    /// - Complexity: O(*n*) for a frame of *n* bytes.
    mutating func received(_ frame: WebSocketFrame) -> [Action] {
        guard phase != .closed else { return [] }
        switch frame {
        case .closed(let code, let reason):
            end()
            return [.failed(.closed(code, reason: reason))]
        case .binary:
            return violation("a binary frame")
        case .text(let text):
            return received(text: text)
        }
    }

    private mutating func received(text: String) -> [Action] {
        guard let json = try? JSONReader.read(Data(text.utf8)) else {
            return violation("a message that is not JSON")
        }
        guard case .object(let message) = json else {
            return violation("a message that is not a JSON object")
        }
        guard case .string(let type)? = message["type"] else {
            return violation("a message without a \"type\" string")
        }
        let payload = message["payload"].flatMap { $0.isNull ? JSONValue?.none : $0 }
        switch type {
        case "connection_ack":
            guard phase == .awaitingAcknowledgement else {
                return violation("connection_ack on an acknowledged connection")
            }
            guard payload == nil || payload?.objectValue != nil else {
                return violation("a connection_ack whose payload is not an object")
            }
            phase = .acknowledged
            var sends = queue.map { Action.send($0.message) }
            if !queue.isEmpty {
                sends.append(.send(Self.message("ping")))
                unanswered.append(queue.compactMap { subscribers[$0.id] })
            }
            queue = []
            return sends + [.acknowledged(payload: payload)]
        case "ping":
            guard payload == nil || payload?.objectValue != nil else {
                return violation("a ping whose payload is not an object")
            }
            return [.send(Self.message("pong", payload: payload))]
        case "pong":
            guard payload == nil || payload?.objectValue != nil else {
                return violation("a pong whose payload is not an object")
            }
            guard !unanswered.isEmpty else { return [] }
            let started = unanswered.removeFirst().filter { ids[$0] != nil }
            return started.isEmpty ? [] : [.started(started)]
        case "next", "error", "complete":
            guard phase == .acknowledged else { return violation("\(type) before connection_ack") }
            guard case .string(let id)? = message["id"] else {
                return violation("\(type) without an \"id\" string")
            }
            guard let subscriber = subscribers[id] else {
                // Completed by the client: the server may have sent this before it read the `complete`.
                if isIssued(id) { return [] }
                return violation("\(type) for an id the client never used")
            }
            return received(type, id: id, subscriber: subscriber, payload: payload)
        case "connection_init", "subscribe":
            return violation("\(type), which only clients send")
        default:
            return violation("a message of unknown type \"\(type)\"")
        }
    }

    private mutating func received(_ type: String, id: String, subscriber: Subscriber, payload: JSONValue?)
        -> [Action]
    {
        switch type {
        case "next":
            guard let payload, payload.objectValue != nil else {
                return violation("a next whose payload is not an object")
            }
            return [.next(subscriber, payload: payload)]
        case "error":
            guard let payload, let errors = try? payload.decode([GraphQLResponseError].self) else {
                return violation("an error whose payload is not a list of GraphQL errors")
            }
            subscribers[id] = nil
            ids[subscriber] = nil
            return [.error(subscriber, errors)]
        default:
            subscribers[id] = nil
            ids[subscriber] = nil
            return [.complete(subscriber)]
        }
    }

    // MARK: Helpers

    /// Whether an id is one this connection gave out.
    private func isIssued(_ id: String) -> Bool {
        guard let number = Int(id), number >= 1, number <= issued else { return false }
        return String(number) == id
    }

    /// The server broke the protocol: close with 4400 and fail.
    private mutating func violation(_ what: String) -> [Action] {
        end()
        let reason = Self.truncated("Invalid message: \(what)")
        return [.close(.badRequest, reason: reason), .failed(.badMessage(reason))]
    }

    private mutating func end() {
        phase = .closed
        subscribers = [:]
        ids = [:]
        queue = []
        unanswered = []
    }

    /// A message of the protocol as the text of a frame, members in key order.
    static func message(_ type: String, id: String? = nil, payload: JSONValue? = nil) -> String {
        var members: [String: JSONValue] = ["type": .string(type)]
        if let id { members["id"] = .string(id) }
        if let payload { members["payload"] = payload }
        return String(decoding: JSONValue.object(members).jsonData(sortingKeys: true), as: UTF8.self)
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
}
