import GraphQL

/// A parsed document compiled for the store: every operation and fragment,
/// with fragment spreads resolved. Compiled once per document text (see
/// ``StoreDocumentCache``).
struct CompiledDocument: Sendable {
    /// An operation: its root selection set and its variables' defaults.
    struct Operation: Sendable {
        enum Kind: Sendable {
            case query, mutation, subscription
        }

        var name: String?
        var kind: Kind
        /// The root selection set, as a one-element array.
        var rootSets: [CompiledSelectionSet]
        /// The default values of the variables that declare one.
        var defaults: [String: JSONValue]

        /// The record the operation's data starts at.
        var rootKey: CacheKey {
            switch kind {
            case .query: .queryRoot
            case .mutation: .mutationRoot
            case .subscription: .subscriptionRoot
            }
        }
    }

    /// A fragment: its type condition and selection set.
    struct Fragment: Sendable {
        var name: String
        var typeCondition: String
        /// The selection set, as a one-element array.
        var sets: [CompiledSelectionSet]
    }

    var operations: [Operation]
    var fragments: [String: Fragment]
    /// The fragments' names in the order the document defines them.
    var fragmentNames: [String]

    /// Compiles a parsed document.
    /// - Throws: ``GraphQLStoreError/Code/document`` for a spread of an
    ///   undefined fragment or fragments that spread each other in a cycle.
    init(_ document: Document) throws(GraphQLStoreError) {
        var definitions: [String: FragmentDefinition] = [:]
        var names: [String] = []
        for case let fragment as FragmentDefinition in document.definitions {
            definitions[fragment.name.value] = fragment
            names.append(fragment.name.value)
        }
        var compiler = StoreDocumentCompiler(fragments: definitions)
        var fragments: [String: Fragment] = [:]
        for name in names {
            guard let definition = definitions[name] else { continue }
            fragments[name] = Fragment(
                name: name, typeCondition: definition.typeCondition.name.value,
                sets: [try compiler.fragment(named: name)])
        }
        var operations: [Operation] = []
        for case let definition as OperationDefinition in document.definitions {
            var defaults: [String: JSONValue] = [:]
            for variable in definition.variableDefinitions {
                if let value = variable.defaultValue, let json = StoreInputValue(value).resolved([:]) {
                    defaults[variable.variable.name.value] = json
                }
            }
            let kind: Operation.Kind =
                switch definition.operation {
                case .query: .query
                case .mutation: .mutation
                case .subscription: .subscription
                }
            operations.append(
                Operation(
                    name: definition.name?.value, kind: kind,
                    rootSets: [try compiler.compile(definition.selectionSet)], defaults: defaults))
        }
        self.operations = operations
        self.fragments = fragments
        self.fragmentNames = names
    }

    /// The operation with the name, or the only one.
    /// - Throws: ``GraphQLStoreError/Code/document`` when there is no such
    ///   operation, or several and no name.
    func operation(named name: String?) throws(GraphQLStoreError) -> Operation {
        let names = operations.map { $0.name ?? "(anonymous)" }
        if let name {
            guard let operation = operations.first(where: { $0.name == name }) else {
                throw GraphQLStoreError(
                    .document,
                    "The GraphQL document has no operation named \"\(name)\"; it has \(DocumentAnalysis.list(names, empty: "none"))."
                )
            }
            return operation
        }
        guard let operation = operations.first else {
            throw GraphQLStoreError(
                .document, "The GraphQL document has no operation; add a query such as `query Name { ... }`.")
        }
        guard operations.count == 1 else {
            throw GraphQLStoreError(
                .document,
                "The GraphQL document has \(operations.count) operations (\(DocumentAnalysis.list(names, empty: ""))); pass operationName to choose one."
            )
        }
        return operation
    }

    /// The fragment with the name, or the first one.
    /// - Throws: ``GraphQLStoreError/Code/document`` when there is no such
    ///   fragment.
    func fragment(named name: String?) throws(GraphQLStoreError) -> Fragment {
        if let name {
            guard let fragment = fragments[name] else {
                throw GraphQLStoreError(
                    .document,
                    "The GraphQL document has no fragment named \"\(name)\"; it has \(DocumentAnalysis.list(fragmentNames, empty: "none"))."
                )
            }
            return fragment
        }
        guard let first = fragmentNames.first, let fragment = fragments[first] else {
            throw GraphQLStoreError(
                .document,
                "The GraphQL document has no fragment; add one such as `fragment Name on Type { ... }`.")
        }
        return fragment
    }
}

