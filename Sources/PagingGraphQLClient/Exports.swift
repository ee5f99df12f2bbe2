// `import PagingGraphQL` brings every layer below it: the core (JSON,
// operations, documents), the normalized store, and the engine whose pagers
// and `PageInfo` its API speaks.
@_exported public import Paging
@_exported public import PagingGraphQLCore
@_exported public import PagingGraphQLStore
