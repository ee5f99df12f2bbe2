import Foundation
import PagingCodegen

// The generator as the build plugin runs it (`paging codegen` is the same generator with a
// command line of its own, in Tools/):
//
//     PagingCodegenTool --schema FILE --output DIRECTORY [--config FILE] [--internal] [--import MODULE]
//         [--schema-types-file NAME] DOCUMENT...
//
// Problems go to standard error as `file:line:column: error: message`, which Xcode and
// SwiftPM show at the line; the exit status is then 1 and nothing is written.

/// Writes a line to standard error.
func report(_ line: String) {
    FileHandle.standardError.write(Data((line + "\n").utf8))
}

/// The command line, parsed.
struct Arguments {
    var schema: String?
    var output: String?
    var config: String?
    var options = Codegen.Options()
    var documents: [String] = []

    init(_ arguments: [String]) throws(UsageError) {
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            switch argument {
            case "--schema": schema = try Self.value(of: argument, in: &remaining)
            case "--output": output = try Self.value(of: argument, in: &remaining)
            case "--config": config = try Self.value(of: argument, in: &remaining)
            case "--import": options.importModule = try Self.value(of: argument, in: &remaining)
            case "--schema-types-file": options.schemaTypesFile = try Self.value(of: argument, in: &remaining)
            case "--internal": options.isPublic = false
            case _ where argument.hasPrefix("--"): throw UsageError("unknown option \(argument)")
            default: documents.append(argument)
            }
        }
    }

    private static func value(of option: String, in remaining: inout ArraySlice<String>) throws(UsageError)
        -> String
    {
        guard let value = remaining.popFirst() else { throw UsageError("\(option) needs a value") }
        return value
    }
}

/// A command line that cannot be run.
struct UsageError: Error {
    let message: String
    init(_ message: String) { self.message = message }
}

func run() -> Int32 {
    let arguments: Arguments
    do {
        arguments = try Arguments(Array(CommandLine.arguments.dropFirst()))
    } catch {
        report("PagingCodegenTool: \(error.message)")
        return 2
    }
    guard let schemaPath = arguments.schema, let output = arguments.output, !arguments.documents.isEmpty
    else {
        report(
            "usage: PagingCodegenTool --schema FILE --output DIRECTORY [--config FILE] [--internal] [--import MODULE] [--schema-types-file NAME] DOCUMENT..."
        )
        return 2
    }
    let files: [Codegen.OutputFile]
    do {
        let schema = try CodegenSchema(contentsOf: schemaPath)
        var options = arguments.options
        if let config = arguments.config {
            options.configuration = try CodegenConfiguration(contentsOf: config, schema: schema)
        }
        files = try Codegen.generate(schema: schema, files: arguments.documents, options: options)
    } catch let error as CodegenError {
        report(error.description)
        return 1
    } catch let failure as CodegenFailure {
        for error in failure.errors { report(error.description) }
        return 1
    } catch {
        report("PagingCodegenTool: \(error)")
        return 1
    }
    do {
        try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true)
        for file in files {
            let url = URL(fileURLWithPath: output).appendingPathComponent(file.name)
            let contents = Data(file.contents.utf8)
            // An unchanged file keeps its date, so the build does not compile it again.
            if FileManager.default.contents(atPath: url.path) == contents { continue }
            try contents.write(to: url, options: .atomic)
        }
    } catch {
        report("\(output): error: cannot write the generated files: \(error.localizedDescription)")
        return 1
    }
    return 0
}

exit(run())
