import GraphQL
import Synchronization

/// Compiled documents by their text, shared by every store: a document is
/// parsed and compiled once, however many operations and stores use it.
///
/// The cache holds at most ``limit`` documents; when full, it starts over,
/// which costs only a new parse of the documents still in use.
package enum StoreDocumentCache {
    static let limit = 512
    private static let documents = Mutex<[String: CompiledDocument]>([:])
    private static let sendingTexts = Mutex<[String: String]>([:])

    /// The compiled document of a text.
    /// - Throws: ``GraphQLStoreError/Code/document`` when the text does not
    ///   parse or its fragments are broken.
    /// - Complexity: O(1) on average once the text was compiled.
    static func document(_ text: String) throws(GraphQLStoreError) -> CompiledDocument {
        if let cached = documents.withLock({ $0[text] }) { return cached }
        let parsed: Document
        do {
            parsed = try DocumentAnalysis.parse(text)
        } catch {
            throw GraphQLStoreError(document: error)
        }
        let compiled = try CompiledDocument(parsed)
        documents.withLock { documents in
            if documents.count >= limit { documents.removeAll(keepingCapacity: true) }
            documents[text] = compiled
        }
        return compiled
    }

    /// The text of a document as a server may receive it: without the
    /// directives only the client understands (see
    /// ``StoreClientDirectiveRemover``), printed by GraphQLSwift; the text
    /// itself when it carries none.
    /// - Throws: ``GraphQLStoreError/Code/document`` when the text carries
    ///   one of the directives' names and does not parse.
    /// - Complexity: O(1) on average once the text was seen; O(*n*) for a
    ///   text of *n* characters the first time.
    package static func sendingText(_ text: String) throws(GraphQLStoreError) -> String {
        guard StoreClientDirectiveRemover.mayCarryDirectives(text) else { return text }
        if let cached = sendingTexts.withLock({ $0[text] }) { return cached }
        let parsed: Document
        do {
            parsed = try DocumentAnalysis.parse(text)
        } catch {
            throw GraphQLStoreError(document: error)
        }
        let sending = GraphQL.print(ast: StoreClientDirectiveRemover.removingDirectives(from: parsed))
        sendingTexts.withLock { texts in
            if texts.count >= limit { texts.removeAll(keepingCapacity: true) }
            texts[text] = sending
        }
        return sending
    }
}
