import Foundation
import PagingGraphQLClient
import Synchronization

// The one piece of the live list that is not the library's: the WebSocket. An in-memory server
// speaking `graphql-transport-ws` as the launch server does (`connection_ack` for
// `connection_init`, `pong` for each `ping`, in order), with a feeder's `next` frames queued
// for the client's receive loop, each stamped when `receive()` hands it to the client.

/// The times of each event: when the feeder queued its frame, when `receive()` handed it to the
/// client, when the list showed it. Offsets from one origin, in nanoseconds; 0 until set.
final class EventTimes: Sendable {
    private struct Times {
        var pushed: [Int64]
        var received: [Int64]
        var shown: [Int64]
    }

    let origin = ContinuousClock.now
    let count: Int
    private let times: Mutex<Times>

    /// Room for `count` events, made before anything is measured.
    init(count: Int) {
        self.count = count
        let zeros = [Int64](repeating: 0, count: count)
        times = Mutex(Times(pushed: zeros, received: zeros, shown: zeros))
    }

    /// Nanoseconds since the origin.
    func now() -> Int64 {
        let elapsed = ContinuousClock.now - origin
        return elapsed.components.seconds * 1_000_000_000 + elapsed.components.attoseconds / 1_000_000_000
    }

    func pushed(_ event: Int, at time: Int64) { times.withLock { $0.pushed[event] = time } }
    func received(_ event: Int, at time: Int64) { times.withLock { $0.received[event] = time } }
    func shown(_ events: Range<Int>, at time: Int64) {
        times.withLock { times in
            for event in events { times.shown[event] = time }
        }
    }

    /// From `receive()` handing each event's frame to the client to the list showing it, in
    /// nanoseconds, for the events of a range.
    func receivedToShown(_ events: Range<Int>) -> [Int64] {
        times.withLock { times in events.map { times.shown[$0] - times.received[$0] } }
    }

    /// From the feeder queuing each event's frame to the list showing it (the wait in the queue
    /// included), in nanoseconds.
    func pushedToShown(_ events: Range<Int>) -> [Int64] {
        times.withLock { times in events.map { times.shown[$0] - times.pushed[$0] } }
    }
}

/// The server's side of the one connection the client opens: a queue of frames for the client,
/// and answers to the client's messages.
final class InMemoryWebSocketServer: WebSocketTransport {
    private let state = Mutex<LiveSocket?>(nil)
    let times: EventTimes

    init(times: EventTimes) {
        self.times = times
    }

    func connect(to url: URL, subprotocol: String, headers: [String: String]) async throws
        -> any WebSocketConnection
    {
        let socket = LiveSocket(times: times)
        state.withLock { $0 = socket }
        return socket
    }

    /// The connection, once the client opened it.
    var socket: LiveSocket? { state.withLock { $0 } }
}

/// One connection in memory.
final class LiveSocket: WebSocketConnection {
    /// A frame for the client, and the event it carries, if it is one.
    private struct Queued {
        let frame: WebSocketFrame
        let event: Int?
    }

    private struct State {
        var frames: [Queued] = []
        var head = 0
        var waiter: CheckedContinuation<Queued, Never>?
        var subscriptionID: String?
        var pongs = 0
        var closed = false

        mutating func pop() -> Queued? {
            guard head < frames.count else { return nil }
            let frame = frames[head]
            head += 1
            if head == frames.count {
                frames.removeAll(keepingCapacity: true)
                head = 0
            }
            return frame
        }
    }

    private let state = Mutex(State())
    private let times: EventTimes

    init(times: EventTimes) {
        self.times = times
    }

    // MARK: The client's side

    func send(text: String) async throws {
        guard let message = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any],
            let type = message["type"] as? String
        else { return }
        switch type {
        case "connection_init":
            push(#"{"type":"connection_ack"}"#)
        case "subscribe":
            let id = message["id"] as? String
            state.withLock { $0.subscriptionID = id }
        case "ping":
            // The server has read everything before the ping (the `subscribe`): the subscription is
            // in place.
            state.withLock { $0.pongs += 1 }
            push(#"{"type":"pong"}"#)
        default:
            break
        }
    }

    func receive() async throws -> WebSocketFrame {
        let queued = await withCheckedContinuation { continuation in
            let ready = state.withLock { state -> Queued? in
                if let frame = state.pop() { return frame }
                state.waiter = continuation
                return nil
            }
            if let ready { continuation.resume(returning: ready) }
        }
        if let event = queued.event { times.received(event, at: times.now()) }
        return queued.frame
    }

    func close(code: WebSocketCloseCode, reason: String) async {
        let first = state.withLock { state -> Bool in
            defer { state.closed = true }
            return !state.closed
        }
        if first { enqueue(Queued(frame: .closed(code: code, reason: reason), event: nil)) }
    }

    // MARK: The server's side

    /// The id the client gave its subscription, once its `subscribe` came, and whether its `ping`
    /// was answered.
    var subscription: (id: String?, inPlace: Bool) {
        state.withLock { ($0.subscriptionID, $0.pongs > 0) }
    }

    /// Queues a text frame for the client.
    func push(_ text: String) {
        enqueue(Queued(frame: .text(text), event: nil))
    }

    /// Queues an event's `next` frame for the client, stamped as pushed.
    func push(event: Int, data: String) {
        let id = state.withLock { $0.subscriptionID } ?? "1"
        let text = #"{"type":"next","id":"\#(id)","payload":{"data":\#(data)}}"#
        times.pushed(event, at: times.now())
        enqueue(Queued(frame: .text(text), event: event))
    }

    private func enqueue(_ queued: Queued) {
        let waiter = state.withLock { state -> CheckedContinuation<Queued, Never>? in
            if let waiter = state.waiter {
                state.waiter = nil
                return waiter
            }
            state.frames.append(queued)
            return nil
        }
        waiter?.resume(returning: queued)
    }
}
