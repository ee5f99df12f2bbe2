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

/// Compiles selection sets, each fragment once, detecting spread cycles.
struct StoreDocumentCompiler {
    private let definitions: [String: FragmentDefinition]
    private var compiled: [String: CompiledSelectionSet] = [:]
    private var inProgress: [String] = []

    init(fragments: [String: FragmentDefinition]) {
        definitions = fragments
    }

    mutating func compile(_ selectionSet: SelectionSet) throws(GraphQLStoreError) -> CompiledSelectionSet {
        var selections: [CompiledSelectionSet.Selection] = []
        selections.reserveCapacity(selectionSet.selections.count)
        for selection in selectionSet.selections {
            switch selection {
            case let field as Field:
                var child: CompiledSelectionSet?
                if let set = field.selectionSet { child = try compile(set) }
                let directives =
                    field.directives.isEmpty ? [] : try StoreMutationDirective.compile(field, childSet: child)
                selections.append(.field(CompiledField(field, childSet: child, directives: directives)))
            case let inline as InlineFragment:
                selections.append(
                    .fragment(
                        typeCondition: inline.typeCondition?.name.value,
                        conditions: StoreConditions(inline.directives),
                        selectionSet: try compile(inline.selectionSet)))
            case let spread as FragmentSpread:
                let name = spread.name.value
                guard let definition = definitions[name] else {
                    let place = DocumentAnalysis.placeText(DocumentAnalysis.place(of: spread))
                    throw GraphQLStoreError(
                        .document,
                        "The document spreads the fragment \"\(name)\"\(place) but does not define it; add its definition to the document."
                    )
                }
                selections.append(
                    .fragment(
                        typeCondition: definition.typeCondition.name.value,
                        conditions: StoreConditions(spread.directives),
                        selectionSet: try fragment(named: name)))
            default:
                break
            }
        }
        return CompiledSelectionSet(selections)
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
