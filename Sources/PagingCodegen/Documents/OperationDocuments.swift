import Foundation
import GraphQL

/// The `.graphql` files of one module, parsed and checked against a schema:
/// their operations and fragments, by name, each with the file it is in.
struct OperationDocuments {
    /// One file's text and what it defines.
    struct File {
        /// The file's name as given to the generator.
        let name: String
        /// Its text.
        let text: String
        /// Its operations, in order.
        var operations: [OperationDefinition] = []
        /// Its fragments, in order.
        var fragments: [FragmentDefinition] = []
    }

    /// The files, in the order given.
    let files: [File]
    /// Every fragment, by name.
    let fragments: [String: FragmentDefinition]
    /// The schema they were checked against.
    let schema: CodegenSchema

    /// The client-side directives the library reads, which a server's
    /// schema does not declare: documents may use them.
    static let clientDirectives = """
        directive @connection(key: String, filter: [String]) on FIELD
        """

    /// Reads, parses and validates files.
    /// - Parameters:
    ///   - files: the files' names and texts.
    ///   - schema: the schema they are checked against.
    /// - Throws: ``CodegenFailure`` with every problem found: syntax errors
    ///   (each file's first), then names defined twice, then what the
    ///   validator found.
    init(files texts: [(name: String, text: String)], schema: CodegenSchema) throws(CodegenFailure) {
        var errors: [CodegenError] = []
        var files: [File] = []
        var documents: [Document] = []
        for (name, text) in texts {
            do {
                let document = try parse(source: Source(body: text, name: name))
                var file = File(name: name, text: text)
                for definition in document.definitions {
                    if let operation = definition as? OperationDefinition {
                        file.operations.append(operation)
                    } else if let fragment = definition as? FragmentDefinition {
                        file.fragments.append(fragment)
                    } else {
                        errors.append(
                            Self.error(
                                .invalidDocument, at: definition,
                                "only operations and fragments belong in a document; move type definitions to the schema."
                            ))
                    }
                }
                files.append(file)
                documents.append(document)
            } catch let error as GraphQLError {
                let place = error.locations.first
                errors.append(
                    CodegenError(
                        .invalidDocument, file: name, line: place?.line, column: place?.column,
                        CodegenSchema.sentence(error.message)))
            } catch {
                errors.append(CodegenError(.invalidDocument, file: name, CodegenSchema.sentence("\(error)")))
            }
        }
        var fragments: [String: FragmentDefinition] = [:]
        var operations: [String: OperationDefinition] = [:]
        for file in files {
            for operation in file.operations {
                guard let name = operation.name?.value else {
                    errors.append(
                        Self.error(
                            .invalidDocument, at: operation,
                            "an operation needs a name to become a type; name it, such as `query LaunchList { ... }`."
                        ))
                    continue
                }
                if let first = operations[name] {
                    errors.append(
                        Self.error(
                            .duplicateName, at: operation,
                            "there are two operations named \(name); the other is at \(Self.place(of: first)). Rename one."
                        ))
                } else {
                    operations[name] = operation
                }
            }
            for fragment in file.fragments {
                let name = fragment.name.value
                if let first = fragments[name] {
                    errors.append(
                        Self.error(
                            .duplicateName, at: fragment,
                            "there are two fragments named \(name); the other is at \(Self.place(of: first)). Rename one."
                        ))
                } else {
                    fragments[name] = fragment
                }
            }
        }
        if errors.isEmpty, let first = documents.first {
            // One document of every file's definitions, so that a fragment may be used in another file
            // than its own; each node keeps its file (its source) for the places of errors.
            let all = first.set(value: .array(documents.flatMap(\.definitions)), key: "definitions")
            for error in validate(schema: schema.validationSchema, ast: all) {
                let place = error.locations.first
                errors.append(
                    CodegenError(
                        .invalidDocument, file: error.source?.name ?? texts[0].name, line: place?.line,
                        column: place?.column, CodegenSchema.sentence(error.message)))
            }
        }
        guard errors.isEmpty else { throw CodegenFailure(errors: errors) }
        // Each @connection field selects what its list pages on: the types hold it, and the
        // documents ask for it.
        for index in files.indices {
            files[index].operations = files[index].operations.map { operation in
                operation.set(
                    value: .node(ConnectionCompletion.complete(operation.selectionSet)), key: "selectionSet")
            }
            files[index].fragments = files[index].fragments.map { fragment in
                fragment.set(
                    value: .node(ConnectionCompletion.complete(fragment.selectionSet)), key: "selectionSet")
            }
        }
        fragments = Dictionary(
            files.flatMap(\.fragments).map { ($0.name.value, $0) }, uniquingKeysWith: { first, _ in first })
        self.files = files
        self.fragments = fragments
        self.schema = schema
    }

    /// An error at a node.
    static func error(_ code: CodegenError.Code, at node: any Node, _ message: String) -> CodegenError {
        let (file, line, column) = where_(node)
        return CodegenError(code, file: file, line: line, column: column, message)
    }

    /// `file:line:column` of a node.
    static func place(of node: any Node) -> String {
        let (file, line, column) = where_(node)
        return [file, line.map(String.init), column.map(String.init)].compactMap { $0 }.joined(separator: ":")
    }

    private static func where_(_ node: any Node) -> (String, Int?, Int?) {
        guard let loc = node.loc else { return ("<document>", nil, nil) }
        let (line, column) = lineAndColumn(in: loc.source.body, at: loc.start)
        return (loc.source.name, line, column)
    }

    /// The line and column, from 1, of a UTF-8 offset in a text; `\r\n`, `\n` and `\r` end lines.
    static func lineAndColumn(in text: String, at offset: Int) -> (line: Int, column: Int) {
        var line = 1
        var lineStart = 0
        var previous: UInt8 = 0
        for (index, byte) in text.utf8.prefix(offset).enumerated() {
            if byte == 10 || byte == 13 {
                // The \n of a \r\n ends the line the \r ended.
                if !(byte == 10 && previous == 13) { line += 1 }
                lineStart = index + 1
            }
            previous = byte
        }
        return (line, offset - lineStart + 1)
    }
}

/// Every problem the generator found; it wrote nothing.
public struct CodegenFailure: Error, Sendable, CustomStringConvertible {
    /// The problems, in the order found: by file, then by place.
    public let errors: [CodegenError]

    /// One line per problem, `file:line:column: error: message`.
    public var description: String { errors.map(\.description).joined(separator: "\n") }
}
