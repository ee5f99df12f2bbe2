import Foundation
import PagingGraphQLClient
import PagingLock

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A WebSocket server on 127.0.0.1 (RFC 6455, the part a client meets), for tests of a real
/// client: it answers each opening handshake as its script says (the upgrade, with
/// `Sec-WebSocket-Accept` and the subprotocol, or a refusal), then hands the test a
/// ``LoopbackWebSocketPeer`` that reads the client's frames (unmasked, and noting whether they
/// were masked) and writes the server's.
///
/// Bounded: ``accept(within:)`` gives up when no client comes in time, each connection's
/// reads give up after a silence of `readTimeout`, and ``close()`` (or the last reference
/// going) stops listening.
final class LoopbackWebSocketServer: Sendable {
    /// An opening handshake as the server read it.
    struct Handshake: Sendable {
        var method: String
        var target: String
        /// The header fields, by lowercased name.
        var headers: [String: String]
    }

    /// How the server answers a handshake.
    enum Answer: Sendable {
        /// 101, the upgrade, with this subprotocol in `Sec-WebSocket-Protocol` (none when `nil`).
        case upgrade(subprotocol: String?)
        /// An HTTP status other than 101; the connection closes after it.
        case refuse(status: Int)
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    let port: UInt16
    private let listener: LoopbackListener
    private let answer: @Sendable (Handshake) -> Answer
    private let answersClose: Bool
    private let readTimeout: Duration

    /// The endpoint, `ws://127.0.0.1:<port>/graphql`.
    var url: URL {
        get throws {
            guard let url = URL(string: "ws://127.0.0.1:\(port)/graphql") else {
                throw Failure(description: "url")
            }
            return url
        }
    }

    /// Starts listening on an ephemeral port of 127.0.0.1.
    /// - Parameters:
    ///   - answersClose: whether the server answers the client's close frame with its own (as
    ///     RFC 6455 asks); `false` for a peer that never does.
    ///   - readTimeout: how long a connection may stay silent before the server drops it.
    ///   - answer: how to answer each handshake; the upgrade with the first subprotocol asked
    ///     for unless given.
    init(
        answersClose: Bool = true, readTimeout: Duration = .seconds(30),
        answer: @escaping @Sendable (Handshake) -> Answer = { handshake in
            .upgrade(
                subprotocol: handshake.headers["sec-websocket-protocol"]?.split(separator: ",").first.map {
                    $0.trimmingCharacters(in: .whitespaces)
                })
        }
    ) throws {
        listener = try LoopbackListener()
        port = listener.port
        self.answer = answer
        self.answersClose = answersClose
        self.readTimeout = readTimeout
    }

    deinit {
        listener.close()
    }

    /// Stops accepting clients: an ``accept(within:)`` waiting throws.
    func close() {
        _ = shutdown(listener.descriptor, Int32(SHUT_RDWR))
    }

    /// Waits for the next client and answers its handshake.
    /// - Parameter limit: how long to wait for a client.
    /// - Returns: the connection, upgraded; or, when the script refused it, a peer whose
    ///   connection is closed already (its ``LoopbackWebSocketPeer/handshake`` tells what came).
    /// - Throws: ``Failure`` when no client came in time, or its handshake could not be read.
    func accept(within limit: Duration = .seconds(30)) async throws -> LoopbackWebSocketPeer {
        let descriptor = listener.descriptor
        let answer = self.answer
        let answersClose = self.answersClose
        let readTimeout = self.readTimeout
        return try await withCheckedThrowingContinuation { continuation in
            // Blocking calls, on a thread of their own: never a task's.
            Thread.detachNewThread {
                continuation.resume(
                    with: Result {
                        try Self.acceptClient(
                            on: descriptor, within: limit, answer: answer, answersClose: answersClose,
                            readTimeout: readTimeout)
                    })
            }
        }
    }

