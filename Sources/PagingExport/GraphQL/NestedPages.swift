import Foundation
import PagingGraphQLClient

/// A node that holds inner connections: its id and type, as the prepared query asks for them.
struct ParentNode: Sendable, Equatable {
    /// The node's global id.
    var id: String
    /// The node's GraphQL type.
    var type: String

    /// Reads them from a node.
    /// - Throws: ``ExportError`` (``ExportError/Code/malformedPage``) when the node gives no id
    ///   or type (its type has no `id`).
    init(_ node: JSONValue, level: String) throws(ExportError) {
        let id = node[NestedDocument.idKey]
        guard let type = node[NestedDocument.typeKey]?.stringValue,
            let text = id?.stringValue ?? id?.intValue.map(String.init)
        else {
            throw ExportError(
                .malformedPage,
                "a node of \"\(level)\" came without an id; paging the connections inside it needs the id, which node(id:) takes (the Node interface)."
            )
        }
        self.id = text
        self.type = type
    }

    /// A node known by its id and type.
    init(id: String, type: String) {
        self.id = id
        self.type = type
    }
}

/// One page of an inner connection: the connection object as the server gave it, and what the
/// library reads in it.
struct InnerPage: Sendable {
    /// The connection object, with its `edges` or `nodes`, `pageInfo` and the rest.
    var connection: JSONValue
    /// The nodes, cursors and page info.
    var page: ConnectionPage
    /// The cursor of the next page; `nil` when this page is the last.
    var next: String?
}

/// Loads the pages of inner connections for a nested export, through their `node(id:)` queries.
struct NestedPages: Sendable {
    /// The client.
    let client: GraphQLClient
    /// The user's variables (`--variables`).
    let variables: [String: JSONValue]
    /// The page size asked of every connection whose count is a variable.
    let pageSize: Int
    /// Told of every inner page.
    let progress: ProgressLog

    /// The count variables to send for these levels: each level's `first:` variable, unless
    /// the document gives the count as a literal.
    func countVariables(_ levels: [NestedLevel]) -> [String: JSONValue] {
        Self.countVariables(levels, pageSize: pageSize)
    }

    /// The count variables to send for these levels, for a page size.
    static func countVariables(_ levels: [NestedLevel], pageSize: Int) -> [String: JSONValue] {
        var values: [String: JSONValue] = [:]
        for level in levels {
            guard let name = level.template.variables.first else { continue }
            values[name] = .int(pageSize)
        }
        return values
    }

    /// The first page of a level's connection, as the node holds it.
    /// - Throws: the client's error when the connection is missing or has the wrong shape, or says
    ///   ``ExportError`` when it has more without a cursor.
    func firstPage(of level: NestedLevel, in node: JSONValue) throws -> InnerPage {
        let page = try level.page(in: node)
        let path = Array(level.template.connectionPath.dropFirst())
        let inner = try Self.next(of: page, level: level, after: nil)
        progress.inner(nodes: page.nodes.count, pages: 1)
        return InnerPage(connection: node[path: path] ?? .null, page: page, next: inner)
    }

    /// Loads a page of a level's connection of a node.
    /// - Parameters:
    ///   - level: the connection.
    ///   - parent: the node it belongs to.
    ///   - after: the cursor to ask for the page with; `nil` for the first page.
    /// - Returns: the page; `nil` when the server no longer has the node.
    /// - Throws: the client's error, or ``ExportError`` for GraphQL errors next to the data and
    ///   for a page that cannot be used.
    func page(of level: NestedLevel, parent: ParentNode, after: String?) async throws -> InnerPage? {
        let query = try level.nodeQuery(type: parent.type)
        var values = variables.filter { query.declaredVariables.contains($0.key) }
        values.merge(countVariables([level] + level.descendants)) { _, count in count }
        values[NestedDocument.idVariable] = .string(parent.id)
        if let cursor = level.template.variables.after {
            values[cursor] = after.map(JSONValue.string) ?? .null
        }
        let response = try await client.send(
            UntypedOperation(document: query.text, operationName: query.operationName, variables: values))
        let place =
            "the page of \"\(level.name)\" of node '\(parent.id)'"
            + (after.map { " after cursor '\($0)'" } ?? "")
        if !response.errors.isEmpty {
            let count = response.errors.count
            throw ExportError(
                .innerPageErrors,
                """
                the server reported \(count) GraphQL error\(count == 1 ? "" : "s") next to the data of \(place):
                \(PartialDataError.list(response.errors))
                Nothing of that page was written. Fix the query (the errors say where); a server without \
                node(id:) cannot page a connection inside another past its first page.
                """)
        }
        guard let data = response.data, let node = data[NestedDocument.nodeKey], !node.isNull else {
            return nil
        }
        let page = try level.template.extractPage(from: data)
        let next = try Self.next(of: page, level: level, after: after)
        progress.inner(nodes: page.nodes.count, pages: 1)
        return InnerPage(
            connection: data[path: level.template.connectionPath] ?? .null, page: page, next: next)
    }

