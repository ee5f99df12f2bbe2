import ArgumentParser
import Foundation
import PagingCodegen

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `paging codegen`: Swift types for the operations and fragments of `.graphql` files, checked
/// against a schema (``Codegen``).
struct CodegenCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "codegen",
        abstract: "Generate Swift types for the operations and fragments of .graphql files.",
        discussion: """
            Every document is checked against the schema first; each problem is printed as \
            file:line:column: error: message, and then nothing is written and the exit status is 1. \
            Otherwise each .graphql file gives a .graphql.swift file in the output directory, and \
            the enums and input objects the documents use go to SchemaTypes.graphql.swift. A file \
            whose contents did not change is not rewritten.

            Examples:
              paging schema --endpoint http://127.0.0.1:8080/graphql -o schema.graphqls
              paging codegen --schema schema.graphqls --operations 'Sources/App/GraphQL/*.graphql' \\
                  --output Sources/App/Generated
            """)

    @Option(
        name: .long,
        help: ArgumentHelp("The schema: SDL, or an introspection result in JSON.", valueName: "file"))
    var schema: String?

    @Option(
        name: .long, parsing: .upToNextOption,
        help: ArgumentHelp(
            "The documents: files, directories (every .graphql file in them) or patterns such as 'GraphQL/*.graphql'.",
            valueName: "path"))
    var operations: [String] = []

    @Option(
        name: .long, help: ArgumentHelp("The directory to write the Swift files to.", valueName: "directory"))
    var output: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            #"A JSON file mapping custom scalars to Swift types: {"scalars": {"DateTime": "String"}, "imports": []}."#,
            valueName: "file"))
    var config: String?

    @Option(
        name: .customLong("schema-types-file"),
        help: ArgumentHelp(
            "The name of the file of the schema's enums and input objects (one per module).",
            valueName: "name"))
    var schemaTypesFile = "SchemaTypes.graphql.swift"

    @Flag(name: .customLong("internal"), help: "Make the generated types internal instead of public.")
    var isInternal = false

    @Option(
        name: .customLong("import"),
        help: ArgumentHelp("The module the generated files import.", valueName: "module"))
    var importModule = "PagingGraphQLClient"

    func run() async throws {
        let io = CommandIO.current
        guard let schema else {
            throw CLIError.usage(
                "codegen needs --schema FILE (download one with `paging schema --endpoint URL -o FILE`).")
        }
        guard !operations.isEmpty else {
            throw CLIError.usage(
                "codegen needs --operations with the .graphql files, such as 'GraphQL/*.graphql'.")
        }
        guard let output else {
            throw CLIError.usage("codegen needs --output DIRECTORY, where the Swift files go.")
        }
        let files = try Self.expand(operations)
        var options = Codegen.Options()
        options.isPublic = !isInternal
        options.importModule = importModule
        options.schemaTypesFile = schemaTypesFile
        let generated: [Codegen.OutputFile]
        do {
            let schema = try CodegenSchema(contentsOf: schema)
            if let config {
                options.configuration = try CodegenConfiguration(contentsOf: config, schema: schema)
            }
            generated = try Codegen.generate(schema: schema, files: files, options: options)
        } catch let error as CodegenError {
            io.standardError.line(error.description)
            throw CLIError.failed(
                "the \(error.code == .invalidConfiguration ? "configuration" : "schema") cannot be used; nothing was written."
            )
        } catch let failure as CodegenFailure {
            for error in failure.errors { io.standardError.line(error.description) }
            let count = failure.errors.count
            throw CLIError.failed(
                "\(count) problem\(count == 1 ? "" : "s") in the documents; nothing was written.")
        }
        var written = 0
        do {
            try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true)
            for file in generated {
                let path = URL(fileURLWithPath: output).appendingPathComponent(file.name).path
                let contents = Data(file.contents.utf8)
                // An unchanged file keeps its date, so a build does not compile it again.
                if FileManager.default.contents(atPath: path) == contents { continue }
                try contents.write(to: URL(fileURLWithPath: path), options: .atomic)
                written += 1
            }
        } catch {
            throw CLIError.failed(
                "cannot write to \(output): \((error as NSError).localizedDescription). Check that it is a writable directory."
            )
        }
        io.standardError.line(
            "paging: \(generated.count) files for \(files.count) documents in \(output) (\(written) written, \(generated.count - written) unchanged)."
        )
    }

    /// The document files that paths, directories and patterns name, in order of path, each once.
    static func expand(_ arguments: [String]) throws(CLIError) -> [String] {
        var files: Set<String> = []
        for argument in arguments {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: argument, isDirectory: &isDirectory) {
                if isDirectory.boolValue {
                    let found = (FileManager.default.subpaths(atPath: argument) ?? []).filter {
                        $0.hasSuffix(".graphql")
                    }
                    guard !found.isEmpty else {
                        throw .usage("--operations '\(argument)' holds no .graphql file.")
                    }
                    files.formUnion(found.map { argument + "/" + $0 })
                } else {
                    files.insert(argument)
                }
                continue
            }
            let matches = glob(argument)
            guard !matches.isEmpty else {
                throw .usage(
                    "--operations '\(argument)' names no file; give .graphql files, a directory or a pattern."
                )
            }
            files.formUnion(matches)
        }
        return files.sorted()
    }

    /// The paths a pattern matches (glob(3)): `*`, `?` and `[...]` within a path component.
    private static func glob(_ pattern: String) -> [String] {
        var result = glob_t()
        defer { globfree(&result) }
        #if canImport(Glibc)
            let status = Glibc.glob(pattern, 0, nil, &result)
        #else
            let status = Darwin.glob(pattern, 0, nil, &result)
        #endif
        guard status == 0 else { return [] }
        return (0..<Int(result.gl_pathc)).compactMap { index in
            result.gl_pathv[index].map { String(cString: $0) }
        }
    }
}
