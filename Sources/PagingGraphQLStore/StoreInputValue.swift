package import GraphQL

/// An argument value of a compiled document: a literal, a variable, or a
/// list or input object that holds variables somewhere inside.
package indirect enum StoreInputValue: Sendable {
    case literal(JSONValue)
    case variable(String)
    case list([StoreInputValue])
    case object([(name: String, value: StoreInputValue)])

    /// Converts a value of the parsed document; a value without variables
    /// becomes one ``literal(_:)``. Enum values become strings, as they are
    /// in variables.
    package init(_ value: any Value) {
        switch value {
        case let variable as Variable:
            self = .variable(variable.name.value)
        case let int as IntValue:
            self = .literal(
                Int(int.value).map(JSONValue.int) ?? Double(int.value).map(JSONValue.double) ?? .null)
        case let float as FloatValue:
            self = .literal(Double(float.value).map(JSONValue.double) ?? .null)
        case let string as StringValue:
            self = .literal(.string(string.value))
        case let boolean as BooleanValue:
            self = .literal(.bool(boolean.value))
        case let enumValue as EnumValue:
            self = .literal(.string(enumValue.value))
        case let list as ListValue:
            let elements = list.values.map(StoreInputValue.init)
            if let literals = StoreInputValue.literals(elements) {
                self = .literal(.array(literals))
            } else {
                self = .list(elements)
            }
        case let object as ObjectValue:
            let fields = object.fields.map { (name: $0.name.value, value: StoreInputValue($0.value)) }
            if let literals = StoreInputValue.literals(fields.map(\.value)) {
                var members: [String: JSONValue] = [:]
                for (field, literal) in zip(fields, literals) { members[field.name] = literal }
                self = .literal(.object(members))
            } else {
                self = .object(fields)
            }
        default:
            self = .literal(.null)
        }
    }

    private static func literals(_ values: [StoreInputValue]) -> [JSONValue]? {
        var literals: [JSONValue] = []
        literals.reserveCapacity(values.count)
        for value in values {
            guard case .literal(let literal) = value else { return nil }
            literals.append(literal)
        }
        return literals
    }

    /// Whether the value is a literal, with no variable inside.
    var isLiteral: Bool {
        if case .literal = self { true } else { false }
    }

    /// The value with variables replaced by their values; `nil` for a
    /// variable that has no value (the argument is then left out). Inside a
    /// list such a variable is `null`; inside an object, its field is left out.
    package func resolved(_ variables: [String: JSONValue]) -> JSONValue? {
        switch self {
        case .literal(let value): return value
        case .variable(let name): return variables[name]
        case .list(let elements): return .array(elements.map { $0.resolved(variables) ?? .null })
        case .object(let fields):
            var members: [String: JSONValue] = [:]
            for field in fields {
                if let value = field.value.resolved(variables) { members[field.name] = value }
            }
            return .object(members)
        }
    }
}

/// The `@skip(if:)` and `@include(if:)` of a selection.
struct StoreConditions: Sendable {
    var skip: StoreInputValue?
    var include: StoreInputValue?

    /// The conditions of the directives, or `nil` when there are none.
    init?(_ directives: [Directive]) {
        for directive in directives {
            let condition = directive.arguments.first { $0.name.value == "if" }.map {
                StoreInputValue($0.value)
            }
            switch directive.name.value {
            case "skip": skip = condition
            case "include": include = condition
            default: break
            }
        }
        if skip == nil, include == nil { return nil }
    }

    /// Whether the selection applies: it is skipped only when `@skip` is
    /// `true`, and included only when `@include` is `true`.
    func passes(_ variables: [String: JSONValue]) -> Bool {
        if let skip, skip.resolved(variables) == .bool(true) { return false }
        if let include, include.resolved(variables) != .bool(true) { return false }
        return true
    }
}
