/// The deletions a store keeps while a request sent before them is in
/// flight: a deletion the client knows of outranks a response to a request
/// sent before it, so the response's write does not bring the record back.
///
/// Sends and deletions take numbers from one counter, in the order they
/// happen. A deletion is kept only while a request is in flight, and
/// forgotten once every request in flight was sent after it, or a write
/// that may bring the record back (a response sent after it, or a write of
/// the app's own) does.
///
/// Invariants: each kept deletion's number is greater than the number of
/// the oldest request in flight; none is kept when no request is.
struct StoreDeletions: Sendable {
    /// The last number given to a send or a deletion.
    private var order = 0
    /// The requests in flight, by id, with the number each was sent at.
    private var open: [Int: Int] = [:]
    /// The records deleted while a request was in flight, with the number
    /// of the deletion.
    private var deleted: [CacheKey: Int] = [:]

    /// The number of deletions kept.
    var count: Int { deleted.count }

    /// Notes a request sent now; returns its number.
    /// - Complexity: O(1) expected.
    mutating func sent(id: Int) -> Int {
        order += 1
        open[id] = order
        return order
    }

    /// Notes a request ended (answered, failed or cancelled): the deletions
    /// no request in flight was sent before are forgotten.
    /// - Complexity: O(*o* + *d*) for *o* requests in flight and *d*
    ///   deletions kept.
    mutating func ended(id: Int) {
        open[id] = nil
        guard let oldest = open.values.min() else {
            deleted = [:]
            return
        }
        deleted = deleted.filter { $0.value > oldest }
    }

    /// Notes a record deleted now.
    /// - Complexity: O(1) expected.
    mutating func noteDeleted(_ key: CacheKey) {
        guard !open.isEmpty else { return }
        order += 1
        deleted[key] = order
    }

    /// Whether a write of a response to the request sent at `sent` (`nil`:
    /// a write of the app's own, the newest word) must leave a record
    /// deleted: it was deleted after that request was sent. Otherwise the
    /// record may come back, and its deletion is forgotten.
    /// - Complexity: O(1) expected.
    mutating func outranks(_ key: CacheKey, sentAt sent: Int?) -> Bool {
        guard let at = deleted[key] else { return false }
        if let sent, at > sent { return true }
        deleted[key] = nil
        return false
    }
}
