import ToolsLock

/// The launches added to the store and changed in it, handed to every subscription running, in
/// the order their transactions committed.
///
/// The store publishes from its writer's commit hook, which runs once per committed transaction
/// and one transaction at a time, so every subscriber sees the same events in the same order
/// and never one whose transaction rolled back. A subscriber that falls ``backlog`` events
/// behind is ended with ``Overflow`` rather than silently skipped: a subscription must not
/// lose an event without saying so.
final class LaunchEvents: Sendable {
    /// What happened to a launch.
    enum Kind: Sendable {
        /// The launch was added (`addLaunch`, `scheduleLaunch`, the server's schedule).
        case added
        /// The launch's booking changed (`bookTrips`, `cancelTrip`).
        case updated
    }

    /// A subscriber fell so far behind that events would have been dropped.
    struct Overflow: Error, CustomStringConvertible {
        var description: String {
            "The subscription fell \(LaunchEvents.backlog) events behind and was ended; subscribe again and refetch what it missed."
        }
    }

    /// How many events a subscriber may have waiting before it is ended.
    static let backlog = 10_000

    private struct Subscriber {
        var kind: Kind
        var continuation: AsyncThrowingStream<Launch, any Error>.Continuation
    }

    private struct Waiter {
        var condition: @Sendable (Int) -> Bool
        var continuation: CheckedContinuation<Void, Never>
    }

    private struct Subscribers {
        var nextKey = 0
        var byKey: [Int: Subscriber] = [:]
        /// Those waiting for a number of subscribers.
        var waiters: [Waiter] = []

        /// Resumes the waiters whose condition holds now.
        mutating func countChanged() {
            let count = byKey.count
            waiters.removeAll { waiter in
                guard waiter.condition(count) else { return false }
                waiter.continuation.resume()
                return true
            }
        }
    }

    private let subscribers = Locked(Subscribers())

    /// The launches of one kind of event from now on, until the stream's consumer stops.
    ///
    /// - Complexity: O(1).
    func stream(of kind: Kind) -> AsyncThrowingStream<Launch, any Error> {
        let (stream, continuation) = AsyncThrowingStream<Launch, any Error>.makeStream(
            bufferingPolicy: .bufferingOldest(Self.backlog))
        let key = subscribers.withLock { subscribers in
            let key = subscribers.nextKey
            subscribers.nextKey += 1
            subscribers.byKey[key] = Subscriber(kind: kind, continuation: continuation)
            subscribers.countChanged()
            return key
        }
        continuation.onTermination = { [weak self] _ in
            self?.subscribers.withLock { subscribers in
                subscribers.byKey[key] = nil
                subscribers.countChanged()
            }
        }
        return stream
    }

    /// Hands launches to every subscriber of their kind.
    ///
    /// - Complexity: O(*s* × *n*) for *s* subscribers and *n* launches.
    func publish(_ kind: Kind, _ launches: [Launch]) {
        guard !launches.isEmpty else { return }
        let receivers = subscribers.withLock { subscribers in
            subscribers.byKey.values.filter { $0.kind == kind }.map(\.continuation)
        }
        for continuation in receivers {
            for launch in launches {
                if case .dropped = continuation.yield(launch) {
                    continuation.finish(throwing: Overflow())
                    break
                }
            }
        }
    }

    /// The number of subscribers.
    var count: Int { subscribers.withLock { $0.byKey.count } }

    /// Returns once the number of subscribers satisfies a condition: for tests that publish
    /// only once a subscription is listening, and check that a closed socket leaves none.
    func waitUntilCount(_ condition: @escaping @Sendable (Int) -> Bool) async {
        await withCheckedContinuation { continuation in
            subscribers.withLock { subscribers in
                if condition(subscribers.byKey.count) {
                    continuation.resume()
                } else {
                    subscribers.waiters.append(Waiter(condition: condition, continuation: continuation))
                }
            }
        }
    }
}
