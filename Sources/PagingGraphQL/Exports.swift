// `import PagingGraphQL` brings every layer below it: the core (JSON,
// operations, documents) and the normalized store.
@_exported public import PagingGraphQLCore
@_exported public import PagingGraphQLStore
