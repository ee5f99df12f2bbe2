/// Which page holds each item id: the pager's index for de-duplication,
/// `index(of:)` and the local edits.
///
/// An open-addressing hash table with linear probing over 8-byte slots, each a
/// 32-bit hash of an id beside the 32 low bits of the page's sequence number.
/// It keeps no ids: a hash match is a candidate that the caller confirms by
/// looking in the page. Small slots in one array make an insert touch one
/// cache line where a `Dictionary` touches three (metadata, key, value), which
/// is what keeps a page's cost flat with a million ids held.
///
/// Sequences are recovered from their low 32 bits relative to the first held
/// page, so the held pages may span up to 2³² sequence numbers — any number of
/// pages that fits in memory.
struct IdentityIndex: Sendable {
    /// The slots; 0 is empty.
    private var slots: [UInt64] = []
    /// The occupied slots.
    private(set) var count = 0
    /// What ``warm(_:)`` read, kept so that its reads are not optimized away.
    private var warmed: UInt64 = 0

    /// A candidate for an id: the sequence of a page that may hold it.
    typealias Confirm = (_ sequence: Int) -> Bool

    /// The 32-bit hash of an id, never 0 (so that a slot is never 0).
    static func hash<ID: Hashable>(_ id: ID) -> UInt32 {
        let value = id.hashValue
        let folded = UInt32(truncatingIfNeeded: value) ^ UInt32(truncatingIfNeeded: value >> 32)
        return folded == 0 ? 1 : folded
    }

    private static func slot(hash: UInt32, sequence: Int) -> UInt64 {
        UInt64(hash) << 32 | UInt64(UInt32(truncatingIfNeeded: sequence))
    }

    private static func sequence(of slot: UInt64, base: Int) -> Int {
        base + Int(UInt32(truncatingIfNeeded: slot) &- UInt32(truncatingIfNeeded: base))
    }

    /// The sequence of the page holding the id, if any.
    /// - Parameters:
    ///   - hash: the id's ``hash(_:)``.
    ///   - base: the first held page's sequence.
    ///   - confirm: whether the page of a sequence holds the id.
    /// - Complexity: O(1) expected probes; `confirm` runs only on a hash match.
    func sequence(hash: UInt32, base: Int, confirm: Confirm) -> Int? {
        guard !slots.isEmpty else { return nil }
        let mask = slots.count - 1
        var position = Int(hash) & mask
        while true {
            let slot = slots[position]
            if slot == 0 { return nil }
            if UInt32(truncatingIfNeeded: slot >> 32) == hash {
                let candidate = Self.sequence(of: slot, base: base)
                if confirm(candidate) { return candidate }
            }
            position = (position + 1) & mask
        }
    }

    /// Records that the page `sequence` holds an id, unless a page already
    /// does.
    /// - Returns: whether it was recorded (false: the id is held).
    /// - Complexity: O(1) expected, amortized.
    mutating func insert(hash: UInt32, sequence: Int, base: Int, confirm: Confirm) -> Bool {
        if (count + 1) * 10 > slots.count * 7 { grow() }
        let mask = slots.count - 1
        var position = Int(hash) & mask
        while true {
            let slot = slots[position]
            if slot == 0 { break }
            if UInt32(truncatingIfNeeded: slot >> 32) == hash, confirm(Self.sequence(of: slot, base: base)) {
                return false
            }
            position = (position + 1) & mask
        }
        slots[position] = Self.slot(hash: hash, sequence: sequence)
        count += 1
        return true
    }

    /// Forgets that the page `sequence` holds an id with this hash. Two ids
    /// of one page with one hash have equal slots, so removing either is
    /// right.
    /// - Complexity: O(1) expected.
    mutating func remove(hash: UInt32, sequence: Int) {
        guard !slots.isEmpty else { return }
        let mask = slots.count - 1
        let wanted = Self.slot(hash: hash, sequence: sequence)
        var position = Int(hash) & mask
        while slots[position] != wanted {
            if slots[position] == 0 { return }
            position = (position + 1) & mask
        }
        slots.withUnsafeMutableBufferPointer { Self.empty(position, of: $0, mask: mask) }
        count -= 1
    }

    /// Makes room for `additional` more ids, so that a batch of inserts does
    /// not move the table between ``warm(_:)`` and the inserts.
    /// - Complexity: O(*n*) when it grows, amortized O(1) per id.
    mutating func reserve(_ additional: Int) {
        while (count + additional) * 10 > slots.count * 7 { grow() }
    }

    /// Reads the home slot of each hash in a batch before the batch is
    /// inserted or removed. The reads do not depend on one another, so the
    /// processor overlaps their cache misses; the slots are then in cache for
    /// the probes, which would otherwise miss one after the other. With a
    /// million ids held this is most of the cost of admitting a page.
    /// - Complexity: O(*k*) for *k* hashes.
    mutating func warm(_ hashes: [UInt32]) {
        guard !slots.isEmpty else { return }
        let mask = slots.count - 1
        var touched: UInt64 = 0
        slots.withUnsafeBufferPointer { buffer in
            for hash in hashes { touched ^= buffer[Int(hash) & mask] }
        }
        warmed = touched
    }

    /// Forgets the ids of the pages of some sequences at once: one pass over
    /// the table in order, cheaper than as many removals as soon as those ids
    /// are a good part of it (a quarter, say).
    /// - Parameters:
    ///   - sequences: the pages whose ids go.
    ///   - base: the first held page's sequence.
    /// - Complexity: O(*s*) expected for *s* slots.
    mutating func remove(sequences: Range<Int>, base: Int) {
        guard !slots.isEmpty, !sequences.isEmpty else { return }
        let mask = slots.count - 1
        var removed = 0
        slots.withUnsafeMutableBufferPointer { buffer in
            var position = 0
            while position < buffer.count {
                let slot = buffer[position]
                if slot != 0, sequences.contains(Self.sequence(of: slot, base: base)) {
                    // A slot moved up into the hole is looked at next. Slots move up from later
                    // in the run, or, past the end of the table, from its start, which was looked
                    // at already: every slot is looked at before the pass ends.
                    Self.empty(position, of: buffer, mask: mask)
                    removed += 1
                } else {
                    position += 1
                }
            }
        }
        count -= removed
    }

    /// Empties a slot by backward-shift deletion: moves up each later slot
    /// of its run that may sit in the hole, so that no probe stops early.
    /// - Complexity: O(1) expected: the length of the run after it.
    private static func empty(_ position: Int, of slots: UnsafeMutableBufferPointer<UInt64>, mask: Int) {
        var hole = position
        var next = (hole + 1) & mask
        while slots[next] != 0 {
            let home = Int(UInt32(truncatingIfNeeded: slots[next] >> 32)) & mask
            // The slot may move to the hole when its home is not in (hole, next].
            let distanceToNext = (next - home) & mask
            let distanceToHole = (hole - home) & mask
            if distanceToHole < distanceToNext {
                slots[hole] = slots[next]
                hole = next
            }
            next = (next + 1) & mask
        }
        slots[hole] = 0
    }

    /// Forgets everything.
    mutating func removeAll() {
        slots = []
        count = 0
    }

    private mutating func grow() {
        let old = slots
        slots = Array(repeating: 0, count: max(16, old.count * 2))
        let mask = slots.count - 1
        for slot in old where slot != 0 {
            var position = Int(UInt32(truncatingIfNeeded: slot >> 32)) & mask
            while slots[position] != 0 { position = (position + 1) & mask }
            slots[position] = slot
        }
    }
}
