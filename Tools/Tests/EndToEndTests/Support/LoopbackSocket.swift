import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A blocking TCP socket on the loopback interface, for ``HostileServer``: listening, or one
/// accepted connection. Thin over POSIX, so that a test controls every byte, when the
/// connection ends, and how (a FIN or a reset).
///
/// The descriptor is closed once, by ``closeGracefully()`` or ``closeWithReset()``; other
/// threads may call ``wake()`` at any time to wake a thread blocked in a call on it.
final class LoopbackSocket: Sendable {
    /// The file descriptor.
    let descriptor: Int32

    private init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    /// What went wrong with a socket call, with `errno`'s text.
    struct Failure: Error, CustomStringConvertible {
        /// The call and the system's reason.
        let description: String

        /// Describes the failed call `call` with the current `errno`.
        init(_ call: String) {
            description = "\(call) failed: \(String(cString: strerror(errno)))"
        }
    }

    /// A connection to a port of 127.0.0.1.
    /// - Parameter port: the port.
    /// - Throws: ``Failure`` when the socket cannot be made or nobody listens there.
    static func connected(toPort port: Int) throws -> LoopbackSocket {
        let socket = try makeSocket()
        var address = loopbackAddress(port: port)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(socket.descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            socket.closeGracefully()
            throw Failure("connect")
        }
        configureConnection(socket.descriptor)
        return socket
    }

    /// Sets a connection's options: each write goes out at once, not held for more bytes, and a
    /// write to a closed connection fails rather than raising `SIGPIPE`.
    private static func configureConnection(_ descriptor: Int32) {
        var on: Int32 = 1
        _ = setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size))
        #if canImport(Darwin)
            _ = setsockopt(descriptor, SOL_SOCKET, SO_NOSIGPIPE, &on, socklen_t(MemoryLayout<Int32>.size))
        #endif
    }

    /// A new TCP socket.
    private static func makeSocket() throws -> LoopbackSocket {
        #if canImport(Glibc)
            let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            let descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard descriptor >= 0 else { throw Failure("socket") }
        return LoopbackSocket(descriptor: descriptor)
    }

    /// 127.0.0.1 and a port (0: the system chooses).
    private static func loopbackAddress(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return address
    }

    /// A socket listening on 127.0.0.1 on a port the system chooses.
    /// - Returns: the socket and its port.
    /// - Throws: ``Failure`` when the socket cannot be made, bound or listened on.
    static func listening() throws -> (socket: LoopbackSocket, port: Int) {
        let socket = try makeSocket()
        let descriptor = socket.descriptor
        var address = loopbackAddress(port: 0)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0 else {
            socket.closeGracefully()
            throw Failure("bind")
        }
        guard listen(descriptor, 64) == 0 else {
            socket.closeGracefully()
            throw Failure("listen")
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        guard named == 0 else {
            socket.closeGracefully()
            throw Failure("getsockname")
        }
        return (socket, Int(UInt16(bigEndian: address.sin_port)))
    }

    /// Accepts the next connection.
    /// - Returns: the connection, or `nil` when accepting failed (the listener was closed).
    func acceptConnection() -> LoopbackSocket? {
        while true {
            let connection = accept(descriptor, nil, nil)
            if connection >= 0 {
                Self.configureConnection(connection)
                return LoopbackSocket(descriptor: connection)
            }
            if errno == EINTR { continue }
            return nil
        }
    }

    /// Reads what has arrived, waiting for at least one byte.
    /// - Parameter maximum: the most bytes to read.
    /// - Returns: the bytes; empty when the peer closed the connection or it failed.
    func receive(maximum: Int = 64 * 1024) -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: maximum)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, maximum, 0) }
            if count > 0 { return Array(buffer.prefix(count)) }
            if count < 0, errno == EINTR { continue }
            return []
        }
    }

    /// Writes every byte, waiting while the peer's window is full.
    /// - Parameter bytes: the bytes.
    /// - Returns: `false` when the peer closed or reset the connection first.
    @discardableResult
    func sendAll(_ bytes: some Collection<UInt8>) -> Bool {
        let array = Array(bytes)
        var offset = 0
        while offset < array.count {
            let written = array.withUnsafeBytes { buffer in
                #if canImport(Glibc)
                    Glibc.send(
                        descriptor, buffer.baseAddress.map { $0 + offset }, buffer.count - offset,
                        Int32(MSG_NOSIGNAL))
                #else
                    Darwin.send(descriptor, buffer.baseAddress.map { $0 + offset }, buffer.count - offset, 0)
                #endif
            }
            if written > 0 {
                offset += written
            } else if written < 0, errno == EINTR {
                continue
            } else {
                return false
            }
        }
        return true
    }

    /// Writes text as UTF-8.
    /// - Parameter text: the text.
    /// - Returns: `false` when the peer closed or reset the connection first.
    @discardableResult
    func sendAll(_ text: String) -> Bool {
        sendAll(Array(text.utf8))
    }

    /// Wakes any thread blocked reading or writing on this socket, and makes its later calls
    /// fail; the descriptor stays open until it is closed.
    /// Waits until the peer closes the connection (or resets it), or `limit` passes; the peer
    /// must send nothing meanwhile.
    /// - Returns: whether the peer hung up in time.
    func hangsUp(within limit: Duration) -> Bool {
        var waiting = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        let milliseconds = Int32(limit.components.seconds * 1000)
        guard poll(&waiting, 1, milliseconds) == 1 else { return false }
        var byte: UInt8 = 0
        return recv(descriptor, &byte, 1, Int32(MSG_PEEK)) <= 0
    }

    func wake() {
        _ = shutdown(descriptor, Int32(SHUT_RDWR))
    }

    /// Closes the connection the polite way: the peer reads what was sent, then the end.
    func closeGracefully() {
        _ = close(descriptor)
    }

    /// Closes the connection with a reset (`SO_LINGER` 0): the peer's next read fails with
    /// "connection reset by peer", and bytes it has not read yet may be lost.
    func closeWithReset() {
        var linger = linger(l_onoff: 1, l_linger: 0)
        _ = setsockopt(descriptor, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<linger>.size))
        _ = close(descriptor)
    }
}
