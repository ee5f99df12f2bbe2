import Foundation
import PagingCodegen
import Testing

/// The fixtures beside this file: the launch server's schema and the documents.
enum Fixtures {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()

    static func path(_ name: String) -> String {
        directory.appendingPathComponent("Fixtures/\(name)").path
    }

    static var schema: CodegenSchema {
        get throws { try CodegenSchema(contentsOf: path("launches.graphqls")) }
    }

    /// The documents, named as `paging codegen` would be given them from the package's root.
    static func documents() throws -> [(name: String, text: String)] {
        try ["LaunchList.graphql", "LaunchDetails.graphql", "Node.graphql", "RocketLaunches.graphql"].map {
            name in
            ("Fixtures/\(name)", try String(contentsOfFile: path(name), encoding: .utf8))
        }
    }
}

@Suite("Codegen, the launch documents")
struct CodegenGoldenTests {
    /// The generated files the tests compile (`Generated/`), as the generator writes them now.
    static func generated() throws -> [Codegen.OutputFile] {
        try Codegen.generate(schema: try Fixtures.schema, documents: try Fixtures.documents())
    }

    // The files in Generated/ were read line by line when they were first written: they are the
    // Swift the other tests compile and use. This test keeps them what the generator writes;
    // scripts/update-generated.sh writes them anew after a deliberate change.
    @Test("input objects that hold themselves are classes, the others structs, as generated and checked in")
    func inputsThatHoldThemselves() throws {
        let schema = try CodegenSchema(contentsOf: Fixtures.path("Inputs/inputs.graphqls"))
        var options = Codegen.Options()
        options.schemaTypesFile = "InputsSchemaTypes.graphql.swift"
        let files = try Codegen.generate(
            schema: schema,
            documents: [
                (
                    "Search.graphql",
                    try String(contentsOfFile: Fixtures.path("Inputs/Search.graphql"), encoding: .utf8)
                )
            ],
            options: options)
        for file in files {
            let path = Fixtures.directory.appendingPathComponent("Generated/Inputs/\(file.name)").path
            #expect(
                try String(contentsOfFile: path, encoding: .utf8) == file.contents, "\(file.name) is stale")
        }
        let types = try #require(files.last?.contents)
        #expect(
            types.contains("public final class LaunchFilter: Swift.Encodable, Swift.Sendable, Swift.Hashable")
        )
        #expect(
            types.contains("public final class DateWindow: Swift.Encodable, Swift.Sendable, Swift.Hashable"))
        #expect(
            types.contains(
                "public final class WindowException: Swift.Encodable, Swift.Sendable, Swift.Hashable"))
    }

    @Test("the generated files are what the generator writes, byte for byte, every time")
    func generatedFilesAreCurrent() throws {
        let files = try Self.generated()
        #expect(
            files.map(\.name) == [
                "LaunchList.graphql.swift", "LaunchDetails.graphql.swift", "Node.graphql.swift",
                "RocketLaunches.graphql.swift", "SchemaTypes.graphql.swift",
            ])
        #expect(try Self.generated() == files, "the same inputs give the same bytes")
        for file in files {
            let path = Fixtures.directory.appendingPathComponent("Generated/\(file.name)").path
            #expect(
                try String(contentsOfFile: path, encoding: .utf8) == file.contents, "\(file.name) is stale")
        }
    }
}
