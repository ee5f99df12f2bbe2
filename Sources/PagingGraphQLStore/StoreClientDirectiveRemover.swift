import GraphQL
import PagingGraphQLCore

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
        var remover = Remover()
        return SelectionWalker(fragments: [:]).rewrite(document, with: &remover)
    }

    private struct Remover: SelectionVisitor {
        /// The directives removed (a stored property: see `ConnectionCompleter`'s).
        let names = StoreClientDirectiveRemover.names

        func field(_ field: Field, in context: SelectionContext) -> SelectionStep<Field> {
            .enter(field.removingDirectives(names))
        }
    }
}
