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
    /// - Complexity: O(1) on average once a document with the same text was
    ///   compiled.
    public init(
        document: String, fragmentName: String? = nil, variables: [String: JSONValue] = [:]
    ) throws(GraphQLStoreError) {
        let fragment = try StoreDocumentCache.document(document).fragment(named: fragmentName)
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
