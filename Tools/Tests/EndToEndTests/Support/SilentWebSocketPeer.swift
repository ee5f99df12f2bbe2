import Foundation
import ToolsLock

/// A WebSocket peer on 127.0.0.1 that takes one client's TCP connection and goes silent: before
/// it answers the upgrade, or after it (it then reads the client's frames and answers none, a
/// close frame included). For tests of a client's timeouts: only the client can end such a
/// connection.
///
/// It reports what the client did, in order, on ``events``; ``stop()`` wakes its thread, which
/// closes the sockets.
final class SilentWebSocketPeer: Sendable {
    /// When the peer goes silent.
    enum Silence: Sendable {
        /// It reads the upgrade request and never answers it.
        case beforeUpgrade
        /// It answers the upgrade (101, with `Sec-WebSocket-Accept` and the subprotocol asked
        /// for), then answers nothing.
        case afterUpgrade
    }

    /// What the client did.
    enum Event: Sendable, Equatable {
        /// It sent its upgrade request: the request head.
        case upgradeRequest(String)
        /// It sent a frame (unmasked).
        case frame(opcode: UInt8, payload: [UInt8])
        /// It closed or reset the TCP connection.
        case hungUp
    }

    struct Failure: Error {
        var description: String
    }

    /// The port it listens on.
    let port: Int
    /// What the client did, in order; it ends after ``Event/hungUp``.
    let events: AsyncStream<Event>

    private let listener: LoopbackSocket
    private let silence: Silence
    private let continuation: AsyncStream<Event>.Continuation
    /// The sockets the peer's thread has open, which only it closes, and whether ``stop()`` was
    /// called: ``stop()`` wakes a socket only while it is open, never a descriptor number the
    /// system may have given to another socket since.
    private struct State: Sendable {
        var listening = true
        var connection: LoopbackSocket?
        var stopped = false
    }

    private let state = Locked(State())

    /// The endpoint, `ws://127.0.0.1:<port>/graphql`.
    var url: URL {
        get throws {
            guard let url = URL(string: "ws://127.0.0.1:\(port)/graphql") else {
                throw Failure(description: "url")
            }
            return url
        }
    }

    /// Starts listening; the peer takes the first client that connects.
    /// - Throws: `LoopbackSocket.Failure` when it cannot listen.
    init(_ silence: Silence) throws {
        (listener, port) = try LoopbackSocket.listening()
        self.silence = silence
        (events, continuation) = AsyncStream.makeStream(of: Event.self)
        Thread.detachNewThread { [self] in serve() }
    }

    /// Stops listening: a client that has not connected yet never will; a connection taken
    /// goes on until the client hangs up.
    func stopListening() {
        state.withLock { state in
            if state.listening { listener.wake() }
        }
    }

    /// Wakes the peer's thread: it hangs up and closes its sockets.
    func stop() {
        state.withLock { state in
            state.stopped = true
            state.connection?.wake()
            if state.listening { listener.wake() }
        }
    }

    private func serve() {
        defer { continuation.finish() }
        let accepted = listener.acceptConnection()
        // One client only: the next is refused.
        let taken = state.withLock { state -> Bool in
            state.listening = false
            listener.closeGracefully()
            guard let accepted, !state.stopped else { return false }
            state.connection = accepted
            return true
        }
        guard let connection = accepted else { return }
        defer {
            state.withLock { state in
                state.connection = nil
                connection.closeGracefully()
            }
            continuation.yield(.hungUp)
        }
        guard taken else { return }
        var received: [UInt8] = []
        let end = Array("\r\n\r\n".utf8)
        var headEnd: Int?
        while headEnd == nil {
            let bytes = connection.receive()
            guard !bytes.isEmpty else { return }
            received += bytes
            headEnd = received.firstRange(of: end)?.upperBound
        }
        guard let headEnd else { return }
        let head = String(decoding: received[..<headEnd], as: UTF8.self)
        continuation.yield(.upgradeRequest(head))
        received.removeFirst(headEnd)
        if silence == .afterUpgrade {
            guard let key = Self.field("Sec-WebSocket-Key", in: head) else { return }
            let accept = Data(SHA1.digest(Array((key + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11").utf8)))
                .base64EncodedString()
            var answer = "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            answer += "Sec-WebSocket-Accept: \(accept)\r\n"
            if let subprotocol = Self.field("Sec-WebSocket-Protocol", in: head) {
                answer += "Sec-WebSocket-Protocol: \(subprotocol)\r\n"
            }
            connection.sendAll(answer + "\r\n")
        }
        // Silent from here: read until the client hangs up.
        while true {
            while let (frame, length) = Self.frame(in: received) {
                continuation.yield(frame)
                received.removeFirst(length)
            }
            let bytes = connection.receive()
            guard !bytes.isEmpty else { return }
            received += bytes
        }
    }

    /// The value of a header field of a request head, by its name in any case.
    private static func field(_ name: String, in head: String) -> String? {
        for line in head.components(separatedBy: "\r\n") {
            guard let colon = line.firstIndex(of: ":"), line[..<colon].lowercased() == name.lowercased()
            else {
                continue
            }
            return line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return nil
    }

    /// The first whole frame of `bytes`, unmasked, and its length in bytes; `nil` when more
    /// bytes are needed.
    private static func frame(in bytes: [UInt8]) -> (Event, Int)? {
        guard bytes.count >= 2 else { return nil }
        var length = Int(bytes[1] & 0x7F)
        var offset = 2
        if length == 126 {
            guard bytes.count >= 4 else { return nil }
            length = Int(bytes[2]) << 8 | Int(bytes[3])
            offset = 4
        } else if length == 127 {
            guard bytes.count >= 10 else { return nil }
            length = bytes[2..<10].reduce(0) { $0 << 8 | Int($1) }
            offset = 10
        }
        let masked = bytes[1] & 0x80 != 0
        let mask = masked ? Array(bytes[offset..<min(offset + 4, bytes.count)]) : []
        if masked { offset += 4 }
        guard mask.count == (masked ? 4 : 0), bytes.count >= offset + length else { return nil }
        var payload = Array(bytes[offset..<(offset + length)])
        if masked {
            for index in payload.indices { payload[index] ^= mask[index % 4] }
        }
        return (.frame(opcode: bytes[0] & 0x0F, payload: payload), offset + length)
    }
}
