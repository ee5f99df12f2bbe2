/// A record as the store keeps it: its fields, and the fields of other
/// records that reference it (so that a delete finds the lists holding it
/// without a scan).
///
/// A class, so that the store's table holds one pointer per record: the
/// table stays small in memory, and growing it moves little. Only the
/// store's state, under its lock, holds these.
final class StoredRecord {
    /// A field that holds references, boxed: the records of one page are
    /// all held by the same field, and share one box.
    final class Holder {
        let key: StoreFieldKey

        init(_ key: StoreFieldKey) {
            self.key = key
        }
    }

    /// The fields of other records whose value references a record. Most
    /// records have one referrer (the list or field that brought them), so
    /// that case is one pointer, to a box the page's records share, without
    /// a set.
    enum Referrers {
        case none
        case one(Holder)
        case many(Set<StoreFieldKey>)

        mutating func insert(_ holder: StoreFieldKey) {
            insert(Holder(holder))
        }

        mutating func insert(_ holder: Holder) {
            switch self {
            case .none:
                self = .one(holder)
            case .one(let existing):
                if existing.key != holder.key { self = .many([existing.key, holder.key]) }
            case .many(var holders):
                self = .none  // keeps the set uniquely referenced, so it grows in place
                holders.insert(holder.key)
                self = .many(holders)
            }
        }

        mutating func remove(_ holder: StoreFieldKey) {
            switch self {
            case .none:
                break
            case .one(let existing):
                if existing.key == holder { self = .none }
            case .many(var holders):
                self = .none
                holders.remove(holder)
                self = holders.isEmpty ? .none : .many(holders)
            }
        }

        var all: [StoreFieldKey] {
            switch self {
            case .none: []
            case .one(let holder): [holder.key]
            case .many(let holders): Array(holders)
            }
        }

        var isEmpty: Bool {
            if case .none = self { true } else { false }
        }
    }

    var fields: StoreFields
    var referrers: Referrers
    /// The epoch of the last collection that found the record live (or saw
    /// it made): a byte in the object's padding, where a set of kept keys
    /// would hash every live record, and which a new collection need not
    /// clear (it counts the next epoch).
    var mark: UInt8 = 0

    init(fields: StoreFields = StoreFields(), referrers: Referrers = .none) {
        self.fields = fields
        self.referrers = referrers
    }
}
