// The store speaks the core's values (`JSONValue`, documents and their
// errors) in its API, so importing the store brings the core with it.
@_exported public import PagingGraphQLCore
