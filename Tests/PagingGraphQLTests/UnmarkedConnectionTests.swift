import PagingGraphQL
import Testing

@Suite("ConnectionDocument(inferringConnectionIn:): documents written for other tools")
struct UnmarkedConnectionTests {
    @Test("the only field that pages by after: and selects pageInfo, edges or nodes is the connection")
    func marksTheOnlyCursorField() throws {
        let document = try ConnectionDocument(
            inferringConnectionIn:
                "query($n: Int, $c: String) { viewer { list: items(first: $n, after: $c) { nodes { id } pageInfo { endCursor } } } }"
        )
        #expect(document.variables.first == "n")
        #expect(document.variables.after == "c")
        #expect(document.connectionFieldName == "items")
        #expect(document.connectionKey == "list")
        #expect(document.connectionPath == [.key("viewer"), .key("list")])
        #expect(!document.text.contains("@connection"))
        #expect(document.text.contains("hasNextPage"))
    }

    @Test("gh's literal count is kept; a field inside a fragment is found too")
    func literalCountAndFragments() throws {
        let gh = try ConnectionDocument(
            inferringConnectionIn: """
                query($endCursor: String) {
                  viewer { repositories(first: 100, after: $endCursor) { nodes { name } pageInfo { hasNextPage endCursor } } }
                }
                """)
        #expect(gh.variables.first == nil)
        #expect(gh.variables.fixedFirst == 100)
        #expect(gh.variables.after == "endCursor")
        let fragment = try ConnectionDocument(
            inferringConnectionIn: """
                query($before: String, $last: Int) { viewer { ...Repos } }
                fragment Repos on User { repositories(last: $last, before: $before) { edges { node { name } } } }
                """)
        #expect(fragment.variables.before == "before")
        #expect(fragment.connectionPath == [.key("viewer"), .key("repositories")])
    }

    @Test("a document that marks its connection is analysed as marked")
    func markedStaysMarked() throws {
        let text =
            "query($a: String, $b: String) { x(after: $a) { nodes { id } } y(after: $b) @connection(key: \"Y\") { nodes { id } } }"
        let document = try ConnectionDocument(inferringConnectionIn: text)
        #expect(document.connectionKey == "Y")
        #expect(document == (try ConnectionDocument(text)))
    }

    @Test("none or several fields that page by cursor: a clear error naming them")
    func noneOrSeveral() {
        #expect {
            try ConnectionDocument(
                inferringConnectionIn:
                    "query($a: String, $b: String) { x(after: $a) { nodes { id } } y(after: $b) { nodes { id } } }"
            )
        } throws: { error in
            let error = error as? GraphQLDocumentError
            return error?.code == .ambiguousConnection && error?.message.contains("(x, y)") == true
        }
        #expect {
            // A literal cursor is not paged by cursor; neither is a field with no connection shape.
            try ConnectionDocument(
                inferringConnectionIn:
                    "query($a: String) { x(after: \"c\") { nodes { id } } y(after: $a) { id } }")
        } throws: { error in
            let error = error as? GraphQLDocumentError
            return error?.code == .noConnection && error?.message.contains("mark it with @connection") == true
        }
        #expect(throws: GraphQLDocumentError.self) {
            try ConnectionDocument(inferringConnectionIn: "query { x(")
        }
    }
}
