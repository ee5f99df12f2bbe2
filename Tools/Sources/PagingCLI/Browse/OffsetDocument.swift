import Paging
import PagingGraphQLClient

/// What `browse --offset` pages: a query whose field takes `$offset` and `$limit` and returns a
/// page object holding one list of nodes and, when the API counts them, `totalCount`, such as the
/// launch server's `launchPage(offset: $offset, limit: $limit) { launches { id site } totalCount }`.
///
/// Its source pages both ways from any offset (``OffsetSource`` `.bidirectional`), so the list
/// can jump; with `totalCount`, each page counts the items around it and the screen shows the whole
/// list with placeholders.
struct OffsetDocument: Sendable {
    /// The query.
    let text: String
    /// The operation to run, `nil` for the only one.
    let operationName: String?
    /// The other variables' values.
    let variables: [String: JSONValue]
    /// The node member that tells nodes apart.
    let idKey: String

    /// Checks that the query declares the two variables it is paged with.
    /// - Throws: ``CLIError`` (usage) naming the variable missing.
    init(text: String, operationName: String?, variables: [String: JSONValue], idKey: String) throws(CLIError)
    {
        for name in ["offset", "limit"] where !Self.declares(name, in: text) {
            throw .usage(
                "--offset pages a query whose field takes $offset and $limit, and the query does not declare $\(name); "
                    + "declare `($offset: Int, $limit: Int)` and pass them to the field.")
        }
        self.text = text
        self.operationName = operationName
        self.variables = variables
        self.idKey = idKey
    }

    /// Whether the text names the variable `$name` (not a longer name that starts with it).
    private static func declares(_ name: String, in text: String) -> Bool {
        var rest = Substring(text)
        while let found = rest.range(of: "$" + name) {
            let after = rest[found.upperBound...].first
            if after.map({ !($0.isLetter || $0.isNumber || $0 == "_") }) ?? true { return true }
            rest = rest[found.upperBound...]
        }
        return false
    }

    /// The source that pages the query through a client.
    func source(client: GraphQLClient) -> OffsetSource<JSONNode> {
        let document = self
        return OffsetSource(.bidirectional) { offset, limit in
            var variables = document.variables
            variables["offset"] = .int(offset)
            variables["limit"] = .int(limit)
            let operation = InlineOperation(
                document: document.text, operationName: document.operationName, variables: variables,
                as: JSONValue.self)
            let response = try await client.send(operation)
            return try document.page(from: response.data ?? .null)
        }
    }

    /// The page in a response's data: the one list member of the query's field, and its
    /// `totalCount` when it has one. A field that is `null` is an empty page.
    /// - Throws: ``CLIError`` (failed) when the data has no such list, naming what it found.
    func page(from data: JSONValue) throws(CLIError) -> OffsetPage<JSONNode> {
        guard let root = data.objectValue, root.count == 1, let field = root.values.first else {
            throw .failed(
                "--offset reads the query's one field, and the data has \(data.objectValue?.count ?? 0) fields; "
                    + "ask for one field.")
        }
        if field == .null { return OffsetPage(items: []) }
        guard let members = field.objectValue else {
            throw .failed(
                "--offset reads a page object (a list of nodes and totalCount) from the field, and it returned "
                    + "\(field.compactJSON.prefix(80)).")
        }
        let lists = members.filter { $0.value.arrayValue != nil }
        guard lists.count == 1, let nodes = lists.first?.value.arrayValue else {
            throw .failed(
                "--offset reads the one list of the page object, and it has "
                    + (lists.isEmpty
                        ? "none" : "\(lists.count): \(lists.keys.sorted().joined(separator: ", "))")
                    + "; ask for one list of nodes.")
        }
        return OffsetPage(
            items: nodes.map { JSONNode($0, idKey: idKey) }, totalCount: members["totalCount"]?.intValue)
    }
}
