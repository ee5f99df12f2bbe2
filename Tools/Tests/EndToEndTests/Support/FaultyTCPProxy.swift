import Foundation
import ToolsLock

/// A TCP relay on 127.0.0.1 to one local port that the test can break: drop every connection
/// through it with a reset, or stall them (bytes in either direction are read and thrown away,
/// and the sockets stay open, as behind a NAT that forgot them). New connections relay again.
final class FaultyTCPProxy: Sendable {
    /// The port it listens on.
    let port: Int
    private let listener: LoopbackSocket
    private let target: Int

    /// One relayed connection: both sockets, and whether it is stalled.
    private final class Tunnel: Sendable {
        let client: LoopbackSocket
        let upstream: LoopbackSocket
        let stalled = Locked(false)
        /// Whether the test dropped it: its sockets are closed with a reset.
        let dropped = Locked(false)

        init(client: LoopbackSocket, upstream: LoopbackSocket) {
            self.client = client
            self.upstream = upstream
        }

        /// Ends the relays: both sockets are woken (their descriptors stay open until
        /// ``close()``, once neither relay reads them).
        func drop() {
            dropped.withLock { $0 = true }
            client.wake()
            upstream.wake()
        }

        /// Closes both sockets, with a reset when it was dropped.
        func close() {
            if dropped.withLock({ $0 }) {
                client.closeWithReset()
                upstream.closeWithReset()
            } else {
                client.closeGracefully()
                upstream.closeGracefully()
            }
        }
    }

    private let tunnels = Locked<[ObjectIdentifier: Tunnel]>([:])
    /// How many connections it accepted (each counted once ``dropAll()`` reaches it).
    let accepted = Locked(0)

    private init(listener: LoopbackSocket, port: Int, target: Int) {
        self.listener = listener
        self.port = port
        self.target = target
    }

    /// Starts a relay to `target`.
    /// - Throws: `LoopbackSocket.Failure` when it cannot listen.
    static func start(relayingTo target: Int) throws -> FaultyTCPProxy {
        let (listener, port) = try LoopbackSocket.listening()
        let proxy = FaultyTCPProxy(listener: listener, port: port, target: target)
        Thread.detachNewThread { proxy.acceptConnections() }
        return proxy
    }

    /// Resets every connection open through it: both peers see the connection reset.
    func dropAll() {
        for tunnel in tunnels.withLock({ Array($0.values) }) { tunnel.drop() }
    }

    /// Stalls every connection open through it: nothing more gets through, and neither peer is
    /// told; a peer that gives up and closes its side ends the tunnel.
    func stallAll() {
        for tunnel in tunnels.withLock({ Array($0.values) }) { tunnel.stalled.withLock { $0 = true } }
    }

    /// Stops accepting, and resets what is open.
    func stop() {
        listener.wake()
        dropAll()
    }

    private func acceptConnections() {
        while let client = listener.acceptConnection() {
            guard let upstream = try? LoopbackSocket.connected(toPort: target) else {
                accepted.withLock { $0 += 1 }
                client.closeWithReset()
                continue
            }
            let tunnel = Tunnel(client: client, upstream: upstream)
            // Counted once it can be dropped: a test that waits for the count, then drops, drops it.
            tunnels.withLock { $0[ObjectIdentifier(tunnel)] = tunnel }
            accepted.withLock { $0 += 1 }
            Thread.detachNewThread { [self] in
                let back = DispatchSemaphore(value: 0)
                Thread.detachNewThread {
                    Self.relay(from: upstream, to: client, tunnel: tunnel)
                    back.signal()
                }
                Self.relay(from: client, to: upstream, tunnel: tunnel)
                back.wait()
                tunnel.close()
                _ = tunnels.withLock { $0.removeValue(forKey: ObjectIdentifier(tunnel)) }
            }
        }
        listener.closeGracefully()
    }

    /// Copies bytes until either side ends (dropping them while stalled), then wakes both.
    private static func relay(from source: LoopbackSocket, to destination: LoopbackSocket, tunnel: Tunnel) {
        while true {
            let bytes = source.receive()
            if bytes.isEmpty { break }
            if tunnel.stalled.withLock({ $0 }) { continue }
            if !destination.sendAll(bytes) { break }
        }
        source.wake()
        destination.wake()
    }
}
