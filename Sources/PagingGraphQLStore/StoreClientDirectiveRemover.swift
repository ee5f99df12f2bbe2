import GraphQL

/// Removes the directives only the client understands from a parsed
/// document: the mutation directives (`@appendEdge`, `@prependEdge`,
/// `@appendNode`, `@prependNode`, `@deleteEdge`, `@deleteRecord`) and
/// `@connection`, wherever a field carries them.
enum StoreClientDirectiveRemover {
    /// The names of the directives removed.
    static let names: Set<String> = StoreMutationDirective.names.union(["connection"])

    /// Whether a text may carry one of the directives: `false` means it
    /// surely does not, so it need not be parsed.
    /// - Complexity: O(*n*) for a text of *n* characters.
    static func mayCarryDirectives(_ text: String) -> Bool {
        guard text.contains("@") else { return false }
        return names.contains { text.contains("@" + $0) }
    }

    /// The document without the client's directives.
    static func removingDirectives(from document: Document) -> Document {
        var definitions: [any Node] = []
        definitions.reserveCapacity(document.definitions.count)
        for definition in document.definitions {
            if let operation = definition as? OperationDefinition {
                definitions.append(
                    operation.set(value: .node(rewrite(operation.selectionSet)), key: "selectionSet"))
            } else if let fragment = definition as? FragmentDefinition {
                definitions.append(
                    fragment.set(value: .node(rewrite(fragment.selectionSet)), key: "selectionSet"))
            } else {
                definitions.append(definition)
            }
        }
        return document.set(value: .array(definitions), key: "definitions")
    }

    private static func rewrite(_ selectionSet: SelectionSet) -> SelectionSet {
        let selections: [any Node] = selectionSet.selections.map { selection -> any Node in
            switch selection {
            case let field as Field:
                var field = DocumentRewriter.removing(names, from: field)
                if let child = field.selectionSet {
                    field = field.set(value: .node(rewrite(child)), key: "selectionSet")
                }
                return field
            case let inline as InlineFragment:
                return inline.set(value: .node(rewrite(inline.selectionSet)), key: "selectionSet")
            default:
                return selection
            }
        }
        return selectionSet.set(value: .array(selections), key: "selections")
    }
}