/// Compiles selection sets, each fragment once, detecting spread cycles: a
/// ``SelectionVisitor`` that builds each set's compiled selections as the
/// walker leaves it.
struct StoreDocumentCompiler: SelectionVisitor {
    typealias Failure = GraphQLStoreError

    private let walker: SelectionWalker
    private var definitions: [String: FragmentDefinition] { walker.fragments }
    private var compiled: [String: CompiledSelectionSet] = [:]
    private var inProgress: [String] = []
    /// The selections of the sets being compiled, innermost last.
    private var open: [[CompiledSelectionSet.Selection]] = []
    /// The set compiled last: the selections of the field or inline fragment left next.
    private var done = CompiledSelectionSet([])

    init(fragments: [String: FragmentDefinition]) {
        walker = SelectionWalker(fragments: fragments)
    }

    mutating func compile(_ selectionSet: SelectionSet) throws(GraphQLStoreError) -> CompiledSelectionSet {
        open.append([])
        _ = try walker.walk(selectionSet, in: SelectionContext(definition: selectionSet), with: &self)
        return done
    }

    mutating func field(_ field: Field, in context: SelectionContext) throws(GraphQLStoreError)
        -> SelectionStep<Field>
    {
        guard field.selectionSet != nil else {
            try append(field, childSet: nil)
            return .keep(field)
        }
        open.append([])
        return .enter(field)
    }

    mutating func leaveField(_ field: Field, in context: SelectionContext) throws(GraphQLStoreError) -> Field
    {
        try append(field, childSet: done)
        return field
    }

    private mutating func append(_ field: Field, childSet: CompiledSelectionSet?) throws(GraphQLStoreError) {
        let directives =
            field.directives.isEmpty ? [] : try StoreMutationDirective.compile(field, childSet: childSet)
        open[open.count - 1].append(.field(CompiledField(field, childSet: childSet, directives: directives)))
    }

    mutating func inlineFragment(_ fragment: InlineFragment, in context: SelectionContext)
        -> SelectionStep<InlineFragment>
    {
        open.append([])
        return .enter(fragment)
    }

    mutating func leaveInlineFragment(_ fragment: InlineFragment, in context: SelectionContext)
        -> InlineFragment
    {
        open[open.count - 1].append(
            .fragment(
                typeCondition: fragment.typeCondition?.name.value,
                conditions: StoreConditions(fragment.directives), selectionSet: done))
        return fragment
    }

    /// A spread is compiled once per fragment (``fragment(named:)``), not walked into again.
    mutating func spread(
        _ spread: FragmentSpread, of fragment: FragmentDefinition?, in context: SelectionContext
    )
        throws(GraphQLStoreError) -> SelectionStep<FragmentSpread>
    {
        let name = spread.name.value
        guard let fragment else {
            let place = DocumentAnalysis.placeText(DocumentAnalysis.place(of: spread))
            throw GraphQLStoreError(
                .document,
                "The document spreads the fragment \"\(name)\"\(place) but does not define it; add its definition to the document."
            )
        }
        let set = try self.fragment(named: name)
        open[open.count - 1].append(
            .fragment(
                typeCondition: fragment.typeCondition.name.value,
                conditions: StoreConditions(spread.directives),
                selectionSet: set))
        return .keep(spread)
    }

    mutating func leaveSelectionSet(_ selectionSet: SelectionSet, in context: SelectionContext)
        -> SelectionSet
    {
        done = CompiledSelectionSet(open.removeLast())
        return selectionSet
    }

    mutating func fragment(named name: String) throws(GraphQLStoreError) -> CompiledSelectionSet {
        if let done = compiled[name] { return done }
        guard let definition = definitions[name] else {
            throw GraphQLStoreError(.document, "The document does not define the fragment \"\(name)\".")
        }
        if let start = inProgress.firstIndex(of: name) {
            let cycle = (inProgress[start...] + [name]).joined(separator: " → ")
            throw GraphQLStoreError(
                .document,
                "The document's fragments spread each other in a cycle (\(cycle)); break the cycle.")
        }
        inProgress.append(name)
        let set = try compile(definition.selectionSet)
        inProgress.removeLast()
        compiled[name] = set
        return set
    }
}
