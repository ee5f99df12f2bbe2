import Foundation
import PagingGraphQLClient

/// Exports a Relay connection through its analysed document: forward with `first`/`after`, or
/// backward with `last`/`before` (then each page's nodes are written last to first, so that the
/// whole export is the list in reverse order).
///
/// Not a way to page of its own: it reads each page with the connection analysis every
/// connection list uses (`ConnectionDocument.extractPage(from:)`); what it adds is what an
/// export needs, a cursor after each node and the nodes a GraphQL error reached.
struct GraphQLConnectionSource: ExportSource {
    /// The client.
    let client: GraphQLClient
    /// The analysed document.
    let document: ConnectionDocument
    /// The document's other variables.
    let variables: [String: JSONValue]
    /// Whether the export pages backward from the end.
    let backward: Bool
    /// The page size the document gives as a literal (`first: 100`), which every request asks
    /// for; `nil` when the count is a variable the export sets.
    let fixedCount: Int?
    /// The text sent: the document's, or one prepared further (a ``NestedDocument``'s).
    let text: String

    /// Checks that the document can page in the direction asked for.
    /// - Parameters:
    ///   - client: the client.
    ///   - document: the analysed document.
    ///   - text: the text to send instead of the document's, when it is prepared further.
    ///   - variables: the document's other variables.
    ///   - backward: whether to page backward from the end.
    /// - Throws: ``ExportError`` (``ExportError/Code/unpageableQuery``) when it cannot.
    init(
        client: GraphQLClient, document: ConnectionDocument, text: String? = nil,
        variables: [String: JSONValue],
        backward: Bool
    )
        throws(ExportError)
    {
        let names = document.variables
        if backward {
            guard names.last != nil || names.fixedLast != nil, names.before != nil else {
                throw ExportError(
                    .unpageableQuery,
                    "the connection \"\(document.connectionFieldName)\" does not take last: and before: as variables, so it cannot be paged backward; add `last: $last, before: $before` to it, or page it forward."
                )
            }
        } else {
            guard names.first != nil || names.fixedFirst != nil, names.after != nil else {
                throw ExportError(
                    .unpageableQuery,
                    "the connection \"\(document.connectionFieldName)\" does not take first: and after: as variables, so it cannot be paged forward; add `first: $first, after: $after`, or page it backward if it takes last: and before:."
                )
            }
        }
        self.client = client
        self.document = document
        self.text = text ?? document.text
        self.variables = variables
        self.backward = backward
        fixedCount = backward ? names.fixedLast : names.fixedFirst
    }

    /// The variables of the request for a page.
    func requestVariables(cursor: String?, count: Int) -> [String: JSONValue] {
        var values = variables
        let names = document.variables
        let forward = [names.first, names.after]
        let back = [names.last, names.before]
        let (countName, cursorName, others) =
            backward ? (names.last, names.before, forward) : (names.first, names.after, back)
        for case let name? in others { values[name] = .null }
        // A literal count is the variable's default: not sending the variable keeps it.
        if let countName, fixedCount == nil { values[countName] = .int(count) }
        if let cursorName { values[cursorName] = cursor.map(JSONValue.string) ?? .null }
        return values
    }

    func page(at cursor: String?, count: Int) async throws -> ExportPage {
        let request = UntypedOperation(
            document: text, operationName: document.operationName,
            variables: requestVariables(cursor: cursor, count: count))
        let response = try await client.send(request)
        let page = try document.extractPage(from: response)
        let info = page.pageInfo
        var items = page.nodes
        var cursors = page.cursors
        let next: String?
        if backward {
            items.reverse()
            cursors.reverse()
            next = info.hasPreviousPage ? info.startCursor : nil
            if info.hasPreviousPage, next == nil {
                throw ExportError(
                    .malformedPage,
                    "the server says the connection has a previous page but gives no startCursor to load it; select pageInfo { startCursor } or report the server bug."
                )
            }
        } else {
            next = info.hasNextPage ? info.endCursor : nil
            if info.hasNextPage, next == nil {
                throw ExportError(
                    .malformedPage,
                    "the server says the connection has a next page but gives no endCursor to load it; select pageInfo { endCursor } or report the server bug."
                )
            }
        }
        var exported = ExportPage(
            items: items, resumeCursors: cursors, next: next, totalCount: page.totalCount,
            errors: response.errors)
        if !response.errors.isEmpty {
            let reach = Self.reach(of: response.errors, in: response.data, document: document)
            exported.itemsWithErrors = Set(reach.nodes.map { backward ? items.count - 1 - $0 : $0 })
            exported.missingItems = reach.missing
        }
        return exported
    }

    /// Which of a page's nodes the errors of its response put a `null` in, by position among the
    /// nodes ``ConnectionDocument/extractPage(from:)-(JSONValue)`` reads, and how many nodes they
    /// made `null` (which the page leaves out).
    /// - Complexity: O(*n* + *e* × *d*) for *n* edges and *e* errors *d* segments deep.
    static func reach(of errors: [GraphQLResponseError], in data: JSONValue?, document: ConnectionDocument)
        -> (nodes: Set<Int>, missing: Int)
    {
        let connection = data?[path: document.connectionPath]
        // The list, and in each entry the node, as the page was read.
        let listKey: String
        let nodeKey: String?
        let entries: [JSONValue]
        if let edgesKey = document.edgesKey, let edgeNodeKey = document.edgeNodeKey,
            let edges = connection?[edgesKey], !edges.isNull
        {
            (listKey, nodeKey, entries) = (edgesKey, edgeNodeKey, edges.arrayValue ?? [])
        } else if let nodesKey = document.nodesKey, let nodes = connection?[nodesKey], !nodes.isNull {
            (listKey, nodeKey, entries) = (nodesKey, nil, nodes.arrayValue ?? [])
        } else {
            return ([], 0)
        }
        var positions: [Int?] = []
        var kept = 0
        for entry in entries {
            let node = nodeKey.map { entry[$0] } ?? entry
            if let node, !node.isNull {
                positions.append(kept)
                kept += 1
            } else {
                positions.append(nil)
            }
        }
        let list = document.connectionPath + [.key(listKey)]
        var nodes: Set<Int> = []
        var missing: Set<Int> = []
        for error in errors {
            guard let path = error.path, path.count > list.count, path.starts(with: list),
                case .index(let index) = path[list.count], positions.indices.contains(index)
            else { continue }
            guard let position = positions[index] else {
                missing.insert(index)
                continue
            }
            let nodePath = list + [.index(index)] + (nodeKey.map { [.key($0)] } ?? [])
            if path.count > nodePath.count, path.starts(with: nodePath) { nodes.insert(position) }
        }
        return (nodes, missing.count)
    }
}
