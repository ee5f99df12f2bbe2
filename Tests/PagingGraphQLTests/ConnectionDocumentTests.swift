import PagingGraphQL
import Testing

@Suite("ConnectionDocument")
struct ConnectionDocumentTests {
    private func error(_ source: String, key: String? = nil, operation: String? = nil)
        -> GraphQLDocumentError?
    {
        do {
            _ = try ConnectionDocument(source, connectionKey: key, operationName: operation)
            return nil
        } catch {
            return error
        }
    }

    @Test("finds the connection, its variables, and adds pageInfo and edge cursors")
    func analysesASimpleQuery() throws {
        let document = try ConnectionDocument(
            """
            query Launches($first: Int, $after: String) {
              launches(first: $first, after: $after) @connection(key: "Launches_launches") {
                edges { node { id site } }
              }
            }
            """)
        #expect(document.operationName == "Launches")
        #expect(document.connectionKey == "Launches_launches")
        #expect(document.connectionFieldName == "launches")
        #expect(document.connectionPath == ["launches"])
        #expect(document.variables == PaginationVariables(first: "first", after: "after"))
        #expect(document.edgesKey == "edges")
        #expect(document.edgeNodeKey == "node")
        #expect(document.nodesKey == nil)
        #expect(!document.text.contains("@connection"))
        #expect(document.text.contains("pageInfo {"))
        // A forward-only document asks for what paging forward reads, not
        // for hasPreviousPage, which can cost the server a query.
        #expect(document.text.contains("hasNextPage"))
        #expect(document.text.contains("endCursor"))
        #expect(!document.text.contains("hasPreviousPage"))
        #expect(!document.text.contains("startCursor"))
        #expect(document.text.contains("cursor"))
        // The printed document parses again and is stable.
        #expect(
            try ConnectionDocument(
                document.text.replacingOccurrences(
                    of: "launches(first: $first, after: $after)",
                    with: "launches(first: $first, after: $after) @connection(key: \"k\")")
            ).text == document.text)
    }

    @Test("a document that pages both ways asks for the pageInfo of both directions")
    func bothDirectionsPageInfo() throws {
        let document = try ConnectionDocument(
            """
            query($first: Int, $after: String, $last: Int, $before: String) {
              launches(first: $first, after: $after, last: $last, before: $before) @connection { edges { node { id } } }
            }
            """)
        for field in ["hasNextPage", "endCursor", "hasPreviousPage", "startCursor"] {
            #expect(document.text.contains(field), "\(field)")
        }
        let backward = try ConnectionDocument(
            """
            query($last: Int, $before: String) {
              launches(last: $last, before: $before) @connection { edges { node { id } } }
            }
            """)
        #expect(backward.text.contains("hasPreviousPage") && backward.text.contains("startCursor"))
        #expect(!backward.text.contains("hasNextPage") && !backward.text.contains("endCursor"))
    }

    @Test("respects aliases along the path and on the connection")
    func respectsAliases() throws {
        let document = try ConnectionDocument(
            """
            query($n: Int, $c: String) {
              me: viewer { recent: launches(first: $n, after: $c) @connection(key: "Recent") { items: nodes { id } } }
            }
            """)
        #expect(document.connectionPath == ["me", "recent"])
        #expect(document.nodesKey == "items")
        #expect(document.operationName == nil)
    }

    @Test("finds a connection inside a named fragment spread into the query and rewrites the fragment")
    func findsConnectionsInNamedFragments() throws {
        let document = try ConnectionDocument(
            """
            query Profile($count: Int, $cursor: String) { viewer { user { ...UserLaunches } } }
            fragment UserLaunches on User {
              name
              launches(first: $count, after: $cursor) @connection(key: "User_launches") {
                edges { cursor node { id } }
                pageInfo { hasNextPage }
              }
            }
            """)
        #expect(document.connectionPath == ["viewer", "user", "launches"])
        #expect(document.variables.first == "count")
        #expect(document.variables.after == "cursor")
        let text = document.text
        #expect(!text.contains("@connection"))
        #expect(
            text.contains("pageInfo { hasNextPage hasPreviousPage startCursor endCursor }")
                || text.contains("hasNextPage\n"))
        #expect(text.components(separatedBy: "cursor").count >= 2)
        #expect(
            text.components(separatedBy: "pageInfo").count == 2,
            "the existing pageInfo is completed, not repeated")
    }

    @Test("finds a connection inside an inline fragment and pages backward")
    func findsConnectionsInInlineFragments() throws {
        let document = try ConnectionDocument(
            """
            query($id: ID!, $last: Int, $before: String) {
              node(id: $id) { ... on User { launches(last: $last, before: $before) @connection(key: "k") { edges { node { id } } } } }
            }
            """)
        #expect(document.connectionPath == ["node", "launches"])
        #expect(document.variables == PaginationVariables(last: "last", before: "before"))
        #expect(document.variables.pagesBackward)
        #expect(!document.variables.pagesForward)
    }

    @Test("chooses among connections by key, and among operations by name")
    func choosesByKey() throws {
        let source = """
            query A($a: String, $b: String) {
              x: launches(after: $a) @connection(key: "X") { nodes { id } }
              y: launches(after: $b) @connection(key: "Y") { nodes { id } }
            }
            query B { other }
            """
        let document = try ConnectionDocument(source, connectionKey: "Y", operationName: "A")
        #expect(document.connectionPath == ["y"])
        #expect(document.variables.after == "b")
        #expect(!document.text.contains("@connection"), "every @connection is removed, the unchosen one too")
    }

    @Test("a syntax error gives its line and column")
    func syntaxError() throws {
        let error = try #require(self.error("query {\n  launches(first: 1 {\n}"))
        #expect(error.code == .syntax)
        #expect(error.line == 2)
        #expect(error.column != nil)
        #expect(error.description.hasPrefix("The GraphQL document has a syntax error at line 2, column"))
    }

    @Test(
        "a document that ends inside a \\u escape is a syntax error, not a stopped process (found by FuzzDocuments)",
        arguments: [
            #"query Profile($coy: "Use\#u{FFFD}\#u{FFFD}\#u{FFFD}nch\\\uuu"#, #"query { launches(after: "\u"#,
            #"query { launches(after: "\u12"#,
        ])
    func cutOffEscape(source: String) throws {
        let error = try #require(self.error(source))
        #expect(error.code == .syntax)
        #expect(error.description.hasPrefix("The GraphQL document has a syntax error"), "\(error)")
    }

    @Test("a document without @connection is refused with an example")
    func noConnection() throws {
        let error = try #require(self.error("query($a: String) { launches(after: $a) { nodes { id } } }"))
        #expect(error.code == .noConnection)
        #expect(error.description.contains("No field of the operation carries @connection"))
    }

    @Test("an unknown key names the keys there are")
    func unknownKey() throws {
        let error = try #require(
            self.error(
                #"query($a: String) { launches(after: $a) @connection(key: "L") { nodes { id } } }"#, key: "M"
            ))
        #expect(error.code == .noConnection)
        #expect(error.description.contains(#"the keys are "L""#))
    }

    @Test("two connections without a key to choose are refused")
    func twoConnections() throws {
        let error = try #require(
            self.error(
                """
                query($a: String, $b: String) {
                  x: launches(after: $a) @connection(key: "X") { nodes { id } }
                  y: launches(after: $b) @connection(key: "Y") { nodes { id } }
                }
                """))
        #expect(error.code == .ambiguousConnection)
        #expect(error.description.contains("pass connectionKey"))
        #expect(error.description.contains(#""X", "Y""#))
    }

    @Test("a fragment spread twice puts its connection at two paths, which is refused")
    func fragmentSpreadTwice() throws {
        let error = try #require(
            self.error(
                """
                query($a: String) { one: viewer { ...F } two: viewer { ...F } }
                fragment F on Viewer { launches(after: $a) @connection(key: "F") { nodes { id } } }
                """))
        #expect(error.code == .ambiguousConnection)
        #expect(error.description.contains("one.launches, two.launches"))
    }

    @Test("a connection without edges { node } or nodes is refused")
    func noEdgesOrNodes() throws {
        let error = try #require(
            self.error(
                #"query($a: String) { launches(after: $a) @connection(key: "L") { edges { cursor } totalCount } }"#
            ))
        #expect(error.code == .noEdgesOrNodes)
        #expect(error.line == 1)
        #expect(error.description.contains("selects neither"))
    }

    @Test("a literal cursor is refused, naming the argument and the literal; so is a count that is not one")
    func literalArgument() throws {
        let error = try #require(
            self.error(
                #"query($n: Int) { launches(first: $n, after: "c1") @connection(key: "L") { nodes { id } } }"#
            ))
        #expect(error.code == .paginationArguments)
        #expect(error.description.contains(#"pagination argument "after" as the literal "c1""#))
        #expect(error.column == 18)
        let negative = try #require(
            self.error(
                #"query($a: String) { launches(first: -1, after: $a) @connection(key: "L") { nodes { id } } }"#
            ))
        #expect(negative.description.contains(#""first" as the literal -1; pass a count of 0 or more"#))
        #expect(
            self.error(
                #"query($a: String) { launches(first: "9", after: $a) @connection(key: "L") { nodes { id } } }"#
            )?
            .code == .paginationArguments)
    }

    @Test("a count given as a literal (gh's first: 100) is kept as the document's page size")
    func literalCount() throws {
        let forward = try ConnectionDocument(
            #"query($a: String) { launches(first: 100, after: $a) @connection(key: "L") { nodes { id } } }"#)
        #expect(forward.variables == PaginationVariables(after: "a", fixedFirst: 100))
        let backward = try ConnectionDocument(
            #"query($b: String) { launches(last: 5, before: $b) @connection(key: "L") { nodes { id } } }"#)
        #expect(backward.variables == PaginationVariables(before: "b", fixedLast: 5))
    }

    @Test("an undeclared pagination variable is refused")
    func undeclaredVariable() throws {
        let error = try #require(
            self.error(#"query { launches(after: $a) @connection(key: "L") { nodes { id } } }"#))
        #expect(error.code == .paginationArguments)
        #expect(error.description.contains("does not declare $a"))
    }

    @Test("a connection without after: or before: is refused")
    func noCursorArgument() throws {
        let error = try #require(
            self.error(#"query($n: Int) { launches(first: $n) @connection(key: "L") { nodes { id } } }"#))
        #expect(error.code == .paginationArguments)
        #expect(error.description.contains("takes neither after: nor before:"))
    }

    @Test("operations: none, several without a name, or an unknown name are refused")
    func operations() throws {
        #expect(self.error("fragment F on User { id }")?.code == .operation)
        #expect(self.error("query A { a } query B { b }")?.description.contains("pass operationName") == true)
        #expect(
            self.error("query A { a }", operation: "Z")?.description.contains(#"no operation named "Z""#)
                == true)
    }

    @Test("a spread of an undefined fragment is refused")
    func unknownFragment() throws {
        let error = try #require(self.error("query { viewer { ...Missing } }"))
        #expect(error.code == .unknownFragment)
        #expect(error.description.contains(#""Missing""#))
    }
}
