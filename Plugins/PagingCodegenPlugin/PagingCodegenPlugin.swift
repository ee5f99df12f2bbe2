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
        return try Self.commands(
            target: target.name, files: target.sourceFiles.map(\.url),
            workDirectory: context.pluginWorkDirectoryURL,
            tool: try context.tool(named: "PagingCodegenTool").url)
    }

    /// The one command that generates Swift for the `.graphql` files among `files` (a package
    /// target's sources, or an Xcode target's inputs), or none when there are no such files.
    static func commands(target: String, files: [URL], workDirectory: URL, tool: URL) throws -> [Command] {
        let documents = files.filter { $0.pathExtension == "graphql" }.sorted { $0.path < $1.path }
        guard !documents.isEmpty else { return [] }
        let schemas = files.filter { $0.pathExtension == "graphqls" || $0.lastPathComponent == "schema.json" }
        guard schemas.count == 1, let schema = schemas.first else {
            throw PluginError(
                schemas.isEmpty
                    ? "target \(target) has .graphql files but no schema: add the server's schema as a .graphqls file (paging schema --endpoint URL -o schema.graphqls) or as schema.json."
                    : "target \(target) has \(schemas.count) schema files (\(schemas.map(\.lastPathComponent).sorted().joined(separator: ", "))); keep one."
            )
        }
        let configuration = files.first { $0.lastPathComponent == "paging-codegen.json" }
        let output = workDirectory.appendingPathComponent("GeneratedSources")
        let outputs =
            documents.map { output.appendingPathComponent($0.lastPathComponent + ".swift") }
            + [output.appendingPathComponent("SchemaTypes.graphql.swift")]
        return [
            .buildCommand(
                displayName: "Generating Swift for \(documents.count) GraphQL documents of \(target)",
                executable: tool,
                arguments: ["--schema", schema.path, "--output", output.path, "--internal"]
                    + (configuration.map { ["--config", $0.path] } ?? []) + documents.map(\.path),
                inputFiles: documents + [schema] + (configuration.map { [$0] } ?? []),
                outputFiles: outputs)
        ]
    }
}

#if canImport(XcodeProjectPlugin)
    import XcodeProjectPlugin

    // An Xcode app target (not a package) runs the same command on its input files: Xcode 16 or
    // later (the URL-based plugin API). Never compiled on Linux; `commands` above is.
    extension PagingCodegenPlugin: XcodeBuildToolPlugin {
        func createBuildCommands(context: XcodePluginContext, target: XcodeTarget) throws -> [Command] {
            try Self.commands(
                target: target.displayName, files: target.inputFiles.map(\.url),
                workDirectory: context.pluginWorkDirectoryURL,
                tool: try context.tool(named: "PagingCodegenTool").url)
        }
    }
#endif

/// A target the plugin cannot generate for.
struct PluginError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
