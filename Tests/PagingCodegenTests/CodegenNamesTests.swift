import Foundation
import PagingCodegen
import Testing

/// The torture suite's inputs: a schema and documents made to break the generator's names.
enum TortureFixtures {
    static let directory = Fixtures.directory.appendingPathComponent("Fixtures/Torture")
    /// Where the Swift generated of them is checked in, in a test target of its own.
    static let generated = Fixtures.directory.deletingLastPathComponent()
        .appendingPathComponent("PagingCodegenTortureTests/Generated")

    static func generate() throws -> [Codegen.OutputFile] {
        let schema = try CodegenSchema(contentsOf: directory.appendingPathComponent("torture.graphqls").path)
        var options = Codegen.Options()
        options.configuration = try CodegenConfiguration(
            contentsOf: directory.appendingPathComponent("torture.json").path, schema: schema)
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
            .filter { $0.hasSuffix(".graphql") }.sorted()
        return try Codegen.generate(
            schema: schema,
            documents: try names.map { name in
                (name, try String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8))
            },
            options: options)
    }
}

@Suite("Codegen, names")
struct CodegenNamesTests {
    /// The Swift of one document on a small schema of its own.
    private func generate(_ schema: String, _ document: String) throws -> String {
        let files = try Codegen.generate(
            schema: try CodegenSchema(text: schema, file: "schema.graphqls"),
            documents: [("Doc.graphql", document)])
        return try #require(files.first?.contents)
    }

    private let nodeSchema = """
        type Query { node(id: ID!): Node, viewer: User! }
        interface Node { id: ID! }
        type User implements Node { id: ID!, login: String!, name: String }
        """

    @Test("a lowerCamelCase fragment is an UpperCamelCase struct, held by a lowerCamelCase property")
    func lowerCamelCaseFragment() throws {
        let swift = try generate(
            nodeSchema,
            """
            query viewer { viewer { ...nodeFields login } }
            fragment nodeFields on User { id name }
            """)
        #expect(swift.contains("public struct ViewerQuery: PagingGraphQLClient.GraphQLOperation {"))
        #expect(swift.contains("public var nodeFields: NodeFields\n"))
        #expect(swift.contains("self.nodeFields = try .init(from: decoder)\n"))
        #expect(swift.contains("public struct NodeFields: Swift.Codable"))
        #expect(!swift.contains("struct nodeFields"), "no type is named in lowerCamelCase")
    }

    @Test(
        "names that would collide take _ in a fixed order: the name as written first, then schema types, operations, fragments"
    )
    func collisions() throws {
        let swift = try generate(
            nodeSchema,
            """
            query Hero { viewer { ...userBits ...UserBits userBits: name } }
            query HeroQuery { viewer { id } }
            fragment userBits on User { login }
            fragment UserBits on User { name }
            """)
        #expect(swift.contains("public struct HeroQuery: "), "written so, it keeps its name")
        #expect(swift.contains("public struct HeroQuery_: "), "Hero takes the suffix and then _")
        #expect(swift.contains("public struct UserBits: "), "written so, it keeps its name")
        #expect(swift.contains("public struct UserBits_: "))
        #expect(swift.contains("public var userBits: Swift.String?\n"), "the alias keeps its key")
        #expect(swift.contains("public var userBitsFragment: UserBits_\n"))
        #expect(swift.contains("public var userBitsFragment_: UserBits\n"))
    }

    @Test("the Swift of the torture suite is what the generator writes, and stays so")
    func tortureSuiteIsCurrent() throws {
        let files = try TortureFixtures.generate()
        #expect(try TortureFixtures.generate() == files, "the same inputs give the same bytes")
        let checkedIn = try FileManager.default.contentsOfDirectory(atPath: TortureFixtures.generated.path)
            .filter { $0.hasSuffix(".swift") }.sorted()
        #expect(checkedIn == files.map(\.name).sorted())
        for file in files {
            let path = TortureFixtures.generated.appendingPathComponent(file.name).path
            #expect(
                try String(contentsOfFile: path, encoding: .utf8) == file.contents,
                "\(file.name) is stale: run scripts/update-generated.sh")
        }
    }

    @Test("what the generated types need is an error at its place: __typename aliased to another field")
    func typenameAlias() throws {
        #expect {
            _ = try generate(
                nodeSchema, "query Q { node(id: \"1\") { __typename: id ... on User { login } } }")
        } throws: { error in
            "\(error)".contains("Doc.graphql:1:27: error: the alias __typename names the field id")
        }
    }

    @Test("two documents that would write one file are an error, not a file lost")
    func outputCollision() throws {
        let schema = try CodegenSchema(text: nodeSchema, file: "schema.graphqls")
        #expect {
            _ = try Codegen.generate(
                schema: schema,
                documents: [
                    ("a/Q.graphql", "query A { viewer { id } }"),
                    ("b/Q.graphql", "query B { viewer { login } }"),
                ])
        } throws: { error in
            "\(error)".contains(
                "b/Q.graphql: error: it would be written to Q.graphql.swift, as a/Q.graphql is")
        }
    }

    @Test("a pagination fragment on a type whose id is not a string has no paginationFragment(client:)")
    func nonStringNodeID() throws {
        let swift = try generate(
            """
            type Query { node(id: ID!): Node, thing: Thing }
            interface Node { id: ID! }
            type Thing { id: Int!, parts(first: Int, after: String): PartConnection! }
            type PartConnection { edges: [PartEdge!]!, pageInfo: PageInfo! }
            type PartEdge { cursor: String!, node: Part! }
            type Part { name: String! }
            type PageInfo { hasNextPage: Boolean!, endCursor: String }
            """,
            """
            query T { thing { ...thingParts } }
            fragment thingParts on Thing @refetchable(queryName: "ThingPartsQuery")
              @argumentDefinitions(count: { type: "Int", defaultValue: 5 }, cursor: { type: "String" }) {
              id
              parts(first: $count, after: $cursor) @connection(key: "Thing_parts") { edges { node { name } } }
            }
            """)
        #expect(swift.contains("extension ThingParts: PagingGraphQLClient.RefetchableFragmentData"))
        #expect(!swift.contains("func paginationFragment(client:"))
    }
}
