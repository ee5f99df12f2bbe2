import Dispatch
import Foundation
import Paging

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Runs a ``ListSession`` in the terminal: keys from standard input, snapshots from the pager,
/// resizes from SIGWINCH, until `q`, Ctrl-C, SIGTERM, SIGHUP or the end of input. The terminal
/// is restored on every one of these ways out.
enum TerminalRunner {
    /// Runs until the user quits.
    /// - Parameters:
    ///   - session: the session; it is started here.
    ///   - terminal: the terminal.
    static func run<Key, Item>(_ session: ListSession<Key, Item>, terminal: RawTerminal) async throws {
        try terminal.enter()
        defer { terminal.restore() }

        let (events, continuation) = AsyncStream<TerminalEvent<Item>>.makeStream(bufferingPolicy: .unbounded)
        let stopSignals = SignalWatcher.watch([SIGINT, SIGTERM, SIGHUP]) { continuation.yield(.quit) }
        defer { stopSignals() }
        let stopResizes = SignalWatcher.watch([SIGWINCH]) { continuation.yield(.resized) }
        defer { stopResizes() }

        let reader = DispatchSource.makeReadSource(
            fileDescriptor: STDIN_FILENO, queue: DispatchQueue(label: "paging.keys"))
        reader.setEventHandler {
            var buffer = [UInt8](repeating: 0, count: 256)
            let count = read(STDIN_FILENO, &buffer, buffer.count)
            if count > 0 {
                continuation.yield(.keys(ScreenKey.decode(Array(buffer.prefix(count)))))
            } else if count == 0 || (errno != EINTR && errno != EAGAIN) {
                continuation.yield(.quit)
            }
        }
        reader.resume()
        defer { reader.cancel() }

        // The snapshots of the list shown (a search shows another list).
        await session.forwardSnapshots { generation, snapshot in
            continuation.yield(.snapshot(snapshot, generation: generation))
        }

        await session.setOnChange { continuation.yield(.redraw) }
        await session.resize(to: terminal.size)
        await session.start()
        terminal.draw(await session.lines())

        loop: for await event in events {
            switch event {
            case .quit:
                break loop
            case .keys(let keys):
                if await !session.send(keys) { break loop }
            case .snapshot(let snapshot, let generation):
                await session.apply(snapshot, generation: generation)
            case .resized:
                terminal.write("\u{1B}[2J")
                await session.resize(to: terminal.size)
            case .redraw:
                break
            }
            terminal.draw(await session.lines())
        }
        await session.stopForwarding()
        continuation.finish()
    }
}

/// What the terminal loop waits for.
private enum TerminalEvent<Item: Sendable>: Sendable {
    case keys([ScreenKey])
    case snapshot(PagingSnapshot<Item>, generation: Int)
    case resized
    case redraw
    case quit
}
