/// Swift names for GraphQL ones.
enum SwiftNames {
    /// Words Swift reserves, which a property or case name is escaped from
    /// with backticks.
    static let keywords: Set<String> = [
        "associatedtype", "class", "deinit", "enum", "extension", "fileprivate", "func", "import", "init",
        "inout", "internal", "let", "open", "operator", "private", "precedencegroup", "protocol", "public",
        "rethrows", "static", "struct", "subscript", "typealias", "var", "break", "case", "catch", "continue",
        "default", "defer", "do", "else", "fallthrough", "for", "guard", "if", "in", "repeat", "return",
        "throw", "switch", "where", "while", "Any", "as", "await", "false", "is", "nil", "self", "Self",
        "super", "throws", "true", "try",
    ]

    /// Type names that a nested type may not take: they mean something else
    /// after a dot (`X.Type`) or inside a generated type.
    static let reservedTypeNames: Set<String> = [
        "Type", "Protocol", "Self", "Any", "Variables", "Data", "CodingKeys",
    ]

    /// A property or parameter name: the GraphQL name, escaped when Swift
    /// reserves it.
    static func identifier(_ name: String) -> String {
        keywords.contains(name) ? "`\(name)`" : name
    }

    /// `launches` → `Launches`.
    static func capitalized(_ name: String) -> String {
        name.prefix(1).uppercased() + name.dropFirst()
    }

    /// `LaunchTile` → `launchTile`.
    static func lowercasedFirst(_ name: String) -> String {
        name.prefix(1).lowercased() + name.dropFirst()
    }

    /// The name of the struct of a field's selection: its key, capitalized,
    /// and made singular for a list (`launches` → `Launch`, `edges` →
    /// `Edge`, `categories` → `Category`).
    static func typeName(forKey key: String, isList: Bool) -> String {
        var name = capitalized(key)
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

    /// An enum case for a GraphQL enum value: `FALCON_HEAVY` → `falconHeavy`.
    static func caseName(_ value: String) -> String {
        let words = value.split(separator: "_", omittingEmptySubsequences: true)
        guard !words.isEmpty else { return "_" + value }
        var name = ""
        for (index, word) in words.enumerated() {
            let allCaps = word.allSatisfy { !$0.isLetter || $0.isUppercase }
            var part = allCaps ? word.lowercased() : String(word)
            if index == 0 {
                part = lowercasedFirst(part)
            } else {
                part = capitalized(part)
            }
            name += part
        }
        if let first = name.first, first.isNumber { name = "_" + name }
        return name
    }

    /// The Swift type of a built-in scalar, or `nil` for a custom one.
    static func scalar(_ name: String) -> String? {
        switch name {
        case "ID", "String": "String"
        case "Int": "Int"
        case "Float": "Double"
        case "Boolean": "Bool"
        default: nil
        }
    }
}
