import ToolsLock

/// Lines for standard error that must wait while a screen holds the terminal, where they would
/// tear its drawing: written at once when not held, kept while held, and written in order once
/// ``release()`` gives the terminal back.
final class HeldLines: Sendable {
    private let sink: TextSink
    private let state: Locked<State>

    private struct State {
        var holding: Bool
        var lines: [String] = []
    }

    /// Creates the lines of a sink.
    /// - Parameters:
    ///   - sink: where the lines go (standard error).
    ///   - holding: whether they wait for ``release()`` (a screen holds the terminal).
    init(sink: TextSink, holding: Bool) {
        self.sink = sink
        self.state = Locked(State(holding: holding))
    }

    /// Writes a line, or keeps it until ``release()`` while held.
    /// - Complexity: O(1) while held; the write otherwise.
    func line(_ text: String) {
        // Written under the lock, so that a line told during `release()` comes after the held ones.
        state.withLock { state in
            if state.holding {
                state.lines.append(text)
            } else {
                sink.line(text)
            }
        }
    }

    /// Writes the lines kept so far, in order, and writes any later line at once.
    /// - Complexity: O(n) in the lines kept.
    func release() {
        state.withLock { state in
            state.holding = false
            for line in state.lines { sink.line(line) }
            state.lines = []
        }
    }
}
