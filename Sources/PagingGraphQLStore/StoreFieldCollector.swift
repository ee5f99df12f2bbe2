/// Collects the fields a selection applies to an object, per the GraphQL
/// spec's CollectFields: fragments whose condition holds are flattened, and
/// fields with the same response key merge their selection sets.
struct StoreFieldCollector {
    /// The fields under one response key.
    struct Group {
        /// The first field; the others have the same name and arguments.
        var field: CompiledField
        /// The merged selection sets of the fields, each once.
        var childSets: [CompiledSelectionSet]
        /// Whether the field is known to apply: the object's type is known,
        /// or some path to the field crosses no type condition.
        var definite: Bool
        /// The mutation directives of every merged field, in document order.
        var directives: [StoreMutationDirective]
        /// The fields merged so far, each once (a fragment spread twice
        /// visits its fields twice).
        var merged: [CompiledField]
    }

    let keying: StoreKeying
    let variables: [String: JSONValue]
    let typename: String?
    private(set) var groups: [Group] = []
    /// Whether a type condition was looked at (a read then depends on
    /// `__typename`).
    private(set) var usedTypename = false
    private var indexByKey: [String: Int] = [:]

    init(keying: StoreKeying, variables: [String: JSONValue], typename: String?) {
        self.keying = keying
        self.variables = variables
        self.typename = typename
    }

    mutating func collect(_ sets: [CompiledSelectionSet]) {
        for set in sets { visit(set, definite: true) }
    }

    private mutating func visit(_ set: CompiledSelectionSet, definite: Bool) {
        for selection in set.selections {
            switch selection {
            case .field(let field):
                if let conditions = field.conditions, !conditions.passes(variables) { continue }
                if let index = indexByKey[field.responseKey] {
                    for child in field.childSets
                    where !groups[index].childSets.contains(where: { $0 === child }) {
                        groups[index].childSets.append(child)
                    }
                    if definite { groups[index].definite = true }
                    if !groups[index].merged.contains(where: { $0 === field }) {
                        groups[index].merged.append(field)
                        groups[index].directives += field.directives
                    }
                } else {
                    indexByKey[field.responseKey] = groups.count
                    groups.append(
                        Group(
                            field: field, childSets: field.childSets, definite: definite,
                            directives: field.directives, merged: [field]))
                }
            case .fragment(let condition, let conditions, let child):
                if let conditions, !conditions.passes(variables) { continue }
                guard let condition else {
                    visit(child, definite: definite)
                    continue
                }
                usedTypename = true
                if typename == nil {
                    visit(child, definite: false)
                } else if keying.applies(condition, to: typename) {
                    visit(child, definite: definite)
                }
            }
        }
    }
}
