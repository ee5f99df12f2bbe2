package import GraphQL

/// Where a walk over a document's selections is.
package struct SelectionContext {
    /// The definition the selections are in: an `OperationDefinition` or a
    /// `FragmentDefinition` of the document walked.
    package var definition: any Node
    /// The response keys from the definition's root to the selection set
    /// walked: a followed fragment spread or an inline fragment adds none.
    package var path: [GraphQLPathSegment] = []
    /// The names of the fragments followed into, outermost first.
    package var fragments: [String] = []
    /// The fields, inline fragments and fragment spreads entered from the
    /// definition's root to the selection set walked, outermost first.
    package var steps: [any Selection] = []
    /// Whether a field or fragment on the way carries `@include` or `@skip`.
    package var isConditional = false

    /// The context at the root of a definition's selections.
    package init(definition: any Node) {
        self.definition = definition
    }

    /// Where the selection is written: `fragment F` inside a followed
    /// fragment, else `operation Name` or `fragment F` of the definition.
    package var owner: String {
        if let fragment = fragments.last { return "fragment \(fragment)" }
        if let fragment = definition as? FragmentDefinition { return "fragment \(fragment.name.value)" }
        let operation = definition as? OperationDefinition
        return "operation \(operation?.name?.value ?? "(anonymous)")"
    }
}

/// What a visitor does with a selection.
package enum SelectionStep<Selection> {
    /// Keeps the selection (as returned, so possibly changed) and walks into
    /// it: a field's or an inline fragment's selections, or, for a fragment
    /// spread, the fragment's (to read them; the spread itself stays).
    case enter(Selection)
    /// Keeps the selection as returned, without walking into it.
    case keep(Selection)
    /// Leaves the selection out.
    case remove
}

/// What a ``SelectionWalker`` calls at each selection. Every method has a
/// default: enter fields and inline fragments, do not follow fragment
/// spreads, change nothing.
package protocol SelectionVisitor {
    /// The error a visitor may stop the walk with.
    associatedtype Failure: Error = Never

    /// A field, before its selections.
    mutating func field(_ field: Field, in context: SelectionContext) throws(Failure) -> SelectionStep<Field>
    /// A field entered, after its selections: what it becomes.
    mutating func leaveField(_ field: Field, in context: SelectionContext) throws(Failure) -> Field
    /// An inline fragment, before its selections.
    mutating func inlineFragment(_ fragment: InlineFragment, in context: SelectionContext) throws(Failure)
        -> SelectionStep<InlineFragment>
    /// An inline fragment entered, after its selections: what it becomes.
    mutating func leaveInlineFragment(_ fragment: InlineFragment, in context: SelectionContext)
        throws(Failure) -> InlineFragment
    /// A fragment spread, with the fragment it names (`nil` when the
    /// document does not define it). `.enter` walks the fragment's selections
    /// (not when the fragment is being walked already, which would not end).
    mutating func spread(
        _ spread: FragmentSpread, of fragment: FragmentDefinition?, in context: SelectionContext
    ) throws(Failure) -> SelectionStep<FragmentSpread>
    /// A selection set, after its selections: what it becomes.
    mutating func leaveSelectionSet(_ selectionSet: SelectionSet, in context: SelectionContext)
        throws(Failure) -> SelectionSet
}

extension SelectionVisitor {
    /// Enters the field as it is.
    package mutating func field(_ field: Field, in context: SelectionContext) throws(Failure)
        -> SelectionStep<Field>
    { .enter(field) }

    /// Keeps the field as it is.
    package mutating func leaveField(_ field: Field, in context: SelectionContext) throws(Failure) -> Field {
        field
    }

    /// Enters the inline fragment as it is.
    package mutating func inlineFragment(_ fragment: InlineFragment, in context: SelectionContext)
        throws(Failure) -> SelectionStep<InlineFragment>
    { .enter(fragment) }

    /// Keeps the inline fragment as it is.
    package mutating func leaveInlineFragment(_ fragment: InlineFragment, in context: SelectionContext)
        throws(Failure) -> InlineFragment
    { fragment }

    /// Keeps the spread, without following it.
    package mutating func spread(
        _ spread: FragmentSpread, of fragment: FragmentDefinition?, in context: SelectionContext
    ) throws(Failure) -> SelectionStep<FragmentSpread> { .keep(spread) }

    /// Keeps the selection set as it is.
    package mutating func leaveSelectionSet(_ selectionSet: SelectionSet, in context: SelectionContext)
        throws(Failure) -> SelectionSet
    { selectionSet }
}

