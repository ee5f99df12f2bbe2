public import Paging

extension ConnectionDocument {
    /// The variables of the query that loads the page a request asks for.
    ///
    /// Forward (an initial request, or `.next(after:)`): `first` is the
    /// count and `after` the cursor (`null` for the start). Backward
    /// (`.previous(before:)`, or an initial request when the connection pages
    /// only backward): `last` is the count and `before` the cursor. The
    /// variables of the other direction are set to `null`, so that a default
    /// value in the document does not send `first` and `last` together.
    ///
    /// ```swift
    /// let variables = document.variables(for: PageRequest(.next(after: "c20"), count: 20), merging: ["site": "KSC"])
    /// // ["site": "KSC", "first": 20, "after": "c20", "last": null, "before": null]
    /// ```
    /// - Parameters:
    ///   - request: the engine's request; its key is a cursor.
    ///   - base: other variables of the operation, kept unless they are the
    ///     pagination variables.
    /// - Returns: the variables to send with ``text``.
    public func variables(for request: PageRequest<String>, merging base: [String: JSONValue] = [:])
        -> [String: JSONValue]
    {
        var values = base
        let forward: Bool
        let cursor: String?
        switch request.position {
        case .initial(let key):
            forward = variables.pagesForward || !variables.pagesBackward
            cursor = key
        case .next(let key):
            forward = true
            cursor = key
        case .previous(let key):
            forward = false
            cursor = key
        }
        let (count, position, otherCount, otherPosition) =
            forward
            ? (variables.first, variables.after, variables.last, variables.before)
            : (variables.last, variables.before, variables.first, variables.after)
        if let count { values[count] = .int(request.count) }
        if let position { values[position] = cursor.map(JSONValue.string) ?? .null }
        if let otherCount { values[otherCount] = .null }
        if let otherPosition { values[otherPosition] = .null }
        return values
    }

    /// The engine's page for a connection page: its nodes, with the end
    /// cursor as the next key while `hasNextPage` holds and the start cursor
    /// as the previous key while `hasPreviousPage` holds, each only in a
    /// direction the document can page in.
    /// - Parameter page: a page read by ``extractPage(from:)-(JSONValue)``.
    /// - Returns: the page for a `PageSource`.
    public func page(from page: ConnectionPage) -> Page<String, JSONValue> {
        let info = page.pageInfo
        return Page(
            items: page.nodes,
            previousKey: variables.pagesBackward && info.hasPreviousPage ? info.startCursor : nil,
            nextKey: variables.pagesForward && info.hasNextPage ? info.endCursor : nil
        )
    }
}
