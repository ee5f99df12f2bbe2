extension StoreCollector {
    /// The store's own collection: past a threshold of records held, a
    /// commit starts a collection of what nothing live reaches, which the
    /// following commits finish a few shards of the record table at a time.
    struct AutomaticCollection {
        /// The configured limit.
        let limit: Int
        /// The record count past which a commit starts a collection:
        /// ``limit`` at first; after a collection that kept no more than
        /// the limit, the limit and a tenth, so that the store holds at
        /// most a tenth more than its limit while what is live fits in it
        /// (and a collection comes after at least a tenth of the limit is
        /// written: O(10) amortized per record written); after one that
        /// kept more, twice what it kept, so that a store whose live
        /// records exceed the limit collects after as many records again
        /// are written, not at every commit (O(1) amortized).
        var threshold: Int
        /// The count of objects held in root fields
        /// (``StoreRecords/rootHeldObjects``) past which a commit removes the
        /// root fields nothing live reads, without marking records (a
        /// quick collection): ``limit`` at first, then what the last
        /// collection kept and as many again, or the limit if more. Pages
        /// of a connection whose edges have no identity are written as
        /// root fields and write no records, so without it a list of them
        /// would grow unbounded.
        var rootThreshold: Int
        /// The collections finished so far, quick ones included.
        var runs = 0
        /// The shards of the record table each commit sweeps; all of them
        /// for a collection in one commit.
        var shardsPerCommit = 8

        init(limit: Int) {
            self.limit = limit
            self.threshold = limit
            self.rootThreshold = limit
        }

        /// The threshold after a collection that kept `kept` records.
        func threshold(afterKeeping kept: Int) -> Int {
            kept <= limit ? limit + max(1, limit / 10) : 2 * kept
        }

        /// The root threshold after a collection that kept `kept` objects
        /// in root fields: the next comes after at least the limit (or as
        /// many as were kept) are written, so a quick collection, which
        /// reads the live selections, costs O(1) amortized per object.
        func rootThreshold(afterKeeping kept: Int) -> Int {
            kept + max(limit, kept)
        }
    }

    /// A collection under way: what was live has been marked, and the
    /// commits sweep the record table, ``AutomaticCollection/shardsPerCommit``
    /// shards each. Meanwhile what becomes reachable is marked as it does
    /// (what a write wrote or references, a new retain or watch), so the
    /// sweep never takes it.
    struct CollectionCycle {
        /// The fields of root records that something live read at the mark,
        /// or that a write wrote since.
        var keptRootFields: [CacheKey: Set<String>]
        /// The next shard to sweep.
        var nextShard = 0
    }
}
