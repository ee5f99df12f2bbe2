/// A selection set of a compiled document, with its fragment spreads
/// resolved to the fragments' compiled selection sets.
package final class CompiledSelectionSet: Sendable {
    /// One selection: a field, or the selections of a fragment (inline or
    /// spread), with its type condition and directives.
    enum Selection: Sendable {
        case field(CompiledField)
        case fragment(
            typeCondition: String?, conditions: StoreConditions?, selectionSet: CompiledSelectionSet)
    }

    let selections: [Selection]
    /// The fields, when the set holds only fields, none with a directive and
    /// each with its own response key: then reads and writes need not
    /// collect and merge fields.
    let simpleFields: [CompiledField]?
    /// The storage keys of the simple fields, when none depends on a
    /// variable and no two are the same (aliases of one field): shared by
    /// every record written or read with this set.
    let fixedStorageKeys: [String]?

    /// Whether a field with the response key `id` may be selected, here or
    /// in a fragment: when not, data for this set has no `id` and the default
    /// identity rule need not look.
    let mayHaveID: Bool

    init(_ selections: [Selection]) {
        self.selections = selections
        mayHaveID = selections.contains { selection in
            switch selection {
            case .field(let field): field.responseKey == "id"
            case .fragment(_, _, let set): set.mayHaveID
            }
        }
        var fields: [CompiledField] = []
        var keys: Set<String> = []
        for selection in selections {
            guard case .field(let field) = selection, field.conditions == nil,
                keys.insert(field.responseKey).inserted
            else {
                simpleFields = nil
                fixedStorageKeys = nil
                return
            }
            fields.append(field)
        }
        simpleFields = fields
        let storageKeys = fields.compactMap(\.fixedStorageKey)
        fixedStorageKeys =
            storageKeys.count == fields.count && Set(storageKeys).count == storageKeys.count
            ? storageKeys : nil
    }
}

extension CompiledSelectionSet {
    /// Whether the set selects a field of the name, directly or in a fragment.
    func selectsField(named name: String) -> Bool {
        selections.contains { selection in
            switch selection {
            case .field(let field): field.name == name
            case .fragment(_, _, let set): set.selectsField(named: name)
            }
        }
    }
}

extension CompiledSelectionSet {
    /// Whether the set selects a field with subfields (an object or a list
    /// of objects), directly or in a fragment: whether data read with it can
    /// reach records other than the one it is read at.
    package var selectsObjects: Bool {
        selections.contains { selection in
            switch selection {
            case .field(let field): !field.childSets.isEmpty
            case .fragment(_, _, let set): set.selectsObjects
            }
        }
    }
}
