import GraphQL

/// A declarative mutation directive on a field, compiled: what a write of
/// the field's value asks of the connections and records besides storing it.
///
/// | directive | the field's value | effect |
/// | --- | --- | --- |
/// | `@appendEdge(connections:)` | an edge (selects `node`), or a list | append each edge's node |
/// | `@prependEdge(connections:)` | the same | prepend each edge's node |
/// | `@appendNode(connections:)` | a node object, or a list | append each node |
/// | `@prependNode(connections:)` | the same | prepend each node |
/// | `@deleteEdge(connections:, typename:)` | an ID, a node object, or a list | remove each node |
/// | `@deleteRecord(typename:)` | an ID, a node object, or a list | delete each record |
///
/// The edits of the first five go to ``StoreChange/connectionEdits``, one
/// per node and connection; deletions to ``StoreChange/deletedRecords``.
struct StoreMutationDirective: Sendable {
    /// What the directive does.
    enum Action: String, Sendable, CaseIterable {
        case appendEdge, prependEdge, appendNode, prependNode, deleteEdge, deleteRecord

        /// The connection edit it makes, or `nil` for `@deleteRecord`.
        var editKind: StoreConnectionEdit.Kind? {
            switch self {
            case .appendEdge, .appendNode: .append
            case .prependEdge, .prependNode: .prepend
            case .deleteEdge: .remove
            case .deleteRecord: nil
            }
        }

        /// Whether the value is an edge whose `node` is the record.
        var takesEdges: Bool { self == .appendEdge || self == .prependEdge }
        /// Whether the value must be an object (a node or an edge), not an ID.
        var takesObjects: Bool { self != .deleteEdge && self != .deleteRecord }
    }

    /// The names of the directives, which a document sent to a server must
    /// not carry.
    static let names: Set<String> = Set(Action.allCases.map(\.rawValue))

    let action: Action
    /// The `connections:` argument: a list of keys, one key, or a variable;
    /// `nil` for `@deleteRecord`.
    let connections: StoreInputValue?
    /// The `typename:` argument, which turns a bare ID into a record key.
    let typename: StoreInputValue?

    /// Compiles the mutation directives of a field.
    /// - Parameters:
    ///   - field: the field as written.
    ///   - childSet: the field's compiled selection set, `nil` for a leaf.
    /// - Returns: the field's mutation directives, in the order written.
    /// - Throws: ``GraphQLStoreError/Code/document`` when a directive lacks
    ///   `connections`, gives it a value that is not a list of strings, sits
    ///   on a leaf where it needs an object, or an edge directive sits on a
    ///   field that does not select `node`.
    static func compile(_ field: Field, childSet: CompiledSelectionSet?) throws(GraphQLStoreError) -> [Self] {
        var directives: [Self] = []
        for directive in field.directives {
            guard let action = Action(rawValue: directive.name.value) else { continue }
            let name = "@\(action.rawValue) on the field \"\(field.alias?.value ?? field.name.value)\""
            let place = DocumentAnalysis.placeText(DocumentAnalysis.place(of: directive))
            func argument(_ argument: String) -> StoreInputValue? {
                directive.arguments.first { $0.name.value == argument }.map { StoreInputValue($0.value) }
            }
            let connections = argument("connections")
            if action != .deleteRecord {
                guard let connections else {
                    throw GraphQLStoreError(
                        .document,
                        "\(name)\(place) lacks its connections argument; name the connections to edit, such as `@\(action.rawValue)(connections: [\"Feed_launches\"])`."
                    )
                }
                if case .literal(let value) = connections, (try? Self.keys(value)) == nil {
                    throw GraphQLStoreError(
                        .document,
                        "\(name)\(place) has connections: \(value.canonicalText), which is not a list of connection keys; write a list of strings such as [\"Feed_launches\"]."
                    )
                }
            }
            let typename = argument("typename")
            if case .literal(let value)? = typename, value.stringValue == nil {
                throw GraphQLStoreError(
                    .document,
                    "\(name)\(place) has typename: \(value.canonicalText), which is not a type name; write a string such as \"Launch\"."
                )
            }
            if action.takesObjects, childSet == nil {
                throw GraphQLStoreError(
                    .document,
                    "\(name)\(place) needs a field that returns an object with subfields, but the field selects none."
                )
            }
            if action.takesEdges, let childSet, !childSet.selectsField(named: "node") {
                throw GraphQLStoreError(
                    .document,
                    "\(name)\(place) needs an edge that selects `node`; select it, or use @\(action == .appendEdge ? "appendNode" : "prependNode") on a field that returns the node itself."
                )
            }
            directives.append(
                Self(
                    action: action, connections: action == .deleteRecord ? nil : connections,
                    typename: typename))
        }
        return directives
    }

    /// The connection keys of a value of the `connections` argument: a list
    /// of strings, or one string.
    /// - Throws: ``GraphQLStoreError/Code/variables`` for any other value.
    static func keys(_ value: JSONValue) throws(GraphQLStoreError) -> [String] {
        if let key = value.stringValue { return [key] }
        if case .array(let elements) = value {
            var keys: [String] = []
            for element in elements {
                guard let key = element.stringValue else { break }
                keys.append(key)
            }
            if keys.count == elements.count { return keys }
        }
        throw GraphQLStoreError(
            .variables,
            "The connections of a mutation directive must be a list of connection keys (strings), not \(value.canonicalText)."
        )
    }
}
