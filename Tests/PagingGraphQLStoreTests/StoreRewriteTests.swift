import GraphQL
import Testing

@testable import PagingGraphQLStore

@Suite("GraphQLStore, documents for sending")
struct StoreRewriteTests {
    static let sdl = """
        schema { query: Root }
        type Root { launches(first: Int): LaunchConnection! node(id: ID!): Node search: [SearchResult!]! me: User }
        interface Node { id: ID! }
        type LaunchConnection { edges: [LaunchEdge!]! pageInfo: PageInfo! }
        type LaunchEdge { cursor: String! node: Launch! }
        type PageInfo { endCursor: String hasNextPage: Boolean! }
        type Launch implements Node { id: ID! site: String rocket: Rocket }
        type Rocket { name: String! }
        type User implements Node { id: ID! name: String }
        union SearchResult = Launch | Rocket
        """

    /// A document printed by GraphQLSwift, to compare with a rewrite.
    static func printed(_ text: String) throws -> String {
        GraphQL.print(ast: try GraphQL.parse(source: text))
    }

    @Test("__typename is added to every object selection, not at the root, not twice, not in introspection")
    func addsTypename() throws {
        let store = GraphQLStore()
        let rewritten = try store.documentForSending(
            """
            query { launches { edges { node { __typename site rocket { name } } } } __schema { types { name } } }
            """)
        let expected = try Self.printed(
            """
            query {
              launches { edges { node { __typename site rocket { name __typename } } __typename } __typename }
              __schema { types { name } }
            }
            """)
        #expect(rewritten == expected)
    }

    @Test(
        "__typename goes into fragments' fields and inline fragments' enclosing fields, and an alias does not count"
    )
    func typenameWithFragments() throws {
        let store = GraphQLStore()
        let rewritten = try store.documentForSending(
            """
            query { me { kind: __typename ...UserFields ... on User { friends { name } } } }
            fragment UserFields on User { best { name } }
            """)
        let expected = try Self.printed(
            """
            query { me { kind: __typename ...UserFields ... on User { friends { name __typename } } __typename } }
            fragment UserFields on User { best { name __typename } }
            """)
        #expect(rewritten == expected)
    }

    @Test("with a schema, id is added to selections of types with an id that do not select it")
    func addsID() throws {
        let store = GraphQLStore(configuration: .init(schema: try StoreSchema(sdl: Self.sdl)))
        let rewritten = try store.documentForSending(
            """
            query {
              launches(first: 2) { edges { node { site rocket { name } } } pageInfo { endCursor } }
              node(id: "1") { ... on User { name } }
              search { ... on Launch { site } ... on Rocket { name } }
              me { id name }
              other: me { identifier: id }
            }
            fragment LaunchSite on Launch { site }
            """)
        let expected = try Self.printed(
            """
            query {
              launches(first: 2) {
                edges { node { site rocket { name __typename } id __typename } __typename }
                pageInfo { endCursor __typename }
                __typename
              }
              node(id: "1") { ... on User { name } id __typename }
              search { ... on Launch { site id } ... on Rocket { name } __typename }
              me { id name __typename }
              other: me { identifier: id id __typename }
            }
            fragment LaunchSite on Launch { site id }
            """)
        #expect(rewritten == expected)
    }

    @Test("without a schema no id is added; with addsTypename off nothing changes")
    func options() throws {
        let plain = try GraphQLStore().documentForSending("{ me { name } }")
        #expect(plain == (try Self.printed("{ me { name __typename } }")))
        let off = GraphQLStore(configuration: .init(addsTypename: false))
        #expect(try off.documentForSending("{ me { name } }") == (try Self.printed("{ me { name } }")))
    }

    @Test("rewrites are cached by text, and bad documents and schemas are refused")
    func cachingAndErrors() throws {
        let store = GraphQLStore()
        let first = try store.documentForSending("{ me { name } }")
        #expect(store.documents.rewrites.count == 1)
        #expect(try store.documentForSending("{ me { name } }") == first)
        #expect(store.documents.rewrites.count == 1)
        let syntax = #expect(throws: GraphQLStoreError.self) { try store.documentForSending("{ me { ") }
        #expect(syntax?.code == .document)
        let schema = #expect(throws: GraphQLStoreError.self) {
            try StoreSchema(sdl: "type Query { a: Missing }")
        }
        #expect(schema?.code == .schema)
        #expect(schema?.message.contains("Missing") == true)
        // SDL that ends inside a \u escape used to stop the process in GraphQLSwift's lexer.
        let cutOff = #expect(throws: GraphQLStoreError.self) { try StoreSchema(sdl: #"type Query { "\u1"#) }
        #expect(cutOff?.code == .schema)
    }

    @Test("each store keeps its own rewrites, at most its limit, evicting the least recently used")
    func boundedRewrites() throws {
        let store = GraphQLStore(configuration: .init(documentCacheLimit: 2))
        let other = GraphQLStore()
        let a = "{ a { name } }"
        let b = "{ b { name } }"
        let c = "{ c { name } }"
        _ = try store.documentForSending(a)
        _ = try store.documentForSending(b)
        _ = try store.documentForSending(a)  // a is now the most recently used
        _ = try store.documentForSending(c)  // evicts b, not a
        #expect(store.documents.rewrites.keysByRecency == [c, a])
        #expect(other.documents.rewrites.count == 0)
        // An evicted text is rewritten again, the same way.
        #expect(try store.documentForSending(b) == (try other.documentForSending(b)))
        #expect(store.documents.rewrites.keysByRecency == [b, c])
    }

    @Test("the schema's interfaces and unions decide type conditions in the store")
    func schemaPossibleTypes() throws {
        let schema = try StoreSchema(sdl: Self.sdl)
        #expect(schema.possibleTypes == ["Node": ["Launch", "User"], "SearchResult": ["Launch", "Rocket"]])
        #expect(schema.queryType == "Root")
        #expect(schema.type(ofField: "edges", in: "LaunchConnection") == "LaunchEdge")
        let store = GraphQLStore(configuration: .init(schema: schema))
        let operation = try StoreOperation(
            document: "{ node(id: \"1\") { __typename ... on Node { id } ... on Rocket { name } } }")
        try store.write(data: ["node": ["__typename": "User", "id": "1"]], for: operation)
        #expect(store.read(operation).data == ["node": ["__typename": "User", "id": "1"]])
    }
}
