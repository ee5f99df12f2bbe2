import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A TCP socket listening on 127.0.0.1 that never answers: connections wait
/// in its backlog. For tests of requests that hang and of refused ones.
final class LoopbackListener: Sendable {
    let descriptor: Int32
    let port: UInt16

    struct Failure: Error { var step: String }

    init() throws {
        #if canImport(Glibc)
            let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            let descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard descriptor >= 0 else { throw Failure(step: "socket") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, listen(descriptor, 8) == 0 else { throw Failure(step: "bind/listen") }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        guard named == 0 else { throw Failure(step: "getsockname") }
        self.descriptor = descriptor
        self.port = UInt16(bigEndian: address.sin_port)
    }

    /// Waits, without a clock, until a client has connected: `accept` blocks
    /// on a thread of its own.
    func waitForConnection() async throws {
        let descriptor = self.descriptor
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            Thread.detachNewThread {
                let client = accept(descriptor, nil, nil)
                if client >= 0 {
                    continuation.resume()
                } else {
                    continuation.resume(throwing: Failure(step: "accept"))
                }
            }
        }
    }

    func close() {
        #if canImport(Glibc)
            _ = Glibc.close(descriptor)
        #else
            _ = Darwin.close(descriptor)
        #endif
    }
}
