import Foundation
import GraphQL

/// The generator's configuration file: the Swift type of each custom
/// scalar, and the modules those types need.
///
/// ```json
/// {
///   "scalars": { "DateTime": "Timestamp", "URI": "URL" },
///   "imports": ["Foundation"]
/// }
/// ```
///
/// A scalar the file does not name is `JSONValue`, whatever JSON the server
/// sends. A type named here must decode from that JSON (and encode to it,
/// for variables), and be `Sendable` and `Hashable`.
public struct CodegenConfiguration: Sendable, Hashable {
    /// The Swift type of each custom scalar, by the scalar's name.
    public var scalars: [String: String]
    /// Modules the generated files import beside the library (`Foundation`
    /// for `URL` or `Date`).
    public var imports: [String]

    /// A configuration.
    /// - Parameters:
    ///   - scalars: the Swift type of each custom scalar, by the scalar's name.
    ///   - imports: modules the generated files import beside the library.
    public init(scalars: [String: String] = [:], imports: [String] = []) {
        self.scalars = scalars
        self.imports = imports
    }

    /// Reads a configuration file and checks it against a schema.
    /// - Parameters:
    ///   - path: the file.
    ///   - schema: the schema whose scalars it maps.
    /// - Throws: ``CodegenError``: ``CodegenError/Code/unreadable`` when the
    ///   file cannot be read, ``CodegenError/Code/invalidConfiguration`` with
    ///   the line and column of a member that is wrong (a name that is not
    ///   a custom scalar of the schema, a type that is not a Swift name).
    /// - Complexity: O(*n*) for a file of *n* bytes.
    public init(contentsOf path: String, schema: CodegenSchema) throws(CodegenError) {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw CodegenError(
                .unreadable, file: path, CodegenSchema.reason(CocoaError(.fileReadUnknown), path: path))
        }
        try self.init(text: String(decoding: data, as: UTF8.self), file: path, schema: schema)
    }

    /// Reads a configuration from text and checks it against a schema.
    /// - Parameters:
    ///   - text: the JSON.
    ///   - file: the name errors give the text.
    ///   - schema: the schema whose scalars it maps.
    /// - Throws: ``CodegenError`` with ``CodegenError/Code/invalidConfiguration``.
    public init(text: String, file: String, schema: CodegenSchema) throws(CodegenError) {
        func problem(_ message: String, at key: String? = nil) -> CodegenError {
            let place = key.flatMap { Self.place(ofKey: $0, in: text) }
            return CodegenError(
                .invalidConfiguration, file: file, line: place?.line, column: place?.column, message)
        }
        let root: Any
        do {
            root = try JSONSerialization.jsonObject(with: Data(text.utf8))
        } catch {
            throw problem("the configuration is not JSON (\(error.localizedDescription)).")
        }
        guard let object = root as? [String: Any] else {
            throw problem("the configuration is a JSON object with \"scalars\" and \"imports\".")
        }
        for key in object.keys.sorted() where key != "scalars" && key != "imports" {
            throw problem(
                "\"\(key)\" is not a setting; the settings are \"scalars\" and \"imports\".", at: key)
        }
        var scalars: [String: String] = [:]
        if let value = object["scalars"] {
            guard let members = value as? [String: Any] else {
                throw problem(
                    "\"scalars\" maps each custom scalar to a Swift type, as {\"DateTime\": \"String\"}.",
                    at: "scalars")
            }
            for name in members.keys.sorted() {
                guard let type = members[name] as? String, Self.isSwiftTypeName(type) else {
                    throw problem(
                        "the Swift type of \(name) is to be a type name such as \"String\" or \"Foundation.URL\".",
                        at: name)
                }
                switch schema.schema.getType(name: name) {
                case let scalar as GraphQLScalarType where SwiftNames.scalar(scalar.name) != nil:
                    throw problem(
                        "\(name) is a built-in scalar, which the generator maps itself; remove it.", at: name)
                case is GraphQLScalarType:
                    scalars[name] = type
                case let other?:
                    throw problem(
                        "\(name) is \(Self.kind(of: other)) of the schema, not a scalar; only custom scalars are mapped.",
                        at: name)
                case nil:
                    let custom = Self.customScalars(of: schema)
                    let known =
                        custom.isEmpty
                        ? "the schema has none" : "the schema's are " + custom.joined(separator: ", ")
                    throw problem("\(name) is not a type of the schema (\(known)).", at: name)
                }
            }
        }
        var imports: [String] = []
        if let value = object["imports"] {
            guard let list = value as? [String], list.allSatisfy(Self.isSwiftTypeName) else {
                throw problem("\"imports\" is a list of module names, as [\"Foundation\"].", at: "imports")
            }
            imports = list
        }
        self.init(scalars: scalars, imports: imports)
    }

    /// The custom scalars of a schema, by name.
    private static func customScalars(of schema: CodegenSchema) -> [String] {
        schema.schema.typeMap.values.compactMap { type in
            guard let scalar = type as? GraphQLScalarType, SwiftNames.scalar(scalar.name) == nil else {
                return nil
            }
            return scalar.name
        }.sorted()
    }

    private static func kind(of type: any GraphQLNamedType) -> String {
        switch type {
        case is GraphQLEnumType: "an enum"
        case is GraphQLInputObjectType: "an input object"
        case is GraphQLInterfaceType: "an interface"
        case is GraphQLUnionType: "a union"
        default: "an object type"
        }
    }

    /// A Swift type name, dotted: `URL`, `Foundation.URL`, `Money`.
    private static func isSwiftTypeName(_ text: String) -> Bool {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        return !parts.isEmpty
            && parts.allSatisfy { part in
                guard let first = part.first, first.isLetter || first == "_" else { return false }
                return part.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" }
            }
    }

    /// The line and column of the first `"key":` in a JSON text.
    private static func place(ofKey key: String, in text: String) -> (line: Int, column: Int)? {
        let quoted = "\"\(key)\""
        var search = text.startIndex..<text.endIndex
        while let range = text.range(of: quoted, range: search) {
            let rest = text[range.upperBound...].drop { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
            if rest.first == ":" {
                let offset = text.utf8.distance(from: text.startIndex, to: range.lowerBound)
                return OperationDocuments.lineAndColumn(in: text, at: offset)
            }
            search = range.upperBound..<text.endIndex
        }
        return nil
    }
}
