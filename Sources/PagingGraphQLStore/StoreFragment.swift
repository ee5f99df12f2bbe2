/// A fragment as the store sees it: a document, the fragment to use and the
/// values of the variables it uses; read and written at any record.
///
/// ```swift
/// let fragment = try StoreFragment(
///     document: "fragment LaunchRow on Launch { id site rocket { name } }"
/// )
/// let row = store.read(fragment, at: "Launch:109").data
/// ```
public struct StoreFragment: Sendable {
    /// The GraphQL document: the fragment and the fragments it spreads.
    public let document: String
    /// The name of the fragment.
    public let fragmentName: String
    /// The type the fragment applies to, such as `Launch`.
    public let typeCondition: String
    /// The values of the variables the fragment uses.
    public let variables: [String: JSONValue]
    let sets: [CompiledSelectionSet]

    /// Creates a fragment.
    /// - Parameters:
    ///   - document: the GraphQL document.
    ///   - fragmentName: the fragment to use; `nil` for the first one the
    ///     document defines.
    ///   - variables: the values of the variables the fragment uses.
    /// - Throws: ``GraphQLStoreError/Code/document`` when the document does
    ///   not parse, lacks the fragment, or spreads a fragment it does not
    ///   define.
    /// - Complexity: O(*n*) for a document of *n* characters: the document
    ///   is compiled here, so keep a fragment that is used again rather than
    ///   making it anew. (The store's `readFragment` and `writeFragment`
    ///   compile each text once, in the store's cache.)
    public init(
        document: String, fragmentName: String? = nil, variables: [String: JSONValue] = [:]
    ) throws(GraphQLStoreError) {
        try self.init(document: document, fragmentName: fragmentName, variables: variables, cache: nil)
    }

    /// Creates a fragment, its document compiled through a store's cache
    /// when one is given.
    package init(
        document: String, fragmentName: String?, variables: [String: JSONValue], cache: StoreDocumentCache?
    ) throws(GraphQLStoreError) {
        let compiled =
            if let cache { try cache.document(document) } else { try StoreDocumentCache.compile(document) }
        let fragment = try compiled.fragment(named: fragmentName)
        self.document = document
        self.fragmentName = fragment.name
        self.typeCondition = fragment.typeCondition
        self.variables = variables
        self.sets = fragment.sets
    }

    /// The fragment's selection at a record.
    func query(at key: CacheKey) -> StoreQuery {
        StoreQuery(rootKey: key, sets: sets, variables: variables)
    }
}
