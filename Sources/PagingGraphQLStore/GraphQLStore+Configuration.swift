extension GraphQLStore {
    /// How a ``GraphQLStore`` identifies objects and rewrites documents.
    ///
    /// An object gets its record key, in this order:
    ///
    /// 1. from ``keyFields`` when its `__typename` (or an abstract type that
    ///    contains it, per ``possibleTypes``) is listed: `Rocket:Falcon 9`
    ///    for `["Rocket": ["name"]]`; several fields' values are joined by `/`;
    /// 2. else from ``cacheKey`` when it is set; `nil` means no identity;
    /// 3. else from its `id`: `Launch:109` when it has a `__typename`, `109`
    ///    when it has none.
    ///
    /// An object without an identity, or whose key fields are missing or
    /// `null`, is no record: it stays in the field that holds it, such as
    /// the `pageInfo` of `QUERY_ROOT`'s `launches(first:2)`
    /// (``StoreValue/object(_:)``), and a second write of it merges its
    /// fields over the first's, as a record's do.
    ///
    /// ```swift
    /// var configuration = GraphQLStore.Configuration()
    /// configuration.keyFields = ["Rocket": ["name"]]
    /// configuration.schema = try StoreSchema(sdl: schemaText)
    /// let store = GraphQLStore(configuration: configuration)
    /// ```
    public struct Configuration: Sendable {
        /// The fields whose values identify the objects of a type, by type
        /// name (an object type, or an interface or union per
        /// ``possibleTypes``).
        public var keyFields: [String: [String]]
        /// The key of an object that ``keyFields`` does not cover, from its
        /// `__typename` (`nil` when absent) and its members; return `nil` for
        /// no identity. The default (`nil`) keys objects by `id`.
        public var cacheKey: (@Sendable (_ typename: String?, _ object: [String: JSONValue]) -> String?)?
        /// The object types of each interface and union, by name, to decide
        /// fragments with a type condition; merged with the ``schema``'s.
        public var possibleTypes: [String: Set<String>]
        /// The server's schema, to add `id` where documents lack it and to
        /// know interfaces and unions.
        public var schema: StoreSchema?
        /// Whether ``GraphQLStore/documentForSending(_:)`` adds `__typename`
        /// to every object selection; `true` unless set.
        public var addsTypename: Bool
        /// Whether ``GraphQLStore/documentForSending(_:)`` adds `id` to the
        /// object selections of types with an `id` field (needs a
        /// ``schema``); `true` unless set.
        public var addsID: Bool
        /// The most document texts the store keeps compiled, and the most it
        /// keeps rewritten for sending; past it, the least recently used is
        /// compiled again when next used. 512 unless set.
        public var documentCacheLimit: Int
        /// The most records the store holds before it collects by itself
        /// what nothing live reaches, as ``GraphQLStore/gc()`` does: live
        /// are the watches, the retained operations and records (a list's
        /// rows among them) and the pages being loaded. A write that leaves
        /// more records than this starts a collection, which it and the
        /// writes after it carry out an eighth of the store each, sparing
        /// what they write. While what is live fits in the limit, the
        /// store holds at most a tenth more than the limit (the next
        /// collection comes once that is passed); when more records than
        /// the limit are live, the next collection waits until twice as
        /// many as it kept are held, so collecting costs O(1) amortized
        /// per record written either way. Objects without identity held in
        /// the fields of root records (a connection's edges) count toward a
        /// limit of the same size, past which a write removes the root
        /// fields nothing live reads. `nil` for no automatic
        /// collection: records then stay until ``GraphQLStore/gc()``.
        /// ``defaultRecordLimit`` unless set.
        public var recordLimit: Int?
        /// Which records belong in the lists of each connection, and in
        /// what order: a record the store writes lands in, moves in or
        /// leaves the held lists its rule places it in, with no refetch (see
        /// ``ConnectionMembershipRule``). Empty unless set: lists change only
        /// by their pages, edits, and mutations' connection directives.
        public var membershipRules: [ConnectionMembershipRule] = []

        /// The ``recordLimit`` of a configuration that does not set one.
        public static let defaultRecordLimit = 10_000

        /// Creates a configuration.
        /// - Parameters:
        ///   - keyFields: the fields that identify the objects of a type.
        ///   - possibleTypes: the object types of each interface and union.
        ///   - schema: the server's schema, if known.
        ///   - addsTypename: whether documents for sending get `__typename`.
        ///   - addsID: whether documents for sending get `id` (with a schema).
        ///   - cacheKey: the key of an object `keyFields` does not cover.
        ///   - documentCacheLimit: the most document texts kept compiled.
        ///   - recordLimit: the most records held before the store collects
        ///     by itself; `nil` for never.
        public init(
            keyFields: [String: [String]] = [:],
            possibleTypes: [String: Set<String>] = [:],
            schema: StoreSchema? = nil,
            addsTypename: Bool = true,
            addsID: Bool = true,
            cacheKey: (@Sendable (_ typename: String?, _ object: [String: JSONValue]) -> String?)? = nil,
            documentCacheLimit: Int = 512,
            recordLimit: Int? = defaultRecordLimit
        ) {
            self.documentCacheLimit = documentCacheLimit
            self.recordLimit = recordLimit
            self.keyFields = keyFields
            self.possibleTypes = possibleTypes
            self.schema = schema
            self.addsTypename = addsTypename
            self.addsID = addsID
            self.cacheKey = cacheKey
        }

        /// The possible types of the schema and of ``possibleTypes``, merged.
        var allPossibleTypes: [String: Set<String>] {
            var all = schema?.possibleTypes ?? [:]
            for (abstract, types) in possibleTypes { all[abstract, default: []].formUnion(types) }
            return all
        }
    }
}
