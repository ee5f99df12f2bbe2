import Synchronization

/// A value that a benchmark's setup makes and its closure uses: the harness's hooks and closures
/// are `@Sendable` and take no state, so the state lives here, behind a lock.
public final class Shared<Value: Sendable>: Sendable {
    private let storage = Mutex<Value?>(nil)

    /// Creates an empty holder.
    public init() {}

    /// The value, once set.
    /// - Throws: ``BenchmarkSetupError`` when setup has not set it.
    public func get() throws -> Value {
        guard let value = storage.withLock({ $0 }) else { throw BenchmarkSetupError("setup did not run") }
        return value
    }

    /// Sets (or clears) the value.
    public func set(_ value: Value?) { storage.withLock { $0 = value } }
}

/// A benchmark that could not set itself up.
public struct BenchmarkSetupError: Error, CustomStringConvertible {
    /// What went wrong.
    public let description: String
    /// Creates the error.
    public init(_ description: String) { self.description = description }
}
