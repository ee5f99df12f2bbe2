/// An operation as the store sees it: a document, the operation to use and
/// the values of its variables.
///
/// The document is parsed and compiled once per text, when the first
/// operation with it is made; making more is cheap.
///
/// ```swift
/// let operation = try StoreOperation(
///     document: "query Launches($first: Int) { launches(first: $first) { edges { node { id name } } } }",
///     variables: ["first": 2]
/// )
/// try store.write(data: response.data, for: operation)
/// let cached = store.read(operation).data
/// ```
public struct StoreOperation: Sendable {
    /// The GraphQL document: the operation and the fragments it uses.
    public let document: String
    /// The name of the operation, or `nil` for the only one.
    public let operationName: String?
    /// The values of the variables, as given.
    public let variables: [String: JSONValue]
    let compiled: CompiledDocument.Operation
    /// The variables with the defaults of the ones not given.
    let effectiveVariables: [String: JSONValue]

    /// Creates an operation.
    /// - Parameters:
    ///   - document: the GraphQL document.
    ///   - operationName: the operation to use; `nil` for the only one.
    ///   - variables: the values of the variables; a variable not given
    ///     takes its default from the document.
    /// - Throws: ``GraphQLStoreError/Code/document`` when the document does
    ///   not parse, lacks the operation, or spreads a fragment it does not
    ///   define.
    /// - Complexity: O(*n*) for a document of *n* characters: the document
    ///   is compiled here, so keep an operation that is used again rather
    ///   than making it anew. (A client with a store compiles each document
    ///   text once, in the store's cache.)
    public init(
        document: String, operationName: String? = nil, variables: [String: JSONValue] = [:]
    ) throws(GraphQLStoreError) {
        try self.init(document: document, operationName: operationName, variables: variables, cache: nil)
    }

    /// Creates an operation, its document compiled through a store's cache
    /// when one is given.
    /// - Complexity: O(1) on average for a text in the cache; O(*n*) for a
    ///   document of *n* characters otherwise.
    package init(
        document: String, operationName: String?, variables: [String: JSONValue], cache: StoreDocumentCache?
    ) throws(GraphQLStoreError) {
        let whole =
            if let cache { try cache.document(document) } else { try StoreDocumentCache.compile(document) }
        let compiled = try whole.operation(named: operationName)
        self.document = document
        self.operationName = operationName
        self.variables = variables
        self.compiled = compiled
        self.effectiveVariables = compiled.defaults.merging(variables) { _, given in given }
    }

    /// Creates the store's view of a typed or untyped operation.
    /// - Parameter operation: the operation, as sent with `GraphQLClient`.
    /// - Throws: ``GraphQLStoreError/Code/variables`` when the variables do
    ///   not encode as a JSON object; ``GraphQLStoreError/Code/document`` as
    ///   ``init(document:operationName:variables:)``.
    /// - Complexity: O(*n*) for a document of *n* characters, as
    ///   ``init(document:operationName:variables:)``.
    public init(_ operation: some GraphQLOperation) throws(GraphQLStoreError) {
        try self.init(operation, cache: nil)
    }

    /// Creates the store's view of an operation, its document compiled
    /// through a store's cache when one is given.
    package init(_ operation: some GraphQLOperation, cache: StoreDocumentCache?) throws(GraphQLStoreError) {
        let members = try Self.variables(of: operation)
        try self.init(
            document: operation.document, operationName: operation.operationName, variables: members,
            cache: cache)
    }

    /// The record the operation's data starts at: ``CacheKey/queryRoot``,
    /// ``CacheKey/mutationRoot`` or ``CacheKey/subscriptionRoot``.
    public var rootKey: CacheKey { compiled.rootKey }

    /// The selection at the root record.
    var query: StoreQuery {
        StoreQuery(rootKey: compiled.rootKey, sets: compiled.rootSets, variables: effectiveVariables)
    }
}

extension StoreOperation: Hashable {
    /// Whether two operations have the same document, operation name and
    /// variables.
    public static func == (lhs: StoreOperation, rhs: StoreOperation) -> Bool {
        lhs.document == rhs.document && lhs.operationName == rhs.operationName
            && lhs.variables == rhs.variables
    }

    /// Hashes the document, the operation name and the variables.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(document)
        hasher.combine(operationName)
        hasher.combine(variables)
    }
}

extension StoreOperation {
    /// An operation's variables as JSON members.
    /// - Throws: ``GraphQLStoreError`` with code ``GraphQLStoreError/Code/variables``
    ///   when they do not encode as a JSON object.
    package static func variables(of operation: some GraphQLOperation) throws(GraphQLStoreError) -> [String:
        JSONValue]
    {
        let variables: JSONValue
        do {
            variables = try JSONValue(encoding: operation.variables)
        } catch {
            throw GraphQLStoreError(.variables, "The operation's variables do not encode as JSON: \(error).")
        }
        switch variables {
        case .object(let object): return object
        case .null: return [:]
        default:
            throw GraphQLStoreError(
                .variables, "The operation's variables encode as \(variables), not as a JSON object.")
        }
    }
}
