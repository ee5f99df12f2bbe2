import GraphQL
import PagingGraphQLCore

// The text of the documents sent: the operation and the fragments it uses.
extension SwiftGenerator {
    /// The text sent for an operation: its own, then the fragments it uses
    /// (in order of name), each as written, `@connection` taken out.
    func documentText(of operation: OperationDefinition, keepingConnections: Bool = false) -> String {
        let parts: [any Node] = [operation] + usedFragments(from: operation.selectionSet)
        return parts.map { Self.sourceText(of: $0, keepingConnections: keepingConnections) }.joined(
            separator: "\n\n")
    }

    /// The fragments a selection set reaches, at any depth, in order of name.
    func usedFragments(from selectionSet: SelectionSet) -> [FragmentDefinition] {
        var used: Set<String> = []
        var pending = Self.spreads(in: selectionSet)
        while let name = pending.popLast() {
            guard used.insert(name).inserted, let fragment = documents.fragments[name] else { continue }
            pending += Self.spreads(in: fragment.selectionSet)
        }
        return used.sorted().compactMap { documents.fragments[$0] }
    }

    /// The names of the fragments a selection set spreads, at any depth.
    static func spreads(in selectionSet: SelectionSet) -> [String] {
        selectionSet.selections.flatMap { selection -> [String] in
            if let spread = selection as? FragmentSpread { return [spread.name.value] }
            if let field = selection as? Field { return field.selectionSet.map(spreads) ?? [] }
            if let inline = selection as? InlineFragment { return spreads(in: inline.selectionSet) }
            return []
        }
    }

    /// A definition's text, printed by GraphQLSwift, without its
    /// `@connection` directives (the client's, which servers do not know).
    static func sourceText(of node: any Node, keepingConnections: Bool = false) -> String {
        if let operation = node as? OperationDefinition {
            let rewritten = rewrite(operation.selectionSet, keepingConnections: keepingConnections)
            return print(ast: operation.set(value: .node(rewritten), key: "selectionSet"))
        }
        if let fragment = node as? FragmentDefinition {
            let rewritten = rewrite(fragment.selectionSet, keepingConnections: keepingConnections)
            return print(ast: fragment.set(value: .node(rewritten), key: "selectionSet"))
        }
        return print(ast: node)
    }

    /// A `__typename` field, parsed once.
    static let typenameField: [any Node] = (try? DocumentRewriter.snippet("__typename")) ?? []

    /// `__typename` for the selections that the data tells apart by it
    /// (those with fragments; one more field is harmless where it is not
    /// needed), and, unless kept, no `@connection`.
    static func rewrite(_ selectionSet: SelectionSet, keepingConnections: Bool) -> SelectionSet {
        var selections: [any Node] = selectionSet.selections.map { selection -> any Node in
            if var field = selection as? Field {
                if !keepingConnections, field.directives.contains(where: { $0.name.value == "connection" }) {
                    field = DocumentRewriter.removing(["connection"], from: field)
                }
                if let child = field.selectionSet {
                    field = field.set(
                        value: .node(rewrite(child, keepingConnections: keepingConnections)),
                        key: "selectionSet")
                }
                return field
            }
            if let inline = selection as? InlineFragment {
                return inline.set(
                    value: .node(rewrite(inline.selectionSet, keepingConnections: keepingConnections)),
                    key: "selectionSet")
            }
            return selection
        }
        let tellsApart = selectionSet.selections.contains { selection in
            selection is FragmentSpread || (selection as? InlineFragment)?.typeCondition != nil
        }
        let hasTypename = selectionSet.selections.contains { selection in
            guard let field = selection as? Field else { return false }
            return field.name.value == "__typename" && field.alias == nil
        }
        if tellsApart, !hasTypename {
            selections = typenameField + selections
        }
        return selectionSet.set(value: .array(selections), key: "selections")
    }
}
