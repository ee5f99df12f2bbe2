import Foundation

/// The generator: Swift types for the operations and fragments of `.graphql`
/// files, checked against a schema. `paging codegen` runs it.
///
/// ```swift
/// let schema = try CodegenSchema(contentsOf: "schema.graphqls")
/// let files = try Codegen.generate(schema: schema, files: ["LaunchList.graphql"])
/// for file in files { try file.contents.write(toFile: "Generated/" + file.name, atomically: true, encoding: .utf8) }
/// ```
///
/// Each operation becomes a type conforming to `GraphQLOperation`: its
/// document as sent (the fragments it uses included, the client's
/// `@connection` taken out), its `Variables` (a nullable variable, or one
/// with a default, is optional and left out when `nil`), and its `Data` as
/// nested structs that follow the selection: aliases as named, nullability
/// as the schema says, `@include` and `@skip` making a field optional. A
/// named fragment becomes a struct; data that spreads it holds it as a
/// property, decoded from the same object. Enums get a case per value and
/// `unknown(String)`; input objects are structs (a `final class` when one
/// holds itself outside a list). What a selection asks of
/// an interface's or a union's members is an optional case per type
/// condition (`asRocket`), chosen by `__typename`. Types are `Sendable`,
/// `Codable` and `Hashable`, and `Identifiable` when an `id` is selected.
/// Custom scalars are `JSONValue` unless ``Options/configuration`` maps them
/// to Swift types. An operation with a `@connection` field
/// gets `ListNode` (the type of its nodes) and `source(client:...)`, a
/// `ConnectionSource` of its list that takes the operation's other
/// variables. A `@refetchable` fragment gets `paginationFragment(client:)`,
/// a `PaginationFragment` whose list starts from the fragment's data.
///
/// The output depends on the inputs alone: the same schema and files give
/// the same bytes.
public enum Codegen {
    /// How the Swift is written.
    public struct Options: Sendable, Hashable {
        /// The module the generated files import for `GraphQLOperation` and
        /// `JSONValue`: `PagingGraphQLClient` unless set (it brings no URLSession
        /// transport, so a target of generated models links no Foundation networking).
        public var importModule = "PagingGraphQLClient"
        /// Whether the types are `public` (the default) or internal.
        public var isPublic = true
        /// The name of the file of the schema's enums and input objects.
        public var schemaTypesFile = "SchemaTypes.graphql.swift"
        /// The Swift types of custom scalars and the modules they need
        /// (``CodegenConfiguration``); a scalar not named is `JSONValue`.
        public var configuration = CodegenConfiguration()

        /// The default options.
        public init() {}

        var access: String { isPublic ? "public " : "" }
    }

    /// A file the generator writes.
    public struct OutputFile: Sendable, Hashable {
        /// Its name: the document's file name and `.swift`
        /// (`LaunchList.graphql.swift`), or ``Options/schemaTypesFile``.
        public let name: String
        /// Its Swift.
        public let contents: String
    }

    /// Generates the Swift of documents given as text.
    /// - Parameters:
    ///   - schema: the schema the documents are checked against.
    ///   - documents: each file's name (as errors and the generated
    ///     comments give it) and text.
    ///   - options: how the Swift is written.
    /// - Returns: one file per document, in their order, then the schema's
    ///   types.
    /// - Throws: ``CodegenFailure`` with every problem found; nothing is
    ///   returned then.
    /// - Complexity: O(*n*) for documents and output of *n* bytes, plus
    ///   GraphQLSwift's validation.
    public static func generate(
        schema: CodegenSchema, documents: [(name: String, text: String)], options: Options = Options()
    ) throws(CodegenFailure) -> [OutputFile] {
        let parsed = try OperationDocuments(files: documents, schema: schema)
        var generator = SwiftGenerator(schema: schema, documents: parsed, options: options)
        return try generator.generate()
    }

    /// Generates the Swift of document files.
    /// - Parameters:
    ///   - schema: the schema the documents are checked against.
    ///   - files: the `.graphql` files' paths.
    ///   - options: how the Swift is written.
    /// - Returns: one file per document, in their order, then the schema's types.
    /// - Throws: ``CodegenFailure`` with every problem found, a file that
    ///   cannot be read included.
    /// - Complexity: as ``generate(schema:documents:options:)``.
    public static func generate(schema: CodegenSchema, files: [String], options: Options = Options())
        throws(CodegenFailure) -> [OutputFile]
    {
        var documents: [(name: String, text: String)] = []
        var errors: [CodegenError] = []
        for path in files {
            guard let data = FileManager.default.contents(atPath: path) else {
                errors.append(
                    CodegenError(
                        .unreadable, file: path,
                        CodegenSchema.reason(CocoaError(.fileReadUnknown), path: path)))
                continue
            }
            guard let text = String(data: data, encoding: .utf8) else {
                errors.append(CodegenError(.unreadable, file: path, "the document is not UTF-8 text."))
                continue
            }
            documents.append((path, text))
        }
        guard errors.isEmpty else { throw CodegenFailure(errors: errors) }
        return try generate(schema: schema, documents: documents, options: options)
    }
}
