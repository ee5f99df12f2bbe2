public import Foundation
public import GraphQL
import PagingGraphQLCore

/// The schema the generator checks documents against and takes types from,
/// read from SDL or from an introspection result (JSON), as a file or text.
///
/// ```swift
/// let schema = try CodegenSchema(contentsOf: "schema.graphqls")
/// let launch = schema.schema.getType(name: "Launch")
/// ```
public struct CodegenSchema: @unchecked Sendable {
    // @unchecked: GraphQLSwift's schema is a graph of final classes that is
    // not changed after it is built; it is read, never written, here.

    /// The schema, as GraphQLSwift builds it.
    public let schema: GraphQLSchema
    /// The file it was read from, as named.
    public let file: String
    /// The schema with the client directives documents may use
    /// (`@connection`), for validation.
    let validationSchema: GraphQLSchema

    /// Reads a schema file: SDL, or an introspection result in JSON (a file
    /// that starts with `{`).
    /// - Parameter path: the file's path.
    /// - Throws: ``CodegenError`` with ``CodegenError/Code/unreadable`` when
    ///   the file cannot be read, ``CodegenError/Code/invalidSchema`` with
    ///   the line and column of the problem when it is not a valid schema.
    /// - Complexity: O(*n*) for a file of *n* bytes.
    public init(contentsOf path: String) throws(CodegenError) {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw CodegenError(.unreadable, file: path, Self.reason(error, path: path))
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw CodegenError(.unreadable, file: path, "the schema is not UTF-8 text.")
        }
        try self.init(text: text, file: path)
    }

    /// Reads a schema from text: SDL, or an introspection result in JSON
    /// (text that starts with `{`).
    /// - Parameters:
    ///   - text: the schema.
    ///   - file: the name errors give the text.
    /// - Throws: ``CodegenError`` with ``CodegenError/Code/invalidSchema``.
    /// - Complexity: O(*n*) for *n* bytes of text.
    public init(text: String, file: String) throws(CodegenError) {
        self.file = file
        let sdl: String
        if text.first(where: { !$0.isWhitespace }) == "{" {
            do {
                sdl = try IntrospectionSchema(json: Data(text.utf8)).sdl
            } catch {
                throw CodegenError(
                    .invalidSchema, file: file,
                    "the file starts with { but is not an introspection result: \(error.message).")
            }
        } else {
            sdl = text
        }
        do {
            let built = try LexableText.buildSchema(sdl, name: file)
            // Documents may use the library's client directives, which servers do not declare.
            let clientDirectives = OperationDocuments.clientDirectives
                .split(separator: "\n")
                .filter { line in
                    let name = line.dropFirst("directive @".count).prefix { $0.isLetter }
                    return built.getDirective(name: String(name)) == nil
                }
                .joined(separator: "\n")
            schema = built
            validationSchema =
                clientDirectives.isEmpty
                ? built : try LexableText.buildSchema(sdl + "\n" + clientDirectives, name: file)
        } catch let error as GraphQLError {
            // The place is in the SDL only when the file is SDL.
            let place = sdl == text ? error.locations.first : nil
            throw CodegenError(
                .invalidSchema, file: file, line: place?.line, column: place?.column,
                Self.sentence(error.message))
        } catch {
            throw CodegenError(.invalidSchema, file: file, Self.sentence("\(error)"))
        }
    }

    /// The schema as an introspection query answers it.
    /// - Throws: ``CodegenError`` when the introspection query fails.
    /// - Complexity: O(*n*) for a schema of *n* types, fields and values.
    public func introspection() async throws(CodegenError) -> IntrospectionSchema {
        let json = try await introspectionJSON()
        do {
            return try IntrospectionSchema(json: json)
        } catch {
            throw CodegenError(.invalidSchema, file: file, "introspection gave \(error.message).")
        }
    }

    /// The response an introspection query (``IntrospectionQuery/full``)
    /// gets from the schema, as JSON: `{"data": {"__schema": ...}}`.
    /// - Throws: ``CodegenError`` when the introspection query fails.
    /// - Complexity: O(*n*) for a schema of *n* types, fields and values.
    public func introspectionJSON() async throws(CodegenError) -> Data {
        do {
            let result = try await graphql(schema: schema, request: IntrospectionQuery.full)
            guard result.errors.isEmpty else {
                throw CodegenError(
                    .invalidSchema, file: file,
                    "introspection failed: \(result.errors.map(\.message).joined(separator: "; ")).")
            }
            return try JSONEncoder().encode(result)
        } catch let error as CodegenError {
            throw error
        } catch {
            throw CodegenError(.invalidSchema, file: file, "introspection failed: \(error).")
        }
    }

    static func reason(_ error: any Error, path: String) -> String {
        if !FileManager.default.fileExists(atPath: path) { return "no such file." }
        if !FileManager.default.isReadableFile(atPath: path) { return "the file is not readable." }
        return "the file cannot be read (\((error as NSError).localizedDescription))."
    }

    /// A message ending with a full stop.
    static func sentence(_ message: String) -> String {
        message.hasSuffix(".") ? message : message + "."
    }
}