    private static func acceptClient(
        on listener: Int32, within limit: Duration, answer: (Handshake) -> Answer, answersClose: Bool,
        readTimeout: Duration
    ) throws -> LoopbackWebSocketPeer {
        var waiting = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
        guard poll(&waiting, 1, milliseconds(limit)) == 1 else {
            throw Failure(description: "no client connected in \(limit)")
        }
        #if canImport(Glibc)
            let client = Glibc.accept(listener, nil, nil)
        #else
            let client = Darwin.accept(listener, nil, nil)
        #endif
        guard client >= 0 else { throw Failure(description: "accept failed") }
        let seconds = Int(readTimeout.components.seconds)
        var timeout = timeval(tv_sec: seconds, tv_usec: 0)
        _ = setsockopt(client, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        #if canImport(Darwin)
            var on: Int32 = 1
            _ = setsockopt(client, SOL_SOCKET, SO_NOSIGPIPE, &on, socklen_t(MemoryLayout<Int32>.size))
        #endif
        let socket = PeerSocket(descriptor: client)
        guard let (handshake, rest) = readHandshake(socket) else {
            socket.hangUp()
            socket.closeDescriptor()
            throw Failure(description: "no handshake came")
        }
        switch answer(handshake) {
        case .refuse(let status):
            socket.write(
                Array("HTTP/1.1 \(status) Refused\r\nContent-Length: 0\r\nConnection: close\r\n\r\n".utf8))
            socket.hangUp()
            socket.closeDescriptor()
            return LoopbackWebSocketPeer(handshake: handshake, socket: nil)
        case .upgrade(let subprotocol):
            guard let key = handshake.headers["sec-websocket-key"] else {
                socket.closeDescriptor()
                throw Failure(description: "no Sec-WebSocket-Key")
            }
            var head = "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            head += "Sec-WebSocket-Accept: \(acceptValue(for: key))\r\n"
            if let subprotocol { head += "Sec-WebSocket-Protocol: \(subprotocol)\r\n" }
            socket.write(Array((head + "\r\n").utf8))
            let peer = LoopbackWebSocketPeer(handshake: handshake, socket: socket)
            let frames = peer.frames
            Thread.detachNewThread {
                readFrames(from: socket, buffered: rest, into: frames, answersClose: answersClose)
            }
            return peer
        }
    }

    /// RFC 6455's `Sec-WebSocket-Accept` for a key.
    static func acceptValue(for key: String) -> String {
        Data(SHA1.digest(Array((key + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11").utf8))).base64EncodedString()
    }

    /// Reads the request head, up to its blank line.
    /// - Returns: the handshake, and the bytes that came after its head.
    private static func readHandshake(_ socket: PeerSocket) -> (Handshake, [UInt8])? {
        var data: [UInt8] = []
        let separator = Array("\r\n\r\n".utf8)
        var end: Int?
        while end == nil {
            let bytes = socket.read()
            guard !bytes.isEmpty, data.count < 64 * 1024 else { return nil }
            data += bytes
            end = data.indices.dropLast(3).first { Array(data[$0..<($0 + 4)]) == separator }
        }
        guard let end else { return nil }
        let head = String(decoding: data[..<end], as: UTF8.self)
        var lines = head.components(separatedBy: "\r\n")
        let requestLine = lines.removeFirst().split(separator: " ")
        guard requestLine.count == 3 else { return nil }
        var headers: [String: String] = [:]
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(
                in: .whitespaces)
        }
        let handshake = Handshake(
            method: String(requestLine[0]), target: String(requestLine[1]), headers: headers)
        return (handshake, Array(data[(end + 4)...]))
    }

    /// The reading side of a connection, on its own thread until the connection ends: each
    /// data or close frame to the queue (then `nil` at the end), pings answered with pongs, the
    /// client's close answered with the server's (unless the server sent its own first, or
    /// does not answer). It closes the descriptor when done, so that nothing else closes it
    /// while it reads.
    private static func readFrames(
        from socket: PeerSocket, buffered: [UInt8], into frames: AsyncQueue<LoopbackWebSocketFrame?>,
        answersClose: Bool
    ) {
        var reader = FrameReader(buffer: buffered)
        defer {
            frames.push(nil)
            socket.closeDescriptor()
        }
        while true {
            while let frame = reader.next() {
                switch frame.opcode {
                case 0x9:
                    socket.write(LoopbackWebSocketFrame.encoded(opcode: 0xA, payload: frame.payload))
                case 0xA:
                    continue
                case 0x8:
                    frames.push(frame)
                    if answersClose, !socket.sentClose {
                        socket.write(LoopbackWebSocketFrame.encoded(opcode: 0x8, payload: frame.payload))
                    }
                    // The close handshake is over (or the server will not answer): the server
                    // closes the TCP connection.
                    if answersClose || socket.sentClose { socket.hangUp() }
                default:
                    frames.push(frame)
                }
            }
            guard reader.isValid else { return }
            let bytes = socket.read()
            guard !bytes.isEmpty else { return }
            reader.buffer += bytes
        }
    }

    static func milliseconds(_ duration: Duration) -> Int32 {
        let components = duration.components
        return Int32(components.seconds * 1000 + components.attoseconds / 1_000_000_000_000_000)
    }
}

/// The server's side of one connection of a ``LoopbackWebSocketServer``.
final class LoopbackWebSocketPeer: Sendable {
    /// The client's opening handshake.
    let handshake: LoopbackWebSocketServer.Handshake
    /// The client's data and close frames, in order; `nil` once the connection ended.
    fileprivate let frames = AsyncQueue<LoopbackWebSocketFrame?>()
    private let socket: PeerSocket?

    fileprivate init(handshake: LoopbackWebSocketServer.Handshake, socket: PeerSocket?) {
        self.handshake = handshake
        self.socket = socket
        if socket == nil { frames.push(nil) }
    }

    deinit {
        socket?.hangUp()
    }

    /// Waits for the client's next data or close frame.
    /// - Returns: the frame, or `nil` when the connection ended first (and from then on).
    func nextFrame() async -> LoopbackWebSocketFrame? {
        guard let frame = await frames.next() else {
            frames.push(nil)
            return nil
        }
        return frame
    }

    /// Waits for the client's next frame, which must be a text frame.
    /// - Returns: its text.
    func nextText() async throws -> String {
        let frame = await nextFrame()
        guard let frame, let text = frame.text else {
            throw LoopbackWebSocketServer.Failure(
                description: "expected a text frame, got \(String(describing: frame))")
        }
        return text
    }

    /// Waits for the client's next frame, which must be a text frame of JSON: a message of
    /// `graphql-transport-ws`.
    /// - Returns: the message.
    func nextMessage() async throws -> JSONValue {
        try JSONValue(json: Data(try await nextText().utf8))
    }

    /// Sends a text frame.
    func send(text: String) {
        socket?.write(LoopbackWebSocketFrame.encoded(opcode: 0x1, payload: Array(text.utf8)))
    }

    /// Sends a binary frame.
    func send(binary: [UInt8]) {
        socket?.write(LoopbackWebSocketFrame.encoded(opcode: 0x2, payload: binary))
    }

    /// Sends a close frame with a code and a reason; the connection ends once the client
    /// answers it.
    func sendClose(code: UInt16, reason: String) {
        socket?.markCloseSent()
        let payload = [UInt8(code >> 8), UInt8(code & 0xFF)] + Array(reason.utf8)
        socket?.write(LoopbackWebSocketFrame.encoded(opcode: 0x8, payload: payload))
    }

    /// Ends the TCP connection without a close frame.
    func hangUp() {
        socket?.hangUp()
    }
}

/// A frame from the client, unmasked.
struct LoopbackWebSocketFrame: Sendable, Equatable, CustomStringConvertible {
    /// 0x1 text, 0x2 binary, 0x8 close, 0x9 ping, 0xA pong (0x0 a continuation).
    var opcode: UInt8
    var isFinal: Bool
    /// Whether the client masked it, as RFC 6455 says a client must.
    var wasMasked: Bool
    var payload: [UInt8]

    /// The text of a text frame.
    var text: String? { opcode == 0x1 ? String(decoding: payload, as: UTF8.self) : nil }

    /// The code of a close frame, when it has one.
    var closeCode: UInt16? {
        guard opcode == 0x8, payload.count >= 2 else { return nil }
        return UInt16(payload[0]) << 8 | UInt16(payload[1])
    }

    /// The reason of a close frame.
    var closeReason: String? {
        guard opcode == 0x8, payload.count >= 2 else { return nil }
        return String(decoding: payload[2...], as: UTF8.self)
    }

    var description: String {
        if let text { return "text(\(text))" }
        if opcode == 0x8 { return "close(\(closeCode.map(String.init) ?? "none"), \(closeReason ?? ""))" }
        return "frame(opcode: \(opcode), \(payload.count) bytes)"
    }

    /// A server's frame: final, unmasked.
    static func encoded(opcode: UInt8, payload: [UInt8]) -> [UInt8] {
        var bytes: [UInt8] = [0x80 | opcode]
        switch payload.count {
        case 0..<126:
            bytes.append(UInt8(payload.count))
        case 126...0xFFFF:
            bytes += [126, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
        default:
            bytes.append(127)
            bytes += (0..<8).reversed().map {
                UInt8(truncatingIfNeeded: UInt64(payload.count) >> UInt64($0 * 8))
            }
        }
        return bytes + payload
    }
}

/// Takes frames out of the bytes read so far.
private struct FrameReader {
    var buffer: [UInt8]
    /// Whether the bytes are frames: not after a length beyond what a test sends.
    private(set) var isValid = true

    init(buffer: [UInt8]) {
        self.buffer = buffer
    }

    /// The next whole frame, or `nil` when more bytes are needed.
    mutating func next() -> LoopbackWebSocketFrame? {
        guard isValid, buffer.count >= 2 else { return nil }
        let masked = buffer[1] & 0x80 != 0
        var length = Int(buffer[1] & 0x7F)
        var offset = 2
        if length == 126 {
            guard buffer.count >= 4 else { return nil }
            length = Int(buffer[2]) << 8 | Int(buffer[3])
            offset = 4
        } else if length == 127 {
            guard buffer.count >= 10 else { return nil }
            length = buffer[2..<10].reduce(0) { $0 << 8 | Int($1) }
            offset = 10
        }
        guard length <= 16 << 20 else {
            isValid = false
            return nil
        }
        let maskLength = masked ? 4 : 0
        guard buffer.count >= offset + maskLength + length else { return nil }
        let mask = Array(buffer[offset..<(offset + maskLength)])
        let start = offset + maskLength
        var payload = Array(buffer[start..<(start + length)])
        if masked {
            for index in payload.indices { payload[index] ^= mask[index % 4] }
        }
        let frame = LoopbackWebSocketFrame(
            opcode: buffer[0] & 0x0F, isFinal: buffer[0] & 0x80 != 0, wasMasked: masked, payload: payload)
        buffer.removeFirst(start + length)
        return frame
    }
}

/// One accepted socket: reads by its reading thread, writes (whole, one at a time) by anyone.
/// Its descriptor is closed once, by the thread that reads it (or, before any reads, by the
/// thread that accepted it); writes and hang-ups check under the lock that it is still open,
/// so that they never reach a descriptor number the system has given to another socket since.
private final class PeerSocket: Sendable {
    private struct State {
        var isOpen = true
        var closeSent = false
    }

    let descriptor: Int32
    private let state = Lock(State())

    init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    /// Whether the server sent a close frame.
    var sentClose: Bool { state.withLock { $0.closeSent } }

    func markCloseSent() {
        state.withLock { $0.closeSent = true }
    }

    /// Reads what has arrived, waiting for at least a byte (up to the read timeout); only the
    /// thread that closes the descriptor calls it.
    /// - Returns: the bytes; empty at the end of the connection, or on a failure.
    func read() -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count > 0 { return Array(buffer.prefix(count)) }
            if count < 0, errno == EINTR { continue }
            return []
        }
    }

    /// Writes every byte, unless the connection is gone.
    func write(_ bytes: [UInt8]) {
        state.withLock { state in
            guard state.isOpen else { return }
            #if canImport(Glibc)
                let flags = Int32(MSG_NOSIGNAL)
            #else
                let flags: Int32 = 0
            #endif
            var offset = 0
            while offset < bytes.count {
                let sent = bytes.withUnsafeBytes { raw in
                    send(descriptor, raw.baseAddress.map { $0 + offset }, raw.count - offset, flags)
                }
                if sent > 0 {
                    offset += sent
                } else if sent < 0, errno == EINTR {
                    continue
                } else {
                    return
                }
            }
        }
    }

    /// Ends the TCP connection (the reading thread then reads its end).
    func hangUp() {
        state.withLock { state in
            if state.isOpen { _ = shutdown(descriptor, Int32(SHUT_RDWR)) }
        }
    }

    func closeDescriptor() {
        state.withLock { state in
            guard state.isOpen else { return }
            state.isOpen = false
            #if canImport(Glibc)
                _ = Glibc.close(descriptor)
            #else
                _ = Darwin.close(descriptor)
            #endif
        }
    }
}
