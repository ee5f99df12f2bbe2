package import GraphQL

/// What a read, a write, a watch or a retain works on: selection sets rooted
/// at a record, with the variables to resolve arguments and conditions.
///
/// Operations and fragments make one (``StoreOperation/query``,
/// ``StoreFragment/query(at:)``); the pagers make one for any selection set
/// of a parsed document with ``init(selectionSet:fragments:at:variables:)``
/// to read or write a node's selection at its record.
package struct StoreQuery: Sendable {
    /// The record the selection starts at.
    package var rootKey: CacheKey
    /// The selection sets, merged as one.
    package var sets: [CompiledSelectionSet]
    /// The variables, defaults included.
    package var variables: [String: JSONValue]

    package init(rootKey: CacheKey, sets: [CompiledSelectionSet], variables: [String: JSONValue]) {
        self.rootKey = rootKey
        self.sets = sets
        self.variables = variables
    }

    /// A query for a selection set of a parsed document, rooted at any
    /// record. Compile it once and keep it: this does not use the document
    /// cache.
    /// - Parameters:
    ///   - selectionSet: the selection set, such as a connection node's.
    ///   - fragments: the document's fragments, by name, for its spreads.
    ///   - key: the record to start at.
    ///   - variables: the variables, defaults included.
    /// - Throws: ``GraphQLStoreError/Code/document`` for a spread of an
    ///   undefined fragment or a cycle.
    package init(
        selectionSet: SelectionSet, fragments: [String: FragmentDefinition], at key: CacheKey,
        variables: [String: JSONValue]
    ) throws(GraphQLStoreError) {
        var compiler = StoreDocumentCompiler(fragments: fragments)
        self.init(rootKey: key, sets: [try compiler.compile(selectionSet)], variables: variables)
    }

    /// The same selection at another record.
    package func at(_ key: CacheKey) -> StoreQuery {
        StoreQuery(rootKey: key, sets: sets, variables: variables)
    }

    /// The storage key of a field of a parsed document: its name and its
    /// arguments with the variables resolved, such as `launches(first:2)`.
    package static func storageKey(of field: Field, variables: [String: JSONValue]) -> String {
        CompiledField(field, childSet: nil).storageKey(variables)
    }
}
