extension StoreNormalizer {
    /// What the mutation directives of a write ask besides the records.
    struct DirectiveEffects {
        /// The connection edits, in the order of the data: for each field,
        /// each record, then each connection.
        var edits: [StoreConnectionEdit] = []
        /// The records to delete, each once, in the order of the data.
        var deletions: [CacheKey] = []
    }

    /// The connection edits and deletions that the mutation directives met
    /// while normalizing ask for.
    ///
    /// An edge's node is its `node` field: the edge holds it in place, or,
    /// for an edge with an identity, in the edge's record written. A bare
    /// ID becomes a record key
    /// by the store's key rules, given the directive's `typename:` as the
    /// `__typename` when it has one.
    /// - Throws: ``GraphQLStoreError/Code/data`` when an ID cannot be made a
    ///   record key, or an edge has no `node`;
    ///   ``GraphQLStoreError/Code/variables`` when a variable of a directive
    ///   has no value or a value of the wrong kind.
    /// - Complexity: O(*d* + *e*) for *d* values under directives and *e*
    ///   records written; O(1) when the document has no directive.
    func directiveEffects() throws(GraphQLStoreError) -> DirectiveEffects {
        var effects = DirectiveEffects()
        guard !directiveSites.isEmpty else { return effects }
        let nodes = edgeNodes()
        var deleted: Set<CacheKey> = []
        for site in directiveSites {
            for directive in site.directives {
                // The connections first: a variable without a value is the
                // document's error, whatever the data.
                let kind = directive.action.editKind
                let connections = kind == nil ? [] : try connectionKeys(of: directive, path: site.path)
                var records: [CacheKey] = []
                try collectRecords(
                    of: site.value, for: directive, nodes: nodes, path: site.path, into: &records)
                guard let kind else {
                    for record in records where deleted.insert(record).inserted {
                        effects.deletions.append(record)
                    }
                    continue
                }
                for record in records {
                    for connection in connections {
                        effects.edits.append(
                            StoreConnectionEdit(connection: connection, kind: kind, record: record))
                    }
                }
            }
        }
        return effects
    }

    /// The `node` value of each edge record under an edge directive.
    private func edgeNodes() -> [CacheKey: StoreValue] {
        var edges: Set<CacheKey> = []
        /// The edges with an identity: references, in lists or not.
        func collect(_ value: StoreValue) {
            switch value {
            case .reference(let key): edges.insert(key)
            case .list(let elements): elements.forEach(collect)
            case .scalar, .object: break
            }
        }
        for site in directiveSites where site.directives.contains(where: \.action.takesEdges) {
            collect(site.value)
        }
        guard !edges.isEmpty else { return [:] }
        var nodes: [CacheKey: StoreValue] = [:]
        for entry in entries where edges.contains(entry.key) {
            if let node = entry.fields.first(where: { $0.name == "node" }) { nodes[entry.key] = node.value }
        }
        return nodes
    }

    /// Appends the records a directive's value names: edges' nodes, nodes,
    /// or the records of IDs, through lists at any depth; `null`s name none.
    private func collectRecords(
        of value: StoreValue, for directive: StoreMutationDirective, nodes: [CacheKey: StoreValue],
        path: [GraphQLPathSegment], into records: inout [CacheKey]
    ) throws(GraphQLStoreError) {
        switch value {
        case .reference(let key):
            guard directive.action.takesEdges else {
                records.append(key)
                return
            }
            try collectNode(nodes[key], for: directive, path: path, into: &records)
        case .object(let edge):
            guard directive.action.takesEdges else {
                throw GraphQLStoreError(
                    .data,
                    "The object at \(GraphQLPathSegment.describe(path)) has no identity, so @\(directive.action.rawValue) has no record to name; select its id (and __typename), or put the directive on its ID.",
                    path: path)
            }
            try collectNode(edge["node"], for: directive, path: path, into: &records)
        case .list(let elements):
            for element in elements {
                try collectRecords(of: element, for: directive, nodes: nodes, path: path, into: &records)
            }
        case .scalar(let json):
            try collectRecords(ofIDs: json, for: directive, path: path, into: &records)
        }
    }

    /// Appends the records of IDs: one ID, or lists of them.
    /// The node of an edge, for a directive that takes edges.
    private func collectNode(
        _ node: StoreValue?, for directive: StoreMutationDirective, path: [GraphQLPathSegment],
        into records: inout [CacheKey]
    ) throws(GraphQLStoreError) {
        guard let node else {
            throw GraphQLStoreError(
                .data,
                "The edge at \(GraphQLPathSegment.describe(path)) has no node, so @\(directive.action.rawValue) has nothing to add; make sure the data selects the edge's node.",
                path: path)
        }
        switch node {
        case .reference(let node): records.append(node)
        case .scalar(.null): break
        default:
            throw GraphQLStoreError(
                .data,
                "The node of the edge at \(GraphQLPathSegment.describe(path)) is \(node), not one object with an identity, so @\(directive.action.rawValue) cannot add it.",
                path: path)
        }
    }

    private func collectRecords(
        ofIDs json: JSONValue, for directive: StoreMutationDirective, path: [GraphQLPathSegment],
        into records: inout [CacheKey]
    ) throws(GraphQLStoreError) {
        switch json {
        case .null:
            return
        case .array(let elements):
            for element in elements {
                try collectRecords(ofIDs: element, for: directive, path: path, into: &records)
            }
        case .string, .int:
            var object: [String: JSONValue] = ["id": json]
            if let typename = try typename(of: directive, path: path) {
                object["__typename"] = .string(typename)
            }
            guard let key = keying.key(for: object) else {
                throw GraphQLStoreError(
                    .data,
                    "The store's key rules give no record key for the ID \(json.canonicalText) of @\(directive.action.rawValue) at \(GraphQLPathSegment.describe(path)); pass the type with typename:, or select the object instead of its ID.",
                    path: path)
            }
            records.append(key)
        default:
            throw GraphQLStoreError(
                .data,
                "@\(directive.action.rawValue) at \(GraphQLPathSegment.describe(path)) needs an ID or an object, not \(json.canonicalText).",
                path: path)
        }
    }

    /// The value of a directive's `typename:` argument, if any.
    private func typename(of directive: StoreMutationDirective, path: [GraphQLPathSegment])
        throws(GraphQLStoreError) -> String?
    {
        guard let value = directive.typename?.resolved(variables), !value.isNull else { return nil }
        guard let typename = value.stringValue else {
            throw GraphQLStoreError(
                .variables,
                "The typename of @\(directive.action.rawValue) at \(GraphQLPathSegment.describe(path)) must be a string, not \(value.canonicalText).",
                path: path)
        }
        return typename
    }

    /// The connection keys of a directive, variables resolved.
    private func connectionKeys(of directive: StoreMutationDirective, path: [GraphQLPathSegment])
        throws(GraphQLStoreError) -> [String]
    {
        guard let value = directive.connections?.resolved(variables) else {
            throw GraphQLStoreError(
                .variables,
                "The connections of @\(directive.action.rawValue) at \(GraphQLPathSegment.describe(path)) come from a variable that has no value; pass the connection keys.",
                path: path)
        }
        return try StoreMutationDirective.keys(value)
    }
}
