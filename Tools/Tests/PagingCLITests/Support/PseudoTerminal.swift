import Foundation
import ToolsLock

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A pseudo-terminal a test runs a program in: it writes keys to the program and reads its
/// screen output, waiting for expected text with an upper bound instead of sleeping.
final class PseudoTerminal: Sendable {
    private struct Waiter {
        var needle: String
        var offset: Int
        var continuation: CheckedContinuation<Bool, Never>
    }

    private struct State {
        var output: [UInt8] = []
        var closed = false
        var waiters: [Int: Waiter] = [:]
        var nextWaiter = 0
    }

    /// The controlling side, where the test reads and writes.
    let master: Int32
    /// The program's side: its standard input, output and error.
    let slave: Int32
    private let state = Locked(State())

    /// Opens a pseudo-terminal of the given size.
    init(rows: Int, columns: Int) throws {
        // posix_openpt, grantpt, unlockpt and ptsname are not imported into Swift on Linux
        // (feature macros); their Linux implementation is /dev/ptmx and two ioctls.
        master = open("/dev/ptmx", O_RDWR | O_NOCTTY)
        guard master >= 0 else {
            throw TestFailure("cannot open /dev/ptmx: \(String(cString: strerror(errno)))")
        }
        var unlock: Int32 = 0
        var number: UInt32 = 0
        // TIOCSPTLCK = _IOW('T', 0x31, int), TIOCGPTN = _IOR('T', 0x30, unsigned int).
        guard ioctl(master, UInt(0x4004_5431), &unlock) == 0, ioctl(master, UInt(0x8004_5430), &number) == 0
        else {
            throw TestFailure("cannot unlock the pseudo-terminal: \(String(cString: strerror(errno)))")
        }
        slave = open("/dev/pts/\(number)", O_RDWR | O_NOCTTY)
        guard slave >= 0 else { throw TestFailure("cannot open /dev/pts/\(number)") }
        var size = winsize(ws_row: UInt16(rows), ws_col: UInt16(columns), ws_xpixel: 0, ws_ypixel: 0)
        _ = ioctl(slave, UInt(TIOCSWINSZ), &size)
        let thread = Thread { [self] in readLoop() }
        thread.start()
    }

    /// The local modes of the terminal (ECHO, ICANON, ...).
    var localModes: tcflag_t {
        var modes = termios()
        _ = tcgetattr(slave, &modes)
        return modes.c_lflag
    }

    /// Everything the program wrote so far.
    var output: String { state.withLock { String(decoding: $0.output, as: UTF8.self) } }

    /// The number of bytes the program wrote so far.
    var outputCount: Int { state.withLock { $0.output.count } }

    /// Types text, as keys.
    func type(_ text: String) {
        var bytes = Array(text.utf8)
        _ = write(master, &bytes, bytes.count)
    }

    /// Waits until the output after `offset` contains `needle`, or `timeout` passes (``patience``
    /// unless given: the program runs beside every other test, and its text appears when it
    /// appears; the limit ends a program that never writes it).
    /// - Returns: whether the text appeared.
    func waitFor(_ needle: String, after offset: Int = 0, timeout: Duration = patience) async -> Bool {
        let id = state.withLock { state -> Int in
            defer { state.nextWaiter += 1 }
            return state.nextWaiter
        }
        let timer = Task {
            try? await Task.sleep(for: timeout)
            self.resolve(id, false)
        }
        defer { timer.cancel() }
        return await withCheckedContinuation { continuation in
            let done = state.withLock { state -> Bool? in
                if Self.contains(state.output, needle, after: offset) { return true }
                if state.closed { return false }
                state.waiters[id] = Waiter(needle: needle, offset: offset, continuation: continuation)
                return nil
            }
            if let done { continuation.resume(returning: done) }
        }
    }

    private func resolve(_ id: Int, _ value: Bool) {
        let waiter = state.withLock { $0.waiters.removeValue(forKey: id) }
        waiter?.continuation.resume(returning: value)
    }

    private static func contains(_ output: [UInt8], _ needle: String, after offset: Int) -> Bool {
        guard offset < output.count else { return false }
        return String(decoding: output[offset...], as: UTF8.self).contains(needle)
    }

    private func readLoop() {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = read(master, &buffer, buffer.count)
            if count < 0, errno == EINTR { continue }
            let ready: [(CheckedContinuation<Bool, Never>, Bool)] = state.withLock { state in
                if count > 0 {
                    state.output += buffer.prefix(count)
                } else {
                    state.closed = true
                }
                var ready: [(CheckedContinuation<Bool, Never>, Bool)] = []
                for (id, waiter) in state.waiters {
                    let found = Self.contains(state.output, waiter.needle, after: waiter.offset)
                    if found || state.closed {
                        ready.append((waiter.continuation, found))
                        state.waiters[id] = nil
                    }
                }
                return ready
            }
            for (continuation, found) in ready { continuation.resume(returning: found) }
            if count <= 0 { return }
        }
    }
}
