import PagingLock

/// An in-memory Firebase Realtime Database list queried the way Makestagram
/// queries its timeline: `orderBy="$key"`, `limitToLast=n`, `endAt=key`.
///
/// Keys are push keys (``PushKey``), which sort by creation time, so the
/// last entries by key are the newest. As over Firebase REST, where a
/// result is a JSON object, the entries of an answer come in no particular
/// order: this fake returns them newest first, the reverse of key order, so
/// a client that forgets to sort is caught.
final class FirebaseTimelineBackend<Value: Sendable>: Sendable {
    /// One query received.
    struct Query: Sendable, Equatable {
        var limitToLast: Int
        var endAt: String?
    }

    private struct State {
        var entries: [String: Value] = [:]
        var queries: [Query] = []
    }

    private let state = Lock(State())

    init() {}

    /// Adds (or replaces) an entry.
    func set(_ key: String, _ value: Value) {
        state.withLock { $0.entries[key] = value }
    }

    /// Deletes an entry.
    func remove(_ key: String) {
        state.withLock { $0.entries[key] = nil }
    }

    /// Every query received, in order.
    var queries: [Query] { state.withLock { $0.queries } }

    /// Answers `orderBy="$key"&limitToLast=limitToLast&endAt=endAt`: the last
    /// `limitToLast` entries whose key is at most `endAt` (inclusive).
    func query(limitToLast: Int, endAt: String?) -> [(key: String, value: Value)] {
        let entries = state.withLock { state in
            state.queries.append(Query(limitToLast: limitToLast, endAt: endAt))
            return state.entries
        }
        let ascending = entries.sorted { $0.key < $1.key }.filter { entry in
            endAt.map { entry.key <= $0 } ?? true
        }
        let selected = ascending.suffix(max(0, limitToLast))
        return selected.reversed().map { ($0.key, $0.value) }
    }
}

/// Firebase push keys: 8 characters of creation time in milliseconds, then
/// 12 characters that order keys made in the same millisecond, all from an
/// alphabet in ASCII order, so that keys sort as they were created.
enum PushKey {
    private static let alphabet = Array("-0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz")

    /// The push key of an entry made at `milliseconds` since 1970, the
    /// `sequence`-th of that millisecond.
    static func make(milliseconds: Int, sequence: Int = 0) -> String {
        String(encode(milliseconds, width: 8)) + String(encode(sequence, width: 12))
    }

    private static func encode(_ value: Int, width: Int) -> [Character] {
        var value = value
        var characters = [Character](repeating: alphabet[0], count: width)
        for position in stride(from: width - 1, through: 0, by: -1) {
            characters[position] = alphabet[value % 64]
            value /= 64
        }
        return characters
    }
}