/// The one walk over GraphQL documents: every layer that reads or rewrites
/// a document's selections (the pagers' documents, the store's rewriting,
/// the generator, the command line) does it with a ``SelectionVisitor``
/// here, so that they agree on what a selection is, where it is, and which
/// fragments it reaches.
///
/// ```swift
/// // The response keys an operation selects, at any depth, through its fragments.
/// struct Keys: SelectionVisitor {
///     var keys: [String] = []
///     mutating func field(_ field: Field, in context: SelectionContext) -> SelectionStep<Field> {
///         keys.append(field.alias?.value ?? field.name.value)
///         return .enter(field)
///     }
///     func spread(_ spread: FragmentSpread, of fragment: FragmentDefinition?, in context: SelectionContext)
///         -> SelectionStep<FragmentSpread> { .enter(spread) }
/// }
/// var keys = Keys()
/// _ = SelectionWalker(document: document).walk(
///     operation.selectionSet, in: SelectionContext(definition: operation), with: &keys)
/// ```
///
/// GraphQLSwift's AST has no public initializers and its `visit` is not
/// public: a rewrite returns copies made with `set(value:key:)`, and new
/// nodes come from its parser.
package struct SelectionWalker {
    /// The fragments spreads are followed into, by name.
    package let fragments: [String: FragmentDefinition]

    /// A walker over a document's fragments.
    package init(document: Document) {
        var fragments: [String: FragmentDefinition] = [:]
        for case let fragment as FragmentDefinition in document.definitions {
            fragments[fragment.name.value] = fragment
        }
        self.fragments = fragments
    }

    /// A walker over the given fragments.
    package init(fragments: [String: FragmentDefinition]) {
        self.fragments = fragments
    }

    /// Rewrites the selections of every operation and fragment definition
    /// of a document, keeping the other definitions.
    /// - Complexity: O(*n*) calls for *n* selections, and those of the
    ///   fragments the visitor follows into, each time it does.
    package func rewrite<Visitor: SelectionVisitor>(_ document: Document, with visitor: inout Visitor)
        throws(Visitor.Failure) -> Document
    {
        var definitions: [any Node] = []
        definitions.reserveCapacity(document.definitions.count)
        for definition in document.definitions {
            if let operation = definition as? OperationDefinition {
                definitions.append(try rewrite(operation, with: &visitor))
            } else if let fragment = definition as? FragmentDefinition {
                definitions.append(try rewrite(fragment, with: &visitor))
            } else {
                definitions.append(definition)
            }
        }
        return document.set(value: .array(definitions), key: "definitions")
    }

    /// Rewrites an operation's selections.
    package func rewrite<Visitor: SelectionVisitor>(
        _ operation: OperationDefinition, with visitor: inout Visitor
    )
        throws(Visitor.Failure) -> OperationDefinition
    {
        let selections = try walk(
            operation.selectionSet, in: SelectionContext(definition: operation), with: &visitor)
        return operation.set(value: .node(selections), key: "selectionSet")
    }

    /// Rewrites a fragment definition's selections.
    package func rewrite<Visitor: SelectionVisitor>(
        _ fragment: FragmentDefinition, with visitor: inout Visitor
    )
        throws(Visitor.Failure) -> FragmentDefinition
    {
        let selections = try walk(
            fragment.selectionSet, in: SelectionContext(definition: fragment), with: &visitor)
        return fragment.set(value: .node(selections), key: "selectionSet")
    }

    /// Walks a selection set, depth first, in order: the visitor's answer for
    /// each selection, then (when entered) its selections, then
    /// ``SelectionVisitor/leaveField(_:in:)`` or
    /// ``SelectionVisitor/leaveInlineFragment(_:in:)`` and, last,
    /// ``SelectionVisitor/leaveSelectionSet(_:in:)``.
    /// - Returns: the selection set with the visitor's changes.
    package func walk<Visitor: SelectionVisitor>(
        _ selectionSet: SelectionSet, in context: SelectionContext, with visitor: inout Visitor
    ) throws(Visitor.Failure) -> SelectionSet {
        var selections: [any Node] = []
        selections.reserveCapacity(selectionSet.selections.count)
        for selection in selectionSet.selections {
            let result: (any Node)?
            switch selection {
            case let field as Field:
                result = try walk(field, in: context, with: &visitor)
            case let inline as InlineFragment:
                result = try walk(inline, in: context, with: &visitor)
            case let spread as FragmentSpread:
                result = try walk(spread, in: context, with: &visitor)
            default:
                result = selection
            }
            if let result { selections.append(result) }
        }
        let walked = selectionSet.set(value: .array(selections), key: "selections")
        return try visitor.leaveSelectionSet(walked, in: context)
    }

    private func walk<Visitor: SelectionVisitor>(
        _ field: Field, in context: SelectionContext, with visitor: inout Visitor
    ) throws(Visitor.Failure) -> Field? {
        switch try visitor.field(field, in: context) {
        case .remove: return nil
        case .keep(let kept): return kept
        case .enter(var entered):
            var inner = context
            inner.path.append(.key(entered.responseKey))
            inner.steps.append(entered)
            inner.isConditional = inner.isConditional || Self.isConditional(entered.directives)
            if let child = entered.selectionSet {
                entered = entered.set(
                    value: .node(try walk(child, in: inner, with: &visitor)), key: "selectionSet")
            }
            return try visitor.leaveField(entered, in: inner)
        }
    }

    private func walk<Visitor: SelectionVisitor>(
        _ inline: InlineFragment, in context: SelectionContext, with visitor: inout Visitor
    ) throws(Visitor.Failure) -> InlineFragment? {
        switch try visitor.inlineFragment(inline, in: context) {
        case .remove: return nil
        case .keep(let kept): return kept
        case .enter(let entered):
            var inner = context
            inner.steps.append(entered)
            inner.isConditional = inner.isConditional || Self.isConditional(entered.directives)
            let walked = try walk(entered.selectionSet, in: inner, with: &visitor)
            return try visitor.leaveInlineFragment(
                entered.set(value: .node(walked), key: "selectionSet"), in: inner)
        }
    }

    private func walk<Visitor: SelectionVisitor>(
        _ spread: FragmentSpread, in context: SelectionContext, with visitor: inout Visitor
    ) throws(Visitor.Failure) -> FragmentSpread? {
        let name = spread.name.value
        let fragment = fragments[name]
        switch try visitor.spread(spread, of: fragment, in: context) {
        case .remove: return nil
        case .keep(let kept): return kept
        case .enter(let entered):
            if let fragment, !context.fragments.contains(name),
                !Self.isDefinition(context.definition, named: name)
            {
                var inner = context
                inner.fragments.append(name)
                inner.steps.append(entered)
                inner.isConditional = inner.isConditional || Self.isConditional(entered.directives)
                _ = try walk(fragment.selectionSet, in: inner, with: &visitor)
            }
            return entered
        }
    }

    private static func isDefinition(_ definition: any Node, named name: String) -> Bool {
        (definition as? FragmentDefinition)?.name.value == name
    }

    /// Whether directives hold `@include` or `@skip`.
    package static func isConditional(_ directives: [Directive]) -> Bool {
        directives.contains { $0.name.value == "include" || $0.name.value == "skip" }
    }
}

