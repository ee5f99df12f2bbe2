import Foundation
import PagingCodegen
import Testing

@Suite("Codegen, bad documents")
struct CodegenErrorTests {
    /// The problems the generator reports for documents, as printed.
    static func problems(_ documents: [(name: String, text: String)]) throws -> [String] {
        let schema = try Fixtures.schema
        do {
            _ = try Codegen.generate(schema: schema, documents: documents)
            return []
        } catch {
            return error.errors.map(\.description)
        }
    }

    @Test("a field the schema lacks: the file, line and column, and nothing generated")
    func unknownField() throws {
        let document = "query Launches {\n  launches {\n    cursor\n    nope\n  }\n}\n"
        let problems = try Self.problems([("Queries/Bad.graphql", document)])
        #expect(problems.count == 1)
        #expect(
            problems.first?.hasPrefix(
                #"Queries/Bad.graphql:4:5: error: Cannot query field "nope" on type "LaunchConnection""#)
                == true, "\(problems)")
    }

    @Test("a syntax error: the place of it, in the file it is in; the other files' errors too")
    func syntaxErrors() throws {
        let problems = try Self.problems([
            ("A.graphql", "query A {\n  launches {\n    cursor\n"),
            ("B.graphql", "query B { launch(id: 1 { id } }"),
        ])
        #expect(problems.count == 2, "\(problems)")
        #expect(problems.first?.hasPrefix("A.graphql:4:1: error: Syntax Error") == true, "\(problems)")
        #expect(problems.last?.hasPrefix("B.graphql:1:24: error: Syntax Error") == true, "\(problems)")
    }

    @Test("a file that ends inside a \\u escape is a syntax error of that file, not a stopped process")
    func cutOffEscape() throws {
        let problems = try Self.problems([("Cut.graphql", #"query Cut { launch(id: "\u12"#)])
        #expect(problems.count == 1, "\(problems)")
        #expect(problems.first?.hasPrefix("Cut.graphql:1:") == true, "\(problems)")
        #expect(problems.first?.contains("Syntax Error") == true, "\(problems)")
    }

    @Test("two operations with one name, in two files: the second named, the first's place given")
    func duplicateOperations() throws {
        let problems = try Self.problems([
            ("One.graphql", "query Launches { launches { cursor } }"),
            ("Two.graphql", "\n\nquery Launches { launches { hasMore } }"),
        ])
        #expect(
            problems == [
                "Two.graphql:3:1: error: there are two operations named Launches; the other is at One.graphql:1:1. Rename one."
            ])
    }

    @Test(
        "an error in a fragment of another file is reported in that file, and a fragment may be used across files"
    )
    func acrossFiles() throws {
        let fragment = "fragment Tile on Launch {\n  id\n  nme\n}\n"
        let problems = try Self.problems([
            ("List.graphql", "query List { launches { launches { ...Tile } } }"), ("Tile.graphql", fragment),
        ])
        #expect(problems.count == 1)
        #expect(
            problems.first?.hasPrefix(#"Tile.graphql:3:3: error: Cannot query field "nme""#) == true,
            "\(problems)")
        let fixed = "fragment Tile on Launch {\n  id\n  site\n}\n"
        let files = try Codegen.generate(
            schema: try Fixtures.schema,
            documents: [
                ("List.graphql", "query List { launches { launches { ...Tile } } }"), ("Tile.graphql", fixed),
            ])
        #expect(
            files.map(\.name) == ["List.graphql.swift", "Tile.graphql.swift", "SchemaTypes.graphql.swift"])
        #expect(files[0].contents.contains("fragment Tile on Launch"), "the document sent includes it")
        #expect(files[1].contents.contains("public struct Tile: Swift.Codable"))
    }

    @Test("what the generator does not turn into Swift yet is an error at its place, not wrong code")
    func unsupported() throws {
        let document = """
            query Node($tile: Boolean!) {
              node(id: "1") {
                id
                ...LaunchTile @include(if: $tile)
              }
            }
            fragment LaunchTile on Launch { id site }
            """
        let problems = try Self.problems([("Node.graphql", document)])
        #expect(problems.count == 1)
        #expect(
            problems.first?.hasPrefix("Node.graphql:4:5: error: a fragment spread under @include or @skip")
                == true,
            "\(problems)")
    }

    @Test("an operation without a name, a type definition, and a missing file are clear errors")
    func otherMistakes() throws {
        let problems = try Self.problems([
            ("Anonymous.graphql", "{ launches { cursor } }\ntype Extra { a: Int }")
        ])
        #expect(problems.count == 2, "\(problems)")
        #expect(
            problems.contains { $0.hasPrefix("Anonymous.graphql:2:1: error: only operations and fragments") })
        #expect(problems.contains { $0.hasPrefix("Anonymous.graphql:1:1: error: an operation needs a name") })
        #expect {
            try Codegen.generate(schema: try Fixtures.schema, files: ["/nonexistent/Missing.graphql"])
        } throws: { error in
            (error as? CodegenFailure)?.description == "/nonexistent/Missing.graphql: error: no such file."
        }
    }
}
