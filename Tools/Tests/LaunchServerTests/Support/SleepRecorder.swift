import Synchronization

/// Stands in for `Task.sleep`: records each requested delay and returns at once.
final class SleepRecorder: Sendable {
    private let delays = Mutex<[Duration]>([])

    /// The delays asked for so far.
    var recorded: [Duration] { delays.withLock { $0 } }

    /// The function to put in `LaunchServerConfiguration.sleep`.
    var sleep: @Sendable (Duration) async throws -> Void {
        { duration in self.delays.withLock { $0.append(duration) } }
    }
}
