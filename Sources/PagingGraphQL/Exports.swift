// `import PagingGraphQL` brings the client, its pagers and every layer below them
// (`PagingGraphQLClient`), and adds the transport over URLSession.
@_exported public import PagingGraphQLClient
