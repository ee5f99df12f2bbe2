import GraphQL
import PagingGraphQLCore

// The text of the documents sent: the operation and the fragments it uses.
extension SwiftGenerator {
    /// The text sent for an operation: its own, then the fragments it uses
    /// (in order of name), each as written, `@connection` taken out.
    func documentText(of operation: OperationDefinition, keepingConnections: Bool = false) -> String {
        let parts: [any Node] =
            [operation] + usedFragments(from: operation, selectionSet: operation.selectionSet)
        var rewriter = SendingRewriter(keepingConnections: keepingConnections)
        let walker = SelectionWalker(fragments: documents.fragments)
        return parts.map { part in
            if let operation = part as? OperationDefinition {
                return print(ast: walker.rewrite(operation, with: &rewriter))
            }
            if let fragment = part as? FragmentDefinition {
                return print(ast: walker.rewrite(fragment, with: &rewriter))
            }
            return print(ast: part)
        }.joined(separator: "\n\n")
    }

    /// The text of a `@refetchable` fragment's list: the fragment with its
    /// directives, then the fragments it uses, each with its `@connection`
    /// completed and `__typename` where the data tells members apart, as
    /// the operations that spread them send them: the refetch query the
    /// library makes of it then asks for what the generated types hold.
    /// - Throws: ``CodegenError`` if a completion does not parse (it always does).
    func paginationText(of fragment: FragmentDefinition) throws(CodegenError) -> String {
        var rewriter = SendingRewriter(keepingConnections: true)
        var completer = ConnectionCompleter()
        let walker = SelectionWalker(fragments: documents.fragments)
        let completed: FragmentDefinition
        do {
            completed = try walker.rewrite(fragment, with: &completer)
        } catch {
            throw OperationDocuments.error(.invalidDocument, at: fragment, error.message)
        }
        let parts = [completed] + usedFragments(from: fragment, selectionSet: fragment.selectionSet)
        return parts.map { print(ast: walker.rewrite($0, with: &rewriter)) }.joined(separator: "\n\n")
    }

    /// The fragments a definition's selections reach, at any depth, in order of name.
    func usedFragments(from definition: any Node, selectionSet: SelectionSet) -> [FragmentDefinition] {
        SelectionWalker(fragments: documents.fragments)
            .reachedFragments(from: definition, selectionSet: selectionSet)
            .sorted().compactMap { documents.fragments[$0] }
    }
}

/// The selections as sent: without `@connection` (the client's, which
/// servers do not know) unless kept, and with `__typename` in the
/// selections the data tells apart by it (those with fragments; one more
/// field is harmless where it is not needed).
struct SendingRewriter: SelectionVisitor {
    let keepingConnections: Bool

    /// A `__typename` field, parsed once.
    static let typenameField: [any Node] = (try? DocumentRewriter.snippet("__typename")) ?? []

    func field(_ field: Field, in context: SelectionContext) -> SelectionStep<Field> {
        .enter(keepingConnections ? field : field.removingDirectives(["connection"]))
    }

    /// `__typename` where the set, or an inline fragment without a type
    /// condition in it (which may be left out by `@include` or `@skip`),
    /// holds a fragment spread or a typed inline fragment, unless it selects
    /// `__typename` unconditionally already.
    func leaveSelectionSet(_ selectionSet: SelectionSet, in context: SelectionContext) -> SelectionSet {
        guard Self.tellsApart(selectionSet) else { return selectionSet }
        let selectsTypename = selectionSet.selections.contains { selection in
            guard let field = selection as? Field else { return false }
            return field.isField(named: "__typename") && !SelectionWalker.isConditional(field.directives)
        }
        return selectsTypename ? selectionSet : selectionSet.adding(Self.typenameField, first: true)
    }

    private static func tellsApart(_ selectionSet: SelectionSet) -> Bool {
        var finder = TypeConditionFinder()
        _ = SelectionWalker(fragments: [:]).walk(
            selectionSet, in: SelectionContext(definition: selectionSet), with: &finder)
        return finder.found
    }
}

/// Whether a selection set's own object is told apart by type: it holds a
/// fragment spread or a typed inline fragment, directly or in an inline
/// fragment without a type condition (fields are other objects).
private struct TypeConditionFinder: SelectionVisitor {
    var found = false

    func field(_ field: Field, in context: SelectionContext) -> SelectionStep<Field> { .keep(field) }

    mutating func inlineFragment(_ fragment: InlineFragment, in context: SelectionContext)
        -> SelectionStep<InlineFragment>
    {
        if fragment.typeCondition != nil { found = true }
        return fragment.typeCondition == nil ? .enter(fragment) : .keep(fragment)
    }

    mutating func spread(
        _ spread: FragmentSpread, of fragment: FragmentDefinition?, in context: SelectionContext
    )
        -> SelectionStep<FragmentSpread>
    {
        found = true
        return .keep(spread)
    }
}
