import Foundation
import PackagePlugin

/// Generates Swift for a target's `.graphql` files at build time, with the same generator as
/// `paging codegen`: an app adds the plugin to a target, a schema file and `.graphql` files,
/// and uses the generated types.
///
/// ```swift
/// .target(
///     name: "App",
///     dependencies: [.product(name: "PagingGraphQLClient", package: "Paging")],
///     plugins: [.plugin(name: "PagingCodegenPlugin", package: "Paging")]
/// )
/// ```
///
/// The schema is the target's one `.graphqls` file (SDL, as `paging schema` writes it) or its
/// `schema.json` (an introspection result); a `paging-codegen.json` beside them maps custom
/// scalars to Swift types (`PagingCodegen`'s `CodegenConfiguration`). The generated types are
/// internal to the target, and import `PagingGraphQLClient` (no URLSession transport): a target
/// that depends on `PagingGraphQL` has it too.
@main
struct PagingCodegenPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        guard let target = target as? SourceModuleTarget else { return [] }
        let documents = target.sourceFiles(withSuffix: "graphql").map(\.url).sorted { $0.path < $1.path }
        guard !documents.isEmpty else { return [] }
        let schemas = target.sourceFiles.map(\.url).filter {
            $0.pathExtension == "graphqls" || $0.lastPathComponent == "schema.json"
        }
        guard schemas.count == 1, let schema = schemas.first else {
            throw PluginError(
                schemas.isEmpty
                    ? "target \(target.name) has .graphql files but no schema: add the server's schema as a .graphqls file (paging schema --endpoint URL -o schema.graphqls) or as schema.json."
                    : "target \(target.name) has \(schemas.count) schema files (\(schemas.map(\.lastPathComponent).sorted().joined(separator: ", "))); keep one."
            )
        }
        let configuration = target.sourceFiles.map(\.url).first {
            $0.lastPathComponent == "paging-codegen.json"
        }
        let output = context.pluginWorkDirectoryURL.appendingPathComponent("GeneratedSources")
        let outputs =
            documents.map { output.appendingPathComponent($0.lastPathComponent + ".swift") }
            + [output.appendingPathComponent("SchemaTypes.graphql.swift")]
        return [
            .buildCommand(
                displayName: "Generating Swift for \(documents.count) GraphQL documents of \(target.name)",
                executable: try context.tool(named: "PagingCodegenTool").url,
                arguments: ["--schema", schema.path, "--output", output.path, "--internal"]
                    + (configuration.map { ["--config", $0.path] } ?? []) + documents.map(\.path),
                inputFiles: documents + [schema] + (configuration.map { [$0] } ?? []),
                outputFiles: outputs)
        ]
    }
}

/// A target the plugin cannot generate for.
struct PluginError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
