import Foundation
import PagingLock

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A tiny HTTP/1.1 server on 127.0.0.1 for tests of what a client really sends: it records each
/// request (method, target, header fields) and answers it as its script says.
///
/// Bounded: it serves one request per connection (answering with `Connection: close`), at most
/// `maximumRequests` of them, and gives up a connection that sends nothing for a few seconds.
/// It closes by itself after its last request, or when no client came for
/// `idleTimeout`; ``close()`` stops it sooner.
final class LoopbackHTTPServer: Sendable {
    /// A request as the server read it.
    struct Request: Sendable {
        var method: String
        var target: String
        /// The header fields, by lowercased name.
        var headers: [String: String]
        var body: Data
    }

    /// An answer to a request.
    struct Response: Sendable {
        var status: Int
        var headers: [String: String] = [:]
        var body: Data = Data()
        /// Whether the head has `Content-Length`; without it, closing the connection ends the body.
        var announcesLength = true
        /// When set, only this many bytes of the body are written; then the server waits (for
        /// `hangUpWait` at most) for the client to hang up, instead of writing the rest.
        var stopsAfter: Int?
        /// How long the server waits for the client to hang up after `stopsAfter` bytes. Long, so
        /// that a client slowed by a busy machine or a sanitizer still counts as hung up.
        var hangUpWait: Duration = .seconds(120)
    }

    struct Failure: Error { var step: String }

    /// What the server answers a request with, given its port.
    typealias Script = @Sendable (Request, UInt16) -> Response

    let port: UInt16
    private let listener: LoopbackListener
    /// Whether the socket is still open: only its owner thread closes it, and ``close()`` must
    /// never shut down a descriptor number the system has given to another socket since.
    private let isOpen = Lock(true)
    private let received = Lock<[Request]>([])
    /// Whether the client hung up before each answer's end, in order; `answerWritten` counts them.
    private let answers = Lock<[Bool]>([])
    private let answerWritten = DispatchSemaphore(value: 0)

    /// The requests served so far, in order.
    var requests: [Request] { received.withLock { $0 } }

    /// Waits until the server is done with its answer number `number` (from 1).
    /// - Returns: whether the client hung up before the answer's end.
    func clientHungUpEarly(onAnswer number: Int) async -> Bool {
        await withCheckedContinuation { continuation in
            // Waited for on a thread of its own: a semaphore must not hold a task's thread.
            Thread.detachNewThread { [self] in
                while answers.withLock({ $0.count }) < number { answerWritten.wait() }
                continuation.resume(returning: answers.withLock { $0[number - 1] })
            }
        }
    }

    /// Starts a server on an ephemeral port of 127.0.0.1.
    /// - Parameters:
    ///   - maximumRequests: how many requests it serves before it closes.
    ///   - idleTimeout: how long it waits for a client before it closes.
    ///   - script: what it answers each request with.
    init(maximumRequests: Int = 4, idleTimeout: Duration = .seconds(30), script: @escaping Script) throws {
        let listener = try LoopbackListener()
        self.listener = listener
        self.port = listener.port
        let idleMilliseconds = Int32(idleTimeout.components.seconds * 1000)
        Thread.detachNewThread { [self] in
            serve(maximumRequests: maximumRequests, idleMilliseconds: idleMilliseconds, script: script)
        }
    }

    /// Stops accepting clients; the server's thread closes the socket.
    func close() {
        isOpen.withLock { isOpen in
            if isOpen { _ = shutdown(listener.descriptor, Int32(SHUT_RDWR)) }
        }
    }

    private func serve(maximumRequests: Int, idleMilliseconds: Int32, script: Script) {
        defer {
            isOpen.withLock { isOpen in
                isOpen = false
                listener.close()
            }
        }
        for _ in 0..<maximumRequests {
            var waiting = pollfd(fd: listener.descriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&waiting, 1, idleMilliseconds) == 1, waiting.revents & Int16(POLLIN) != 0 else {
                return
            }
            let client = accept(listener.descriptor, nil, nil)
            guard client >= 0 else { return }
            defer { Self.closeSocket(client) }
            var limit = timeval(tv_sec: 5, tv_usec: 0)
            _ = setsockopt(client, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
            guard let request = Self.read(client) else { continue }
            received.withLock { $0.append(request) }
            let hungUp = Self.write(script(request, port), to: client)
            answers.withLock { $0.append(hungUp) }
            answerWritten.signal()
        }
    }

    /// Reads one request: its head up to the blank line, then a body of `Content-Length` bytes.
    private static func read(_ client: Int32) -> Request? {
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 4096)
        let separator = Data("\r\n\r\n".utf8)
        while data.range(of: separator) == nil {
            let count = recv(client, &buffer, buffer.count, 0)
            guard count > 0, data.count < 64 * 1024 else { return nil }
            data.append(contentsOf: buffer[0..<count])
        }
        guard let end = data.range(of: separator),
            let head = String(data: data[..<end.lowerBound], encoding: .utf8)
        else { return nil }
        var lines = head.components(separatedBy: "\r\n")
        let requestLine = lines.removeFirst().split(separator: " ")
        guard requestLine.count == 3 else { return nil }
        var headers: [String: String] = [:]
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = line[..<colon].lowercased()
            headers[name] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        var body = Data(data[end.upperBound...])
        let expected = headers["content-length"].flatMap { Int($0) } ?? 0
        while body.count < expected {
            let count = recv(client, &buffer, min(buffer.count, expected - body.count), 0)
            guard count > 0 else { return nil }
            body.append(contentsOf: buffer[0..<count])
        }
        return Request(
            method: String(requestLine[0]), target: String(requestLine[1]), headers: headers, body: body)
    }

    /// - Returns: whether the client hung up before the answer's end.
    @discardableResult
    private static func write(_ response: Response, to client: Int32) -> Bool {
        var head = "HTTP/1.1 \(response.status) \(response.status < 400 ? "OK" : "Error")\r\n"
        var fields = response.headers
        if response.announcesLength { fields["Content-Length"] = String(response.body.count) }
        fields["Connection"] = "close"
        for (name, value) in fields.sorted(by: { $0.key < $1.key }) { head += "\(name): \(value)\r\n" }
        let body = response.stopsAfter.map { response.body.prefix($0) } ?? response.body
        let bytes = Data((head + "\r\n").utf8) + body
        #if canImport(Glibc)
            let flags = Int32(MSG_NOSIGNAL)  // a client gone must not kill the test process
        #else
            let flags: Int32 = 0
        #endif
        let sentAll = bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let sent = send(client, raw.baseAddress.map { $0 + offset }, raw.count - offset, flags)
                guard sent > 0 else { return false }
                offset += sent
            }
            return true
        }
        guard sentAll else { return true }
        guard response.stopsAfter != nil else { return false }
        // The rest is never written: a client still reading waits for it, one that gave up
        // closes the connection, which makes the socket readable (end of file or a reset).
        var waiting = pollfd(fd: client, events: Int16(POLLIN), revents: 0)
        let wait = response.hangUpWait.components
        let milliseconds = Int32(clamping: wait.seconds * 1000 + wait.attoseconds / 1_000_000_000_000_000)
        guard poll(&waiting, 1, milliseconds) == 1 else { return false }
        var byte: UInt8 = 0
        return recv(client, &byte, 1, Int32(MSG_PEEK)) <= 0
    }

    private static func closeSocket(_ descriptor: Int32) {
        #if canImport(Glibc)
            _ = Glibc.close(descriptor)
        #else
            _ = Darwin.close(descriptor)
        #endif
    }
}
