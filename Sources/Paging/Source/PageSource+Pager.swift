extension PageSource where Item: Identifiable, Item.ID: Sendable {
    /// Makes a pager over this source.
    ///
    /// It calls ``Pager/init(source:initialKey:configuration:)``: a pager over
    /// a store-backed source of PagingGraphQL follows its store.
    ///
    /// ```swift
    /// let pager = LaunchesSource().makePager()
    /// try await pager.loadNext().value
    /// ```
    /// - Parameters:
    ///   - initialKey: the key of the first page; `nil` for the start.
    ///   - configuration: page sizes, prefetch, window, refresh policy.
    /// - Returns: a pager that loads nothing until asked.
    /// - Complexity: O(1).
    public func makePager(initialKey: Key? = nil, configuration: PagingConfiguration = .default) -> Pager<
        Key, Item
    > {
        Pager(source: self, initialKey: initialKey, configuration: configuration)
    }

    /// Makes an `@Observable` list model over this source, for SwiftUI and
    /// other main-actor code, over a pager made by
    /// ``makePager(initialKey:configuration:)``.
    /// - Parameters:
    ///   - initialKey: the key of the first page; `nil` for the start.
    ///   - configuration: page sizes, prefetch, window, refresh policy.
    /// - Returns: a list that loads nothing until asked.
    /// - Complexity: O(1).
    @MainActor
    public func makeList(initialKey: Key? = nil, configuration: PagingConfiguration = .default) -> PagedList<
        Key, Item
    > {
        PagedList(pager: makePager(initialKey: initialKey, configuration: configuration))
    }
}
