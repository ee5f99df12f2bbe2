/// What ``GraphQLStore/gc()`` removed.
public struct StoreGCResult: Hashable, Sendable {
    /// The records removed.
    public var removedRecords: Set<CacheKey>
    /// The fields removed from the root records (``CacheKey/queryRoot`` and
    /// the others), which stay as long as they hold a field.
    public var removedRootFields: Set<StoreFieldKey>

    /// Creates a result.
    /// - Parameters:
    ///   - removedRecords: the records removed.
    ///   - removedRootFields: the fields removed from root records.
    public init(removedRecords: Set<CacheKey> = [], removedRootFields: Set<StoreFieldKey> = []) {
        self.removedRecords = removedRecords
        self.removedRootFields = removedRootFields
    }

    /// Whether nothing was removed.
    public var isEmpty: Bool { removedRecords.isEmpty && removedRootFields.isEmpty }
}
