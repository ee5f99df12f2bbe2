package import GraphQL

/// Rewrites a parsed document so that its responses normalize well: adds
/// `__typename` to every object selection (not the operation's root, not
/// inside introspection, not twice), and, with a schema, `id` to the
/// selections of types that have an `id` field and do not select it.
package struct StoreDocumentRewriter {
    package let schema: StoreSchema?
    package let addsTypename: Bool
    package let addsID: Bool
    private var fragments: [String: FragmentDefinition] = [:]

    package init(schema: StoreSchema?, addsTypename: Bool, addsID: Bool) {
        self.schema = schema
        self.addsTypename = addsTypename
        self.addsID = addsID && schema != nil
    }

    /// The `__typename` and `id` fields, parsed once: GraphQLSwift's AST has
    /// no public initializers, so new nodes come from its parser.
    private static let addedFields: (typename: Field?, id: Field?) = {
        guard let document = try? GraphQL.parse(source: "{ __typename id }"),
            let operation = document.definitions.first as? OperationDefinition
        else { return (nil, nil) }
        let fields = operation.selectionSet.selections.compactMap { $0 as? Field }
        return (fields.first, fields.last)
    }()

    package mutating func rewrite(_ document: Document) -> Document {
        for case let fragment as FragmentDefinition in document.definitions {
            fragments[fragment.name.value] = fragment
        }
        var definitions: [any Node] = []
        for definition in document.definitions {
            if let operation = definition as? OperationDefinition {
                let root: String? =
                    switch operation.operation {
                    case .query: schema.map { $0.queryType ?? "Query" }
                    case .mutation: schema.map { $0.mutationType ?? "Mutation" }
                    case .subscription: schema.map { $0.subscriptionType ?? "Subscription" }
                    }
                let set = rewrite(operation.selectionSet, type: root)
                definitions.append(operation.set(value: .node(set), key: "selectionSet"))
            } else if let fragment = definition as? FragmentDefinition {
                // The enclosing field adds `__typename`; `id` is added here
                // too, for spreads into unions.
                let type = fragment.typeCondition.name.value
                var set = rewrite(fragment.selectionSet, type: type)
                if addsID, schema?.hasIDField(type) == true, !selectsID(set, type: type) {
                    set = adding(Self.addedFields.id, to: set)
                }
                definitions.append(fragment.set(value: .node(set), key: "selectionSet"))
            } else {
                definitions.append(definition)
            }
        }
        return document.set(value: .array(definitions), key: "definitions")
    }

    /// Rewrites the selections inside a selection set of a type.
    private func rewrite(_ selectionSet: SelectionSet, type: String?) -> SelectionSet {
        var selections: [any Node] = []
        selections.reserveCapacity(selectionSet.selections.count + 2)
        for selection in selectionSet.selections {
            switch selection {
            case let field as Field:
                guard let child = field.selectionSet, !field.name.value.hasPrefix("__") else {
                    selections.append(field)  // a leaf, or introspection left as written
                    continue
                }
                let fieldType = type.flatMap { schema?.type(ofField: field.name.value, in: $0) }
                selections.append(
                    field.set(value: .node(objectSelection(child, type: fieldType)), key: "selectionSet"))
            case let inline as InlineFragment:
                let conditionType = inline.typeCondition?.name.value ?? type
                var set = rewrite(inline.selectionSet, type: conditionType)
                if addsID, let conditionType, conditionType != type,
                    schema?.hasIDField(conditionType) == true,
                    type.map({ schema?.hasIDField($0) != true }) ?? true, !selectsID(set, type: conditionType)
                {
                    set = adding(Self.addedFields.id, to: set)
                }
                selections.append(inline.set(value: .node(set), key: "selectionSet"))
            default:
                selections.append(selection)
            }
        }
        return selectionSet.set(value: .array(selections), key: "selections")
    }

    /// Rewrites the selection set of an object field: its selections, then
    /// `__typename` and `id` where missing.
    private func objectSelection(_ selectionSet: SelectionSet, type: String?) -> SelectionSet {
        var set = rewrite(selectionSet, type: type)
        if addsID, let type, schema?.hasIDField(type) == true, !selectsID(set, type: type) {
            set = adding(Self.addedFields.id, to: set)
        }
        if addsTypename, !set.selections.contains(where: { Self.isField($0, named: "__typename") }) {
            set = adding(Self.addedFields.typename, to: set)
        }
        return set
    }

    /// Whether a selection set of a type selects `id` under its own name,
    /// directly or through fragments on the same type.
    private func selectsID(_ selectionSet: SelectionSet, type: String, visited: Set<String> = []) -> Bool {
        for selection in selectionSet.selections {
            switch selection {
            case let field as Field where Self.isField(field, named: "id"):
                return true
            case let inline as InlineFragment:
                let condition = inline.typeCondition?.name.value
                if condition == nil || condition == type,
                    selectsID(inline.selectionSet, type: type, visited: visited)
                {
                    return true
                }
            case let spread as FragmentSpread:
                let name = spread.name.value
                if !visited.contains(name), let fragment = fragments[name],
                    fragment.typeCondition.name.value == type,
                    selectsID(fragment.selectionSet, type: type, visited: visited.union([name]))
                {
                    return true
                }
            default:
                break
            }
        }
        return false
    }

    /// Whether a selection is the field of the name, under that name.
    private static func isField(_ selection: any Selection, named name: String) -> Bool {
        guard let field = selection as? Field else { return false }
        return field.name.value == name && (field.alias == nil || field.alias?.value == name)
    }

    private func adding(_ field: Field?, to selectionSet: SelectionSet) -> SelectionSet {
        guard let field else { return selectionSet }
        return selectionSet.set(
            value: .array(selectionSet.selections.map { $0 as any Node } + [field]), key: "selections")
    }
}
