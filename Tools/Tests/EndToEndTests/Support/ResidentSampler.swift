import Foundation
import ToolsLock

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Watches the process's resident memory while some work runs: a thread reads it every few
/// milliseconds and keeps the largest value, so a test can tell whether the work held a lot of
/// memory at some point, however briefly. It measures, it orders nothing.
final class ResidentSampler: Sendable {
    private struct State {
        var peak = 0
        var running = true
    }

    private let state = Locked(State())
    private let stopped = DispatchSemaphore(value: 0)

    /// The process's resident size, where the system reports it (`/proc/self/statm` on Linux).
    static func residentBytes() -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return nil }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return nil }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }

    /// Starts sampling at once.
    init() {
        Thread.detachNewThread { [self] in
            while state.withLock({ $0.running }) {
                let bytes = Self.residentBytes() ?? 0
                state.withLock { $0.peak = max($0.peak, bytes) }
                usleep(2_000)
            }
            stopped.signal()
        }
    }

    /// Stops sampling.
    /// - Returns: the largest resident size seen, in bytes.
    func stop() async -> Int {
        state.withLock { $0.running = false }
        await withCheckedContinuation { continuation in
            Thread.detachNewThread { [self] in
                stopped.wait()
                continuation.resume()
            }
        }
        return state.withLock { $0.peak }
    }
}
