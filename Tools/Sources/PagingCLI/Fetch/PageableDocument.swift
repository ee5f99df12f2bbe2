import GraphQL
import PagingGraphQLClient

/// Makes a ``ConnectionDocument`` from a query given on the command line: one that marks its
/// connection with `@connection`, or one whose connection takes `after:` (or `before:`) as a
/// variable and selects `pageInfo`, `edges` or `nodes`, which gets the directive added. Any
/// cursor variable name will do (gh's `$endCursor`, Apollo's `$cursor`), and a page size given
/// as a literal is kept (the analysis reads it as `PaginationVariables.fixedFirst` or
/// `fixedLast`).
enum PageableDocument {
    /// The key given to a connection that had no `@connection`.
    static let addedKey = "paging_connection"

    /// Analyses a document for paging.
    /// - Parameters:
    ///   - text: the GraphQL document.
    ///   - connectionKey: the `@connection` to page, when there are several.
    ///   - operationName: the operation to run, when there are several.
    /// - Returns: the document, ready to page.
    /// - Throws: ``CLIError`` (usage) saying why the document cannot be paged and what to change.
    static func make(_ text: String, connectionKey: String?, operationName: String?) throws(CLIError)
        -> ConnectionDocument
    {
        do {
            return try ConnectionDocument(text, connectionKey: connectionKey, operationName: operationName)
        } catch let error where error.code == .noConnection && connectionKey == nil {
            let marked = try markConnection(in: text)
            do {
                return try ConnectionDocument(marked, connectionKey: addedKey, operationName: operationName)
            } catch {
                throw usage(error)
            }
        } catch {
            throw usage(error)
        }
    }

    private static func usage(_ error: GraphQLDocumentError) -> CLIError {
        .usage("the query cannot be paged: \(error.description)")
    }

    /// The document with `@connection(key:)` added to its only field that pages by cursor.
    static func markConnection(in text: String) throws(CLIError) -> String {
        let document: Document
        do {
            document = try GraphQL.parse(source: text)
        } catch {
            throw .usage("the query cannot be paged: it does not parse: \(error).")
        }
        var candidates: [(name: String, offset: Int)] = []
        for definition in document.definitions {
            if let operation = definition as? OperationDefinition {
                collect(operation.selectionSet, into: &candidates)
            } else if let fragment = definition as? FragmentDefinition {
                collect(fragment.selectionSet, into: &candidates)
            }
        }
        guard let candidate = candidates.first else {
            throw .usage(
                """
                the query cannot be paged: no field takes after: (or before:) as a variable and selects \
                pageInfo, edges or nodes. Write the connection as, for example, \
                `launchConnection(first: $first, after: $after) { edges { node { id } } pageInfo { hasNextPage endCursor } }` \
                with `query($first: Int, $after: String)`, or mark it with @connection(key: "Name").
                """)
        }
        guard candidates.count == 1 else {
            throw .usage(
                "the query cannot be paged: \(candidates.count) fields page by cursor (\(candidates.map(\.name).joined(separator: ", "))); mark the one to page with @connection(key: \"Name\")."
            )
        }
        var bytes = Array(text.utf8)
        let directive = Array(" @connection(key: \"\(addedKey)\") ".utf8)
        bytes.insert(contentsOf: directive, at: min(candidate.offset, bytes.count))
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The fields that page by cursor, at any depth (through inline fragments, not spreads: each
    /// fragment definition is looked at on its own), with where their selections start.
    private static func collect(
        _ selectionSet: SelectionSet, into candidates: inout [(name: String, offset: Int)]
    ) {
        for field in SelectionWalker.fields(in: selectionSet) where pagesByCursor(field) {
            if let offset = field.selectionSet?.loc?.start {
                candidates.append((field.alias?.value ?? field.name.value, offset))
            }
        }
    }

    private static func pagesByCursor(_ field: Field) -> Bool {
        let cursorArgument = field.arguments.contains { argument in
            (argument.name.value == "after" || argument.name.value == "before") && argument.value is Variable
        }
        let connectionShape =
            field.selectionSet?.selections.contains { selection in
                guard let inner = selection as? Field else { return false }
                return ["pageInfo", "edges", "nodes"].contains(inner.name.value)
            } ?? false
        return cursorArgument && connectionShape
    }
}
