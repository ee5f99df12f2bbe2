/// The data of a `@refetchable` fragment with a `@connection` field, as
/// `paging codegen` writes it: the fragment's text and its list's node type,
/// from which ``paginationFragment(client:nodeID:)`` makes the list.
///
/// ```swift
/// let rocket = try await client.send(RocketPageQuery(id: "falcon9")).data?.rocket
/// let launches = try rocket?.rocketLaunches_rocket.paginationFragment(client: client).makeList()
/// ```
///
/// A generated fragment that selects `id` also gets
/// `paginationFragment(client:)`, which passes its `id` as the node id.
public protocol RefetchableFragmentData: Encodable, Sendable {
    /// A node of the fragment's `@connection` list.
    associatedtype ListNode: Decodable & Sendable
    /// The fragment as written, its directives included, with the fragments
    /// it uses: ``PaginationFragmentDocument`` reads it.
    static var paginationDocument: String { get }
}

extension RefetchableFragmentData {
    /// The fragment's list, starting from this data as the parent query
    /// fetched it: its nodes are the first page, and the refetch query asks
    /// only for the pages after it (as Relay does). Make a pager or a list
    /// of it (`makePager(configuration:)`, `makeList(configuration:)`).
    /// - Parameters:
    ///   - client: the client the refetch query is sent with.
    ///   - nodeID: the id of the object the fragment is on, `nil` for `Query`.
    /// - Returns: the fragment's pager source.
    /// - Throws: `GraphQLDocumentError` or ``GraphQLPagerError`` if the
    ///   fragment cannot be paged, `EncodingError` if the data cannot be read
    ///   as JSON.
    /// - Complexity: O(*n*) for a fragment of *n* characters and data of *n* values.
    public func paginationFragment(client: GraphQLClient, nodeID: String?) throws
        -> PaginationFragment<ListNode>
    {
        try PaginationFragment(
            PaginationFragmentDocument(Self.paginationDocument), nodeID: nodeID, client: client,
            as: ListNode.self
        )
        .startingFrom(JSONValue(encoding: self))
    }
}
