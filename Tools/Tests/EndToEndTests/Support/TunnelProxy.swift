import Foundation
import ToolsLock

/// An HTTP proxy on 127.0.0.1 that tunnels every `CONNECT` to one local port, whatever host it
/// names, and records the head of each request it receives: to show that a client's requests
/// went through it, to a host that exists nowhere else.
final class TunnelProxy: Sendable {
    /// The port it listens on.
    let port: Int
    private let listener: LoopbackSocket
    private let target: Int
    private let heads = Locked<[String]>([])

    /// The heads of the requests received (request line and fields), in order.
    var requestHeads: [String] { heads.withLock { $0 } }

    private init(listener: LoopbackSocket, port: Int, target: Int) {
        self.listener = listener
        self.port = port
        self.target = target
    }

    /// Starts a proxy that tunnels to `target`.
    /// - Throws: `LoopbackSocket.Failure` when it cannot listen.
    static func start(tunnelingTo target: Int) throws -> TunnelProxy {
        let (listener, port) = try LoopbackSocket.listening()
        let proxy = TunnelProxy(listener: listener, port: port, target: target)
        Thread.detachNewThread { proxy.acceptConnections() }
        return proxy
    }

    /// Stops accepting connections (the tunnels open end with their peers).
    func stop() {
        listener.wake()
    }

    private func acceptConnections() {
        while let client = listener.acceptConnection() {
            Thread.detachNewThread { [self] in serve(client) }
        }
        listener.closeGracefully()
    }

    /// Reads a request head; answers a `CONNECT` with a tunnel, anything else with 405.
    private func serve(_ client: LoopbackSocket) {
        var received: [UInt8] = []
        let end = Array("\r\n\r\n".utf8)
        var headEnd: Int?
        while headEnd == nil {
            let bytes = client.receive()
            if bytes.isEmpty {
                client.closeGracefully()
                return
            }
            received += bytes
            headEnd = received.firstRange(of: end)?.upperBound
        }
        guard let headEnd else { return }
        let head = String(decoding: received[..<headEnd], as: UTF8.self)
        heads.withLock { $0.append(head) }
        guard head.hasPrefix("CONNECT "), let upstream = try? LoopbackSocket.connected(toPort: target) else {
            client.sendAll(
                "HTTP/1.1 405 Method Not Allowed\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
            client.closeGracefully()
            return
        }
        client.sendAll("HTTP/1.1 200 Connection Established\r\n\r\n")
        upstream.sendAll(received[headEnd...])
        let back = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            Self.relay(from: upstream, to: client)
            back.signal()
        }
        Self.relay(from: client, to: upstream)
        back.wait()
        client.closeGracefully()
        upstream.closeGracefully()
    }

    /// Copies bytes until either side ends, then wakes both.
    private static func relay(from source: LoopbackSocket, to destination: LoopbackSocket) {
        while true {
            let bytes = source.receive()
            if bytes.isEmpty || !destination.sendAll(bytes) { break }
        }
        source.wake()
        destination.wake()
    }
}
