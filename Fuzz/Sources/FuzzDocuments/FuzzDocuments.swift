import Foundation
import GraphQL
import PagingExport
import PagingGraphQLClient

/// One input: the text of a GraphQL document, as a user would pass it. Analysis either throws
/// a `GraphQLDocumentError` or succeeds; what it writes (the document with its client-only
/// directives taken out and `pageInfo` added, or a pagination fragment's refetch query) parses
/// as GraphQL, so a server is never sent a document the library broke. The same for a document
/// with its connection unmarked, and for an export's query (connections inside connections
/// too: each level's `node(id:)` query is made when the query is analysed).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDocuments(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let source = String(decoding: UnsafeBufferPointer(start: start, count: count), as: UTF8.self)
    if let document = try? ConnectionDocument(source) {
        mustParse(document.text, "the connection document")
    }
    if let document = try? ConnectionDocument(inferringConnectionIn: source) {
        mustParse(document.text, "the document with its connection inferred")
    }
    if let query = try? GraphQLExportQuery(source) {
        mustParse(query.text, "the export's query")
    }
    if let fragment = try? PaginationFragmentDocument(source) {
        mustParse(fragment.text, "the refetch query of the pagination fragment")
    }
    return 0
}

/// Stops the run when `text` is not GraphQL.
private func mustParse(_ text: String, _ what: String) {
    do {
        _ = try GraphQL.parse(source: Source(body: text))
    } catch {
        fatalError("\(what) written from the input does not parse: \(error)\n\(text)")
    }
}
