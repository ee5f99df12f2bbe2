package import GraphQL
import PagingGraphQLCore

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
    private static let addedFields: (typename: [any Node], id: [any Node]) = (
        (try? DocumentRewriter.snippet("__typename")) ?? [], (try? DocumentRewriter.snippet("id")) ?? []
    )

    package mutating func rewrite(_ document: Document) -> Document {
        let walker = SelectionWalker(document: document)
        fragments = walker.fragments
        var visitor = Visitor(rewriter: self)
        return walker.rewrite(document, with: &visitor)
    }

    /// Adds the fields as it walks: the type of each selection set is that
    /// of its field (by the schema), its inline fragment's condition, or its
    /// definition's root or condition; `nil` without a schema.
    private struct Visitor: SelectionVisitor {
        let rewriter: StoreDocumentRewriter
        /// The types of the fields and inline fragments entered, innermost last.
        var types: [String?] = []

        /// The type of the selections walked now.
        func currentType(in context: SelectionContext) -> String? {
            if let type = types.last { return type }
            if let fragment = context.definition as? FragmentDefinition {
                return fragment.typeCondition.name.value
            }
            guard let schema = rewriter.schema, let operation = context.definition as? OperationDefinition
            else {
                return nil
            }
            return switch operation.operation {
            case .query: schema.queryType ?? "Query"
            case .mutation: schema.mutationType ?? "Mutation"
            case .subscription: schema.subscriptionType ?? "Subscription"
            }
        }

        mutating func field(_ field: Field, in context: SelectionContext) -> SelectionStep<Field> {
            // A leaf, or introspection, left as written.
            guard field.selectionSet != nil, !field.name.value.hasPrefix("__") else { return .keep(field) }
            let type = currentType(in: context)
            types.append(type.flatMap { rewriter.schema?.type(ofField: field.name.value, in: $0) })
            return .enter(field)
        }

        /// An object field's selections get `id` and `__typename` where missing.
        mutating func leaveField(_ field: Field, in context: SelectionContext) -> Field {
            let type = types.popLast() ?? nil
            guard var set = field.selectionSet else { return field }
            if rewriter.addsID, let type, rewriter.schema?.hasIDField(type) == true,
                !rewriter.selectsID(set, type: type)
            {
                set = set.adding(StoreDocumentRewriter.addedFields.id)
            }
            if rewriter.addsTypename, !set.selectsField(named: "__typename") {
                set = set.adding(StoreDocumentRewriter.addedFields.typename)
            }
            return field.set(value: .node(set), key: "selectionSet")
        }

        mutating func inlineFragment(_ fragment: InlineFragment, in context: SelectionContext)
            -> SelectionStep<InlineFragment>
        {
            types.append(fragment.typeCondition?.name.value ?? currentType(in: context))
            return .enter(fragment)
        }

        /// A case on a type with `id` inside a selection on one without gets `id`, for the
        /// records of a union's or an interface's members.
        mutating func leaveInlineFragment(_ fragment: InlineFragment, in context: SelectionContext)
            -> InlineFragment
        {
            let conditionType = types.popLast() ?? nil
            let type = currentType(in: context)
            guard rewriter.addsID, let conditionType, conditionType != type,
                rewriter.schema?.hasIDField(conditionType) == true,
                type.map({ rewriter.schema?.hasIDField($0) != true }) ?? true,
                !rewriter.selectsID(fragment.selectionSet, type: conditionType)
            else { return fragment }
            return fragment.set(
                value: .node(fragment.selectionSet.adding(StoreDocumentRewriter.addedFields.id)),
                key: "selectionSet")
        }

        /// A fragment definition gets `id` (for spreads into unions); the field
        /// that spreads it adds `__typename`.
        func leaveSelectionSet(_ selectionSet: SelectionSet, in context: SelectionContext) -> SelectionSet {
            guard types.isEmpty, let fragment = context.definition as? FragmentDefinition else {
                return selectionSet
            }
            let type = fragment.typeCondition.name.value
            guard rewriter.addsID, rewriter.schema?.hasIDField(type) == true,
                !rewriter.selectsID(selectionSet, type: type)
            else { return selectionSet }
            return selectionSet.adding(StoreDocumentRewriter.addedFields.id)
        }
    }

    /// Whether a selection set of a type selects `id` under its own name,
    /// directly or through inline fragments and fragments on the same type.
    private func selectsID(_ selectionSet: SelectionSet, type: String) -> Bool {
        var finder = IDFinder(type: type)
        _ = SelectionWalker(fragments: fragments).walk(
            selectionSet, in: SelectionContext(definition: selectionSet), with: &finder)
        return finder.found
    }

    private struct IDFinder: SelectionVisitor {
        let type: String
        var found = false

        mutating func field(_ field: Field, in context: SelectionContext) -> SelectionStep<Field> {
            if field.isField(named: "id") { found = true }
            return .keep(field)
        }

        func inlineFragment(_ fragment: InlineFragment, in context: SelectionContext)
            -> SelectionStep<InlineFragment>
        {
            let condition = fragment.typeCondition?.name.value
            return condition == nil || condition == type ? .enter(fragment) : .keep(fragment)
        }

        func spread(_ spread: FragmentSpread, of fragment: FragmentDefinition?, in context: SelectionContext)
            -> SelectionStep<FragmentSpread>
        {
            fragment?.typeCondition.name.value == type ? .enter(spread) : .keep(spread)
        }
    }
}
