/// Swift names for GraphQL ones: the rules in the catalog's "Names" article.
///
/// A type is named in UpperCamelCase whatever the document's case, so that
/// it never shares a name with a property (lowerCamelCase, or escaped). A
/// property keeps the field's or alias's name, in backticks where Swift
/// reserves the word. The generated code names the standard library's types
/// as `Swift.String` and the library's as `PagingGraphQLClient.JSONValue`, so
/// that no schema type (an enum `Result`, an input `Decoder`) can hide them.
enum SwiftNames {
    /// Words Swift reserves, which a property, parameter or case name is
    /// escaped from with backticks.
    static let keywords: Set<String> = [
        "associatedtype", "class", "deinit", "enum", "extension", "fileprivate", "func", "import", "init",
        "inout", "internal", "let", "open", "operator", "private", "precedencegroup", "protocol", "public",
        "rethrows", "static", "struct", "subscript", "typealias", "var", "break", "case", "catch", "continue",
        "default", "defer", "do", "else", "fallthrough", "for", "guard", "if", "in", "repeat", "return",
        "throw", "switch", "where", "while", "Any", "as", "await", "false", "is", "nil", "self", "Self",
        "super", "throws", "true", "try", "Type", "Protocol", "_",
    ]

    /// Names no generated type takes, at any depth: they mean something else
    /// after a dot (`X.Type`), are keywords, or are the modules whose types
    /// the generated code names (`Swift.String`).
    static let reservedTypeNames: Set<String> = [
        "Type", "Protocol", "Self", "Any", "_", "Swift", "Foundation", "Paging", "PagingGraphQL",
        "PagingGraphQLClient", "PagingGraphQLCore", "PagingGraphQLStore",
        // An unannotated literal's type: a type of this name would change what `"..."` is.
        "StringLiteralType", "IntegerLiteralType", "FloatLiteralType", "BooleanLiteralType",
    ]

    /// Names no nested type takes: the members every generated type may
    /// have (`CodingKeys`, an operation's `Variables` and `Data`, a list's
    /// `ListNode`, `Identifiable`'s `ID`).
    static let reservedNestedNames: Set<String> = reservedTypeNames.union([
        "Variables", "Data", "CodingKeys", "ListNode", "ID",
    ])

    /// The Swift name of a property for a field's key: the key itself, but
    /// for `hashValue`, which `Hashable` has (a property of that name would
    /// be taken for its hash, or clash with it): `hashValue_`.
    static func propertyName(_ key: String) -> String {
        key == "hashValue" ? "hashValue_" : key
    }

    /// A property or parameter name: the GraphQL name, escaped when Swift
    /// reserves it.
    static func identifier(_ name: String) -> String {
        keywords.contains(name) ? "`\(name)`" : name
    }

    /// A name as written after `self.` or a dot: escaped as ``identifier(_:)``.
    static func member(_ name: String) -> String {
        identifier(name)
    }

    /// The UpperCamelCase type name of a GraphQL name: its first letter
    /// (after any leading underscores) in upper case, the rest as written.
    /// `nodeFields` → `NodeFields`, `RocketLaunches_rocket` → itself,
    /// `_internal` → `_Internal`.
    static func typeName(_ name: String) -> String {
        let underscores = name.prefix { $0 == "_" }
        let rest = name.dropFirst(underscores.count)
        return underscores + rest.prefix(1).uppercased() + rest.dropFirst()
    }

    /// `LaunchTile` → `launchTile`, `_Internal` → `_internal`.
    static func lowercasedFirst(_ name: String) -> String {
        let underscores = name.prefix { $0 == "_" }
        let rest = name.dropFirst(underscores.count)
        return underscores + rest.prefix(1).lowercased() + rest.dropFirst()
    }

    /// The name of the struct of a field's selection: its key as a type
    /// name, made singular for a list (`launches` → `Launch`, `edges` →
    /// `Edge`, `categories` → `Category`).
    static func typeName(forKey key: String, isList: Bool) -> String {
        var name = typeName(key)
        if isList {
            if name.hasSuffix("ies"), name.count > 3 {
                name = name.dropLast(3) + "y"
            } else if ["ches", "shes", "sses", "xes", "zes"].contains(where: name.hasSuffix) {
                name = String(name.dropLast(2))
            } else if name.hasSuffix("s"), !name.hasSuffix("ss"), name.count > 1 {
                name = String(name.dropLast())
            }
        }
        return name
    }

    /// Case names an enum of the schema does not give a value: the
    /// catch-all `unknown(_:)`, the enum's own members, and `none` and
    /// `some`, which `Optional`'s cases would hide where the enum is
    /// optional (`mood == .none` compares with `nil`).
    static let reservedCaseNames: Set<String> = [
        "unknown", "rawValue", "none", "some", "init", "self", "hashValue", "encode", "hash",
    ]

    /// An enum case for a GraphQL enum value: `FALCON_HEAVY` → `falconHeavy`,
    /// `V2_BETA` → `v2Beta`, `_internal` → `_internal`. The caller makes it
    /// unique and unreserved.
    static func caseName(_ value: String) -> String {
        let underscores = value.prefix { $0 == "_" }
        let words = value.dropFirst(underscores.count).split(separator: "_", omittingEmptySubsequences: true)
        guard !words.isEmpty else { return "_" + value }
        var name = String(underscores)
        for (index, word) in words.enumerated() {
            let allCaps = word.allSatisfy { !$0.isLetter || $0.isUppercase }
            var part = allCaps ? word.lowercased() : String(word)
            part = index == 0 ? lowercasedFirst(part) : typeName(part)
            name += part
        }
        if let first = name.first, first.isNumber { name = "_" + name }
        return name
    }

    /// The Swift type of a built-in scalar, or `nil` for a custom one.
    static func scalar(_ name: String) -> String? {
        switch name {
        case "ID", "String": "Swift.String"
        case "Int": "Swift.Int"
        case "Float": "Swift.Double"
        case "Boolean": "Swift.Bool"
        default: nil
        }
    }

    /// The first name of `candidate`, `candidate_`, `candidate__`, ... that
    /// `taken` does not hold, which it then holds.
    /// - Parameter reserved: names taken too, that the call does not add to.
    static func claim(
        _ candidate: String, in taken: inout Set<String>, reserved: (String) -> Bool = { _ in false }
    ) -> String {
        var name = candidate
        while taken.contains(name) || reserved(name) { name += "_" }
        taken.insert(name)
        return name
    }
}