    /// The cursor of the page after this one; `nil` at the end.
    private static func next(of page: ConnectionPage, level: NestedLevel, after: String?) throws(ExportError)
        -> String?
    {
        guard page.pageInfo.hasNextPage else { return nil }
        guard let end = page.pageInfo.endCursor else {
            throw ExportError(
                .malformedPage,
                "the server says the connection \"\(level.name)\" has a next page but gives no endCursor to load it; report the server bug."
            )
        }
        guard end != after else {
            throw ExportError(
                .repeatedCursor,
                "the server answered the page of \"\(level.name)\" after cursor '\(end)' with that same cursor as the next one; following it would loop forever."
            )
        }
        return end
    }

    /// The error of an inner connection whose next cursor is one this export already followed
    /// for it: the server's cursors go round in a cycle.
    static func repeated(_ cursor: String, level: NestedLevel, parent: ParentNode) -> ExportError {
        ExportError(
            .repeatedCursor,
            "the server answered a page of \"\(level.name)\" of node '\(parent.id)' with the next cursor '\(cursor)', which this export already followed for that connection; following it again would loop forever."
        )
    }

    /// A node as written: without the id and type the export asked for.
    static func cleaned(_ node: JSONValue) -> JSONValue {
        guard case .object(var members) = node else { return node }
        members[NestedDocument.idKey] = nil
        members[NestedDocument.typeKey] = nil
        return .object(members)
    }

    /// Completes a node for the nested output: each of its inner connections paged to its end,
    /// its edges or nodes all in it (each completed in turn), the rest as the last page gave
    /// it.
    /// - Complexity: one request per inner page after the first, at every level below.
    func complete(_ node: JSONValue, levels: [NestedLevel]) async throws -> JSONValue {
        guard !levels.isEmpty else { return Self.cleaned(node) }
        let parent = try ParentNode(node, level: levels[0].name)
        var result = Self.cleaned(node)
        for level in levels {
            var page = try firstPage(of: level, in: node)
            var connection = page.connection
            let template = level.template
            var edges: [JSONValue] = []
            var nodes: [JSONValue] = []
            // Each cursor of this connection is asked for once: a server whose cursors cycle
            // (A, B, A) would otherwise be followed, and its items written, until killed.
            var followed: Set<String> = []
            while true {
                if let key = template.edgesKey { edges += connection[key]?.arrayValue ?? [] }
                if let key = template.nodesKey { nodes += connection[key]?.arrayValue ?? [] }
                try Task.checkCancellation()
                guard let next = page.next else { break }
                guard followed.insert(next).inserted else {
                    throw Self.repeated(next, level: level, parent: parent)
                }
                guard let loaded = try await self.page(of: level, parent: parent, after: next) else {
                    progress.noteGone(parent, level: level)
                    break
                }
                page = loaded
                connection = loaded.connection
            }
            if !level.children.isEmpty {
                if let nodeKey = template.edgeNodeKey {
                    for index in edges.indices {
                        guard case .object(var edge) = edges[index], let inner = edge[nodeKey], !inner.isNull
                        else { continue }
                        edge[nodeKey] = try await complete(inner, levels: level.children)
                        edges[index] = .object(edge)
                    }
                }
                for index in nodes.indices where !nodes[index].isNull {
                    nodes[index] = try await complete(nodes[index], levels: level.children)
                }
            }
            if case .object(var members) = connection {
                if let key = template.edgesKey, members[key] != nil { members[key] = .array(edges) }
                if let key = template.nodesKey, members[key] != nil { members[key] = .array(nodes) }
                connection = .object(members)
            }
            result = Self.setting(connection, at: Array(template.connectionPath.dropFirst()), in: result)
        }
        return result
    }

    /// A value with another value put at a path of keys (objects on the way are kept; the value
    /// is left as it is when the path does not lead through objects).
    static func setting(_ value: JSONValue, at path: [GraphQLPathSegment], in object: JSONValue) -> JSONValue
    {
        guard let first = path.first else { return value }
        guard case .key(let key) = first, case .object(var members) = object, let inner = members[key] else {
            return object
        }
        members[key] = setting(value, at: Array(path.dropFirst()), in: inner)
        return .object(members)
    }
}
