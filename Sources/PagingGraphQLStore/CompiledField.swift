import GraphQL

/// A field of a compiled document: what reads and writes need, computed once.
final class CompiledField: Sendable {
    /// The alias, or the name.
    let responseKey: String
    /// The field's name.
    let name: String
    /// The arguments, sorted by name.
    let arguments: [(name: String, value: StoreInputValue)]
    /// The storage key when no argument holds a variable.
    let fixedStorageKey: String?
    /// `@skip` / `@include`, if any.
    let conditions: StoreConditions?
    /// The selection set of an object field, as a one-element array (so that
    /// reads and writes can pass it on without allocating); empty for a leaf.
    let childSets: [CompiledSelectionSet]
    /// The declarative mutation directives (`@appendEdge`, `@deleteRecord`,
    /// ...) on the field; empty for almost every field.
    let directives: [StoreMutationDirective]

    init(_ field: Field, childSet: CompiledSelectionSet?, directives: [StoreMutationDirective] = []) {
        responseKey = field.alias?.value ?? field.name.value
        name = field.name.value
        arguments = field.arguments
            .map { (name: $0.name.value, value: StoreInputValue($0.value)) }
            .sorted { $0.name < $1.name }
        conditions = StoreConditions(field.directives)
        childSets = childSet.map { [$0] } ?? []
        self.directives = directives
        if arguments.allSatisfy(\.value.isLiteral) {
            fixedStorageKey = Self.storageKey(name: name, arguments: arguments, variables: [:])
        } else {
            fixedStorageKey = nil
        }
    }

    /// The field's storage key: its name, and its arguments sorted by name
    /// with variables resolved, such as `launches(after:"abc",pageSize:20)`.
    /// - Complexity: O(1) for a field whose arguments hold no variable.
    func storageKey(_ variables: [String: JSONValue]) -> String {
        fixedStorageKey ?? Self.storageKey(name: name, arguments: arguments, variables: variables)
    }

    private static func storageKey(
        name: String, arguments: [(name: String, value: StoreInputValue)], variables: [String: JSONValue]
    ) -> String {
        var text = name
        var first = true
        for argument in arguments {
            guard let value = argument.value.resolved(variables) else { continue }
            text += first ? "(" : ","
            first = false
            text += argument.name
            text += ":"
            value.appendCanonicalText(to: &text)
        }
        if !first { text += ")" }
        return text
    }
}
