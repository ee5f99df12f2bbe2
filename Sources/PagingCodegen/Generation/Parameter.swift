/// A parameter of a generated initializer or function: a variable or field
/// by its GraphQL name, with its Swift type.
struct Parameter {
    /// The GraphQL name: the argument label.
    let name: String
    /// The Swift type; one that ends in `?` defaults to `nil`.
    let type: String

    /// The declaration of parameters, and the names their values have in
    /// the body: the label itself, escaped, unless it is `self` or one of
    /// `avoiding` (names the body uses for its own), which a parameter would
    /// hide; then the label with `_` after it.
    ///
    /// `(first: Swift.Int? = nil, self self_: Swift.String)`.
    static func declarations(_ parameters: [Parameter], avoiding: Set<String>)
        -> (list: String, internalNames: [String])
    {
        var taken = Set(parameters.map(\.name)).union(avoiding)
        var pieces: [String] = []
        var internalNames: [String] = []
        for parameter in parameters {
            var piece = SwiftNames.identifier(parameter.name)
            var internalName = piece
            if parameter.name == "self" || avoiding.contains(parameter.name) {
                internalName = SwiftNames.claim(parameter.name + "_", in: &taken)
                piece += " " + internalName
            }
            piece += ": " + parameter.type + (parameter.type.hasSuffix("?") ? " = nil" : "")
            pieces.append(piece)
            internalNames.append(internalName)
        }
        return (pieces.joined(separator: ", "), internalNames)
    }

    /// `first: first, self: self_`: the parameters passed on by label.
    static func arguments(_ parameters: [Parameter], _ internalNames: [String]) -> String {
        zip(parameters, internalNames).map { "\(label($0.name)): \($1)" }.joined(separator: ", ")
    }

    /// An argument label in a call: as written, but for the words a label
    /// cannot be unescaped (`_` would mean no label).
    static func label(_ name: String) -> String {
        ["inout", "var", "let", "_"].contains(name) ? "`\(name)`" : name
    }
}
