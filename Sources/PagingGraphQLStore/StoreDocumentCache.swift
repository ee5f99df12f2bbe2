import GraphQL

/// What a store derives from documents' texts, kept so that a document is
/// parsed and compiled once however many operations use it: compiled
/// documents, texts rewritten for sending, and texts with the client's
/// directives removed.
///
/// Each ``GraphQLStore`` owns one (so a client with a store owns one through
/// it); each part holds at most ``GraphQLStore/Configuration/documentCacheLimit``
/// texts and evicts the least recently used, so a document in use stays
/// while one used once and never again goes.
package final class StoreDocumentCache: Sendable {
    private let compiled: LRUCache<String, CompiledDocument>
    package let rewrites: LRUCache<String, String>
    private let sendingTexts: LRUCache<String, String>

    /// Creates empty caches.
    /// - Parameter limit: the most texts each part keeps.
    package init(limit: Int) {
        compiled = LRUCache(capacity: limit)
        rewrites = LRUCache(capacity: limit)
        sendingTexts = LRUCache(capacity: limit)
    }

    /// The compiled document of a text.
    /// - Throws: ``GraphQLStoreError/Code/document`` when the text does not
    ///   parse or its fragments are broken.
    /// - Complexity: O(1) on average once the text was compiled and not
    ///   evicted; O(*n*) for a text of *n* characters otherwise.
    func document(_ text: String) throws(GraphQLStoreError) -> CompiledDocument {
        try compiled.value(for: text) { () throws(GraphQLStoreError) in try Self.compile(text) }
    }

    /// Parses and compiles a text, keeping nothing.
    /// - Throws: ``GraphQLStoreError/Code/document`` when the text does not
    ///   parse or its fragments are broken.
    /// - Complexity: O(*n*) for a text of *n* characters.
    static func compile(_ text: String) throws(GraphQLStoreError) -> CompiledDocument {
        let parsed: Document
        do {
            parsed = try DocumentAnalysis.parse(text)
        } catch {
            throw GraphQLStoreError(document: error)
        }
        return try CompiledDocument(parsed)
    }

    /// The text of a document as a server may receive it: without the
    /// directives only the client understands (see
    /// ``StoreClientDirectiveRemover``), printed by GraphQLSwift; the text
    /// itself when it carries none.
    /// - Throws: ``GraphQLStoreError/Code/document`` when the text carries
    ///   one of the directives' names and does not parse.
    /// - Complexity: O(1) on average once the text was seen; O(*n*) for a
    ///   text of *n* characters the first time.
    package func sendingText(_ text: String) throws(GraphQLStoreError) -> String {
        guard StoreClientDirectiveRemover.mayCarryDirectives(text) else { return text }
        return try sendingTexts.value(for: text) { () throws(GraphQLStoreError) in
            let parsed: Document
            do throws(GraphQLDocumentError) {
                parsed = try DocumentAnalysis.parse(text)
            } catch {
                throw GraphQLStoreError(document: error)
            }
            return GraphQL.print(ast: StoreClientDirectiveRemover.removingDirectives(from: parsed))
        }
    }
}
