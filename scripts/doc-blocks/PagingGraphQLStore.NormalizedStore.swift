// The context of PagingGraphQLStore.docc/NormalizedStore.md's samples (scripts/check-doc-blocks.py).
import PagingGraphQLCore

/// The server's answer to the document, as the article's first sample writes it.
struct Response { let data: JSONValue }
let response: Response = placeholder()
func show(_ data: JSONValue) {}
func render(_ data: JSONValue) {}
