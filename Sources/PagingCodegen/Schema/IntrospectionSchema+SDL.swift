import Foundation
import PagingGraphQLCore

extension IntrospectionSchema {
    /// The scalars every schema has, which SDL leaves out.
    static let builtInScalars: Set<String> = ["String", "Int", "Float", "Boolean", "ID"]
    /// The directives every schema has, which SDL leaves out.
    static let builtInDirectives: Set<String> = ["include", "skip", "deprecated", "specifiedBy", "oneOf"]

    /// The schema as SDL, in an order that depends on the schema alone:
    /// directives, then types, each in order of name; fields, arguments,
    /// enum values and union members in the server's order (the order the
    /// schema declares them in). Built-in scalars and directives and the
    /// introspection types are left out, as SDL leaves them.
    ///
    /// The same schema gives the same bytes however a server orders its
    /// list of types, so a downloaded schema can be committed and diffed.
    /// - Complexity: O(*n*) for a schema of *n* types, fields and values,
    ///   plus O(*t* log *t*) to order *t* types.
    public var sdl: String {
        var blocks: [String] = []
        if description != nil || !hasConventionalRoots {
            var block = SDLWriter.description(description, indent: "")
            block += "schema {\n  query: \(queryType)\n"
            if let mutationType { block += "  mutation: \(mutationType)\n" }
            if let subscriptionType { block += "  subscription: \(subscriptionType)\n" }
            blocks.append(block + "}")
        }
        for directive in directives.sorted(by: { $0.name < $1.name })
        where !Self.builtInDirectives.contains(directive.name) {
            blocks.append(SDLWriter.directive(directive))
        }
        for type in types.sorted(by: { $0.name < $1.name })
        where !type.name.hasPrefix("__") && !(type.kind == .scalar && Self.builtInScalars.contains(type.name))
        {
            blocks.append(SDLWriter.type(type))
        }
        return blocks.joined(separator: "\n\n") + "\n"
    }
}

extension IntrospectionSchema {
    /// Whether SDL may leave out the schema definition: the root types are
    /// named Query, Mutation and Subscription, and no other type has one of
    /// those names.
    var hasConventionalRoots: Bool {
        let names = Set(types.map(\.name))
        return queryType == "Query" && (mutationType ?? "Mutation") == "Mutation"
            && (subscriptionType ?? "Subscription") == "Subscription"
            && (mutationType != nil || !names.contains("Mutation"))
            && (subscriptionType != nil || !names.contains("Subscription"))
    }
}

/// Writes the parts of SDL.
enum SDLWriter {
    static func type(_ type: IntrospectionSchema.NamedType) -> String {
        let head = description(type.description, indent: "")
        switch type.kind {
        case .scalar:
            let specified = type.specifiedByURL.map { " @specifiedBy(url: \(string($0)))" } ?? ""
            return head + "scalar \(type.name)\(specified)"
        case .object, .interface:
            let keyword = type.kind == .object ? "type" : "interface"
            let implements =
                type.interfaces.isEmpty ? "" : " implements " + type.interfaces.joined(separator: " & ")
            return head + "\(keyword) \(type.name)\(implements)" + body(type.fields.map(field))
        case .union:
            let members =
                type.possibleTypes.isEmpty ? "" : " = " + type.possibleTypes.joined(separator: " | ")
            return head + "union \(type.name)\(members)"
        case .enum:
            return head + "enum \(type.name)"
                + body(
                    type.enumValues.map { value in
                        description(value.description, indent: "  ") + "  \(value.name)"
                            + deprecated(value.deprecationReason)
                    })
        case .inputObject:
            return head + "input \(type.name)" + body(type.inputFields.map { inputValue($0, indent: "  ") })
        }
    }

    static func directive(_ directive: IntrospectionSchema.Directive) -> String {
        description(directive.description, indent: "") + "directive @\(directive.name)"
            + arguments(directive.arguments, indent: "")
            + (directive.isRepeatable ? " repeatable" : "") + " on "
            + directive.locations.joined(separator: " | ")
    }

    private static func body(_ lines: [String]) -> String {
        lines.isEmpty ? "" : " {\n" + lines.joined(separator: "\n") + "\n}"
    }

    private static func field(_ field: IntrospectionSchema.Field) -> String {
        description(field.description, indent: "  ") + "  \(field.name)"
            + arguments(field.arguments, indent: "  ") + ": \(field.type)"
            + deprecated(field.deprecationReason)
    }

    /// Arguments on one line, or one per line when any has a description.
    private static func arguments(_ arguments: [IntrospectionSchema.InputValue], indent: String) -> String {
        guard !arguments.isEmpty else { return "" }
        if arguments.allSatisfy({ $0.description == nil }) {
            return "(" + arguments.map { inputValue($0, indent: "") }.joined(separator: ", ") + ")"
        }
        return "(\n" + arguments.map { inputValue($0, indent: indent + "  ") }.joined(separator: "\n") + "\n"
            + indent + ")"
    }

    private static func inputValue(_ value: IntrospectionSchema.InputValue, indent: String) -> String {
        description(value.description, indent: indent) + indent + "\(value.name): \(value.type)"
            + (value.defaultValue.map { " = \($0)" } ?? "")
    }

    private static func deprecated(_ reason: String?) -> String {
        guard let reason else { return "" }
        // The reason GraphQL gives when none was written is left implicit.
        return reason.isEmpty || reason == "No longer supported"
            ? " @deprecated" : " @deprecated(reason: \(string(reason)))"
    }

    /// A description above a definition: a block string when it reads the
    /// same as one, a quoted string otherwise; ends with a line break.
    static func description(_ text: String?, indent: String) -> String {
        guard let text else { return "" }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        // A block string drops the indentation its lines share, blank
        // lines at its ends and carriage returns: such text goes quoted.
        let blockSafe =
            text.contains("\n") && !text.contains("\r") && !text.hasSuffix("\"") && !text.hasSuffix("\\")
            && lines.first?.trimmingSpaces.isEmpty == false && lines.last?.trimmingSpaces.isEmpty == false
            && !lines.contains { $0.first == " " || $0.first == "\t" }
        guard blockSafe else { return indent + string(text) + "\n" }
        let body = lines.map { line in
            line.isEmpty ? "" : indent + line.replacingOccurrences(of: "\"\"\"", with: "\\\"\"\"")
        }
        return indent + "\"\"\"\n" + body.joined(separator: "\n") + "\n" + indent + "\"\"\"\n"
    }

    /// A GraphQL string literal.
    static func string(_ text: String) -> String {
        var literal = ""
        text.appendQuotedLiteral(to: &literal)
        return literal
    }
}

extension Substring {
    fileprivate var trimmingSpaces: Substring {
        drop { $0 == " " || $0 == "\t" }
    }
}
