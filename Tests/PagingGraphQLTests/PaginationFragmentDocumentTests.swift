import PagingGraphQL
import Testing

@Suite("PaginationFragmentDocument")
struct PaginationFragmentDocumentTests {
    static let toDoList = """
        fragment ToDoList_user on User
          @refetchable(queryName: "ToDoListPaginationQuery")
          @argumentDefinitions(
            count: { type: "Int", defaultValue: 10 }
            cursor: { type: "String" }
          ) {
          todos(first: $count, after: $cursor) @connection(key: "ToDoList_todos") {
            edges { node { id ...ToDoItem_todo } }
          }
        }
        fragment ToDoItem_todo on Todo { text complete }
        """

    private func error(_ source: String, fragment: String? = nil) -> GraphQLDocumentError? {
        do {
            _ = try PaginationFragmentDocument(source, fragmentName: fragment)
            return nil
        } catch {
            return error
        }
    }

    @Test("a fragment that ends inside a \\u escape is a syntax error, not a stopped process")
    func cutOffEscape() throws {
        let error = try #require(self.error(#"fragment F on Query @refetchable { a(b: "\u1"#))
        #expect(error.code == .syntax)
    }

    @Test("builds the node refetch query without the client-only directives")
    func buildsTheNodeQuery() throws {
        let fragment = try PaginationFragmentDocument(Self.toDoList)
        #expect(fragment.fragmentName == "ToDoList_user")
        #expect(fragment.typeCondition == "User")
        #expect(fragment.queryName == "ToDoListPaginationQuery")
        #expect(fragment.root == .node)
        #expect(fragment.argumentDefinitions.map(\.name) == ["count", "cursor"])
        #expect(fragment.argumentDefinitions.first?.defaultValue == "10")
        #expect(fragment.refetchQuery.operationName == "ToDoListPaginationQuery")
        #expect(fragment.refetchQuery.connectionPath == ["node", "todos"])
        #expect(fragment.refetchQuery.variables == PaginationVariables(first: "count", after: "cursor"))
        let text = fragment.text
        #expect(
            text.hasPrefix("query ToDoListPaginationQuery($id: ID!, $count: Int = 10, $cursor: String) {"))
        #expect(text.contains("node(id: $id) {"))
        #expect(text.contains("__typename"))
        #expect(text.contains("...ToDoList_user"))
        #expect(text.contains("fragment ToDoItem_todo on Todo"))
        for directive in ["@refetchable", "@argumentDefinitions", "@connection"] {
            #expect(!text.contains(directive))
        }
        #expect(text.contains("endCursor"))
    }

    @Test("a fragment on Query is refetched at the root, without node(id:)")
    func buildsTheQueryVariant() throws {
        let fragment = try PaginationFragmentDocument(
            """
            fragment Feed_query on Query @refetchable(queryName: "FeedQuery")
              @argumentDefinitions(count: {type: "Int!", defaultValue: 5}, cursor: {type: "String"}) {
              launches(first: $count, after: $cursor) @connection(key: "Feed_launches") { nodes { id } }
            }
            """)
        #expect(fragment.root == .query)
        #expect(fragment.refetchQuery.connectionPath == ["launches"])
        #expect(fragment.text.hasPrefix("query FeedQuery($count: Int! = 5, $cursor: String) {"))
        #expect(!fragment.text.contains("node(id:"))
    }

    @Test("a fragment without @refetchable is refused, suggesting a query name")
    func noRefetchable() throws {
        let error = try #require(self.error("fragment F on User { id }", fragment: "F"))
        #expect(error.code == .refetchable)
        #expect(error.description.contains(#"add @refetchable(queryName: "FPaginationQuery")"#))
        #expect(
            self.error("fragment F on User { id }")?.description.contains(
                "No fragment of the document has a @refetchable") == true)
        #expect(self.error("query { a }")?.description.contains("has no fragment") == true)
    }

    @Test("@refetchable without queryName is refused")
    func noQueryName() throws {
        let error = try #require(self.error("fragment F on User @refetchable { id }"))
        #expect(error.description.contains("has no queryName"))
    }

    @Test("missing argument definitions are refused with an example")
    func noArgumentDefinitions() throws {
        let error = try #require(
            self.error(
                #"""
                fragment F on User @refetchable(queryName: "Q") {
                  todos(first: $count, after: $cursor) @connection(key: "k") { nodes { id } }
                }
                """#))
        #expect(error.code == .refetchable)
        #expect(error.description.contains("has no @argumentDefinitions"))
    }

    @Test("an argument definition without a type, or with a bad one, is refused")
    func badArgumentDefinition() throws {
        let noType = try #require(
            self.error(
                #"fragment F on User @refetchable(queryName: "Q") @argumentDefinitions(count: {defaultValue: 3}) { id }"#
            ))
        #expect(noType.description.contains(#"argument "count""#))
        #expect(noType.description.contains("has no type"))
        let badType = try #require(
            self.error(
                #"fragment F on User @refetchable(queryName: "Q") @argumentDefinitions(count: {type: "Int!!"}) { id }"#
            ))
        #expect(badType.description.contains(#"the type "Int!!""#))
    }

    @Test("a variable the argument definitions do not declare is refused")
    func undeclaredVariable() throws {
        let error = try #require(
            self.error(
                #"""
                fragment F on User @refetchable(queryName: "Q") @argumentDefinitions(count: {type: "Int"}) {
                  todos(first: $count, after: $cursor) @connection(key: "k") { nodes { id } }
                }
                """#))
        #expect(error.description.contains("uses $cursor"))
        #expect(error.line == 2)
    }

    @Test("a fragment without @connection is refused by the connection analysis")
    func noConnection() throws {
        let error = try #require(
            self.error(
                #"""
                fragment F on User @refetchable(queryName: "Q") @argumentDefinitions(count: {type: "Int"}, cursor: {type: "String"}) {
                  todos(first: $count, after: $cursor) { nodes { id } }
                }
                """#))
        #expect(error.code == .noConnection)
    }
}
