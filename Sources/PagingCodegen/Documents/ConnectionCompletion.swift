import GraphQL
import PagingGraphQLCore

/// Completes the selection of every `@connection` field with what its list
/// reads to page on: `pageInfo` with the cursors and flags of the
/// directions its arguments page in, and the `cursor` of its edges. The
/// generated types then hold them, and data that a parent query fetched can
/// start a list (`PaginationFragment.startingFrom(_:)`).
enum ConnectionCompletion {
    static func complete(_ selectionSet: SelectionSet) -> SelectionSet {
        let selections: [any Node] = selectionSet.selections.map { selection -> any Node in
            if var field = selection as? Field, let child = field.selectionSet {
                var completed = complete(child)
                if field.directives.contains(where: { $0.name.value == "connection" }) {
                    completed = completeConnection(completed, arguments: field.arguments.map(\.name.value))
                }
                field = field.set(value: .node(completed), key: "selectionSet")
                return field
            }
            if let inline = selection as? InlineFragment {
                return inline.set(value: .node(complete(inline.selectionSet)), key: "selectionSet")
            }
            return selection
        }
        return selectionSet.set(value: .array(selections), key: "selections")
    }

    private static func completeConnection(_ selectionSet: SelectionSet, arguments: [String]) -> SelectionSet
    {
        let forward = arguments.contains("first") || arguments.contains("after")
        let backward = arguments.contains("last") || arguments.contains("before")
        var wanted: [String] = []
        if forward || !backward { wanted += ["hasNextPage", "endCursor"] }
        if backward { wanted += ["hasPreviousPage", "startCursor"] }
        var selections: [any Node] = []
        var hasPageInfo = false
        for selection in selectionSet.selections {
            guard let field = selection as? Field, field.alias == nil, let child = field.selectionSet else {
                selections.append(selection)
                continue
            }
            switch field.name.value {
            case "pageInfo":
                hasPageInfo = true
                selections.append(field.set(value: .node(adding(wanted, to: child)), key: "selectionSet"))
            case "edges":
                selections.append(field.set(value: .node(adding(["cursor"], to: child)), key: "selectionSet"))
            default:
                selections.append(field)
            }
        }
        if !hasPageInfo,
            let pageInfo = try? DocumentRewriter.snippet("pageInfo { \(wanted.joined(separator: " ")) }")
        {
            selections += pageInfo
        }
        return selectionSet.set(value: .array(selections), key: "selections")
    }

    /// The selection with the unaliased fields of `names` it lacks.
    private static func adding(_ names: [String], to selectionSet: SelectionSet) -> SelectionSet {
        let present = Set(
            selectionSet.selections.compactMap { selection -> String? in
                guard let field = selection as? Field, field.alias == nil else { return nil }
                return field.name.value
            })
        let missing = names.filter { !present.contains($0) }
        guard !missing.isEmpty, let added = try? DocumentRewriter.snippet(missing.joined(separator: " "))
        else {
            return selectionSet
        }
        return selectionSet.set(
            value: .array(selectionSet.selections.map { $0 as any Node } + added), key: "selections")
    }
}
