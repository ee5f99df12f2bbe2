import Foundation
import PagingCodegen
import Testing

@Suite("Codegen, the configuration file")
struct CodegenConfigurationTests {
    static let schemaSDL = """
        scalar DateTime
        scalar Money
        type Query {
          now: DateTime!
          price: Money
          at(time: DateTime): Int
        }
        """

    static var schema: CodegenSchema {
        get throws { try CodegenSchema(text: schemaSDL, file: "scalars.graphqls") }
    }

    @Test("a mapped scalar takes its Swift type, in data and variables; the others stay JSONValue")
    func mapsScalars() throws {
        let configuration = try CodegenConfiguration(
            text: #"{"scalars": {"DateTime": "Foundation.Date"}, "imports": ["Foundation"]}"#,
            file: "codegen.json",
            schema: try Self.schema)
        #expect(configuration.scalars == ["DateTime": "Foundation.Date"])
        var options = Codegen.Options()
        options.configuration = configuration
        let files = try Codegen.generate(
            schema: try Self.schema,
            documents: [("Now.graphql", "query Now($time: DateTime) { now price at(time: $time) }")],
            options: options)
        let swift = try #require(files.first?.contents)
        #expect(swift.contains("public var now: Foundation.Date\n"))
        #expect(swift.contains("public var price: PagingGraphQLClient.JSONValue?\n"))
        #expect(swift.contains("public var time: Foundation.Date?\n"))
        // The module the mapped type needs, public since a public declaration names its type.
        #expect(swift.contains("public import Foundation\npublic import PagingGraphQLClient\n"))
    }

    @Test("each mistake in the file names the file, the line and column of the member, and what to do")
    func mistakes() throws {
        let cases: [(String, String)] = [
            (
                "{\n  \"scalars\": {\n    \"Timestamp\": \"Date\"\n  }\n}",
                "codegen.json:3:5: error: Timestamp is not a type of the schema (the schema's are DateTime, Money)."
            ),
            (
                "{\"scalars\": {\"String\": \"Substring\"}}",
                "codegen.json:1:14: error: String is a built-in scalar, which the generator maps itself; remove it."
            ),
            (
                "{\"scalars\": {\"Query\": \"Q\"}}",
                "codegen.json:1:14: error: Query is an object type of the schema, not a scalar; only custom scalars are mapped."
            ),
            (
                "{\"scalars\": {\"Money\": \"Decimal Number\"}}",
                "codegen.json:1:14: error: the Swift type of Money is to be a type name such as \"String\" or \"Foundation.URL\"."
            ),
            (
                "{\"scalar\": {}}",
                "codegen.json:1:2: error: \"scalar\" is not a setting; the settings are \"scalars\" and \"imports\"."
            ),
        ]
        let schema = try Self.schema
        for (text, expected) in cases {
            #expect {
                try CodegenConfiguration(text: text, file: "codegen.json", schema: schema)
            } throws: { error in
                (error as? CodegenError)?.description == expected
            }
        }
        #expect {
            try CodegenConfiguration(text: "{ nope", file: "codegen.json", schema: schema)
        } throws: { error in
            (error as? CodegenError)?.description.hasPrefix(
                "codegen.json: error: the configuration is not JSON") == true
        }
    }
}
