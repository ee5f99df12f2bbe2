import GraphQL

/// The Swift names of a module's top-level types: the schema's enums and
/// input objects, the operations and the fragments, made once for all the
/// files generated together so that no two share a name.
///
/// Each takes ``SwiftNames/typeName(_:)`` of its GraphQL name (an operation
/// with `Query`, `Mutation` or `Subscription` after it, unless it ends so
/// already). Where two would take the same name, or a reserved one, a name
/// already written as the GraphQL name has it first; then the schema's types,
/// the operations and the fragments in that order, each kind by its GraphQL
/// name; the others add `_` until the name is free. Every enum and input
/// object of the schema takes part, used or not, so that a name does not
/// change when a document starts using another type.
struct TopLevelNames {
    /// The kinds of top-level type.
    enum Kind: Int, Comparable {
        case schemaType, operation, fragment

        static func < (lhs: Kind, rhs: Kind) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    private var names: [Kind: [String: String]] = [:]
    /// Every name taken, the reserved ones included: no nested type takes one.
    private(set) var taken: Set<String>

    /// Names the types of a schema and documents.
    /// - Parameter reserved: names no type may take (the modules imported).
    init(schema: GraphQLSchema, documents: OperationDocuments, reserved: Set<String>) {
        var wanted: [(kind: Kind, name: String, candidate: String)] = []
        for (name, type) in schema.typeMap where !name.hasPrefix("__") {
            if type is GraphQLEnumType || type is GraphQLInputObjectType {
                wanted.append((.schemaType, name, SwiftNames.typeName(name)))
            }
        }
        for file in documents.files {
            for operation in file.operations {
                guard let name = operation.name?.value else { continue }
                wanted.append((.operation, name, Self.operationTypeName(name, operation.operation)))
            }
            for fragment in file.fragments {
                wanted.append((.fragment, fragment.name.value, SwiftNames.typeName(fragment.name.value)))
            }
        }
        wanted.sort { lhs, rhs in
            let lhsAsWritten = lhs.candidate == lhs.name
            let rhsAsWritten = rhs.candidate == rhs.name
            if lhsAsWritten != rhsAsWritten { return lhsAsWritten }
            if lhs.kind != rhs.kind { return lhs.kind < rhs.kind }
            return lhs.name < rhs.name
        }
        // The names of the members every generated type may have too (`Variables`, `Data`): a
        // top-level type of that name would be hidden inside them.
        taken = reserved.union(SwiftNames.reservedNestedNames)
        for entry in wanted {
            names[entry.kind, default: [:]][entry.name] = SwiftNames.claim(entry.candidate, in: &taken)
        }
    }

    /// `viewerInfo` → `ViewerInfoQuery`; `HeroQuery` stays.
    static func operationTypeName(_ name: String, _ operation: OperationType) -> String {
        let base = SwiftNames.typeName(name)
        let suffix = SwiftNames.typeName(operation.rawValue)
        return base.hasSuffix(suffix) ? base : base + suffix
    }

    /// The Swift name of a schema enum or input object.
    func schemaType(_ name: String) -> String {
        names[.schemaType]?[name] ?? SwiftNames.typeName(name)
    }

    /// The Swift name of an operation.
    func operation(_ name: String) -> String {
        names[.operation]?[name] ?? SwiftNames.typeName(name)
    }

    /// The Swift name of a fragment.
    func fragment(_ name: String) -> String {
        names[.fragment]?[name] ?? SwiftNames.typeName(name)
    }
}