extension Field {
    /// The key of the field in the response: its alias, or its name.
    package var responseKey: String { alias?.value ?? name.value }

    /// Whether it is the field of the name under that name (`id`, or `id: id`).
    package func isField(named fieldName: String) -> Bool {
        name.value == fieldName && responseKey == fieldName
    }

    /// The field without the directives of the given names.
    /// - Complexity: O(*d*) for *d* directives.
    package func removingDirectives(_ names: Set<String>) -> Field {
        guard directives.contains(where: { names.contains($0.name.value) }) else { return self }
        return set(value: .array(directives.filter { !names.contains($0.name.value) }), key: "directives")
    }
}

extension SelectionSet {
    /// Whether it selects the field of the name under that name, directly.
    package func selectsField(named name: String) -> Bool {
        selections.contains { ($0 as? Field)?.isField(named: name) == true }
    }

    /// The selection set with nodes added at the end (or, with `first`, at the start).
    package func adding(_ nodes: [any Node], first: Bool = false) -> SelectionSet {
        guard !nodes.isEmpty else { return self }
        let current = selections.map { $0 as any Node }
        return set(value: .array(first ? nodes + current : current + nodes), key: "selections")
    }
}

extension SelectionWalker {
    /// Every field of a selection set, depth first and in order (a field
    /// before those inside it): nested ones and those in inline fragments
    /// included, not those of the fragments it spreads.
    /// - Complexity: O(*n*) for *n* selections.
    package static func fields(in selectionSet: SelectionSet) -> [Field] {
        var collector = FieldCollector()
        _ = SelectionWalker(fragments: [:]).walk(
            selectionSet, in: SelectionContext(definition: selectionSet), with: &collector)
        return collector.fields
    }

    private struct FieldCollector: SelectionVisitor {
        var fields: [Field] = []

        mutating func field(_ field: Field, in context: SelectionContext) -> SelectionStep<Field> {
            fields.append(field)
            return .enter(field)
        }
    }
}
