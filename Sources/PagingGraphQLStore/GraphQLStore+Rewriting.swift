import GraphQL

extension GraphQLStore {
    /// The document to send to the server so that its response normalizes
    /// well: `__typename` added to every object selection (not the
    /// operation's root, not inside `__schema` or `__type`, not where it is
    /// selected already), and, when the configuration has a
    /// ``Configuration/schema``, `id` added to the selections of types with
    /// an `id` field that do not select it.
    ///
    /// ```swift
    /// let text = try store.documentForSending("{ launches { edges { node { site } } } }")
    /// // {
    /// //   launches {
    /// //     edges {
    /// //       node {
    /// //         site
    /// //         id
    /// //         __typename
    /// // ...
    /// ```
    /// Rewrites are cached by document text, least recently used evicted
    /// past ``Configuration/documentCacheLimit``.
    /// - Parameter document: the GraphQL document as written.
    /// - Returns: the rewritten document, printed by GraphQLSwift.
    /// - Throws: ``GraphQLStoreError/Code/document`` when the document does
    ///   not parse.
    /// - Complexity: O(1) on average for a document rewritten before; O(*n*)
    ///   for a document of *n* characters the first time.
    public func documentForSending(_ document: String) throws(GraphQLStoreError) -> String {
        try documents.rewrites.value(for: document) { () throws(GraphQLStoreError) in
            let parsed: Document
            do throws(GraphQLDocumentError) {
                parsed = try DocumentAnalysis.parse(document)
            } catch {
                throw GraphQLStoreError(document: error)
            }
            var rewriter = StoreDocumentRewriter(
                schema: configuration.schema, addsTypename: configuration.addsTypename,
                addsID: configuration.addsID)
            return GraphQL.print(ast: rewriter.rewrite(parsed))
        }
    }
}
