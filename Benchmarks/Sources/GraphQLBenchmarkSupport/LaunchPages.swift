import BenchmarkSupport
import Foundation
import Paging
import PagingGraphQLClient

// The launch list of the GraphQL benchmarks: a `ConnectionSource` over a client with a
// `GraphQLStore`, over a transport that answers at once with the page after the request's `after`
// cursor (`edges { cursor node { __typename id name } }` and `pageInfo`), so that what is timed
// is the library: parsing, the store, the list following it.

/// The list's document.
public let launchListDocument = """
    query Launches($first: Int, $after: String) {
      launches(first: $first, after: $after) @connection(key: "Launches_launches") {
        edges { cursor node { id name } }
        pageInfo { endCursor hasNextPage }
      }
    }
    """

/// A launch as the list shows it.
public struct Launch: Codable, Identifiable, Sendable {
    /// The launch's id.
    public let id: String
    /// Its name.
    public let name: String

    /// Creates a launch.
    /// - Parameters:
    ///   - id: its id.
    ///   - name: its name.
    public init(id: String, name: String) {
        self.id = id
        self.name = name
    }
}

/// The body a server would answer for a page of launches, `__typename` included since the
/// client with a store asks for it.
/// - Parameters:
///   - page: the page's number, from 0.
///   - pageSize: the launches per page.
///   - pageCount: the pages in the list.
public func launchPageBody(page: Int, pageSize: Int, pageCount: Int) -> Data {
    var edges: [String] = []
    edges.reserveCapacity(pageSize)
    for index in 0..<pageSize {
        let id = page * pageSize + index
        edges.append(
            #"{"__typename":"LaunchEdge","cursor":"c\#(id)","node":{"__typename":"Launch","id":"\#(id)","name":"Launch \#(id)"}}"#
        )
    }
    let next = page + 1 < pageCount
    return Data(
        #"{"data":{"launches":{"__typename":"LaunchConnection","edges":[\#(edges.joined(separator: ","))],"pageInfo":{"__typename":"PageInfo","endCursor":"c\#(page * pageSize + pageSize - 1)","hasNextPage":\#(next)}}}}"#
            .utf8)
}

/// Answers each request at once with the page after its `after` cursor.
public struct LaunchPageTransport: GraphQLTransport {
    let pageSize: Int
    let pageCount: Int
    let body: @Sendable (Int) -> Data

    /// Creates a transport.
    /// - Parameters:
    ///   - pageSize: the launches per page.
    ///   - pageCount: the pages in the list.
    ///   - body: the body of a page, by number.
    public init(pageSize: Int, pageCount: Int, body: @escaping @Sendable (Int) -> Data) {
        self.pageSize = pageSize
        self.pageCount = pageCount
        self.body = body
    }

    /// Answers with the page the request's `after` variable asks for.
    public func send(_ request: GraphQLHTTPRequest) async throws -> GraphQLHTTPResponse {
        let body = try JSONSerialization.jsonObject(with: request.body) as? [String: Any]
        let variables = body?["variables"] as? [String: Any]
        var page = 0
        if let after = variables?["after"] as? String, let last = Int(after.dropFirst()) {
            page = (last + 1) / pageSize
        }
        guard page < pageCount else { throw URLError(.badServerResponse) }
        return GraphQLHTTPResponse(statusCode: 200, body: self.body(page))
    }
}

/// A fresh list over a fresh store.
/// - Parameters:
///   - transport: answers the list's requests.
///   - configuration: the list's paging configuration.
///   - store: the store's configuration.
@MainActor
public func makeLaunchList(
    transport: LaunchPageTransport, configuration: PagingConfiguration,
    store: GraphQLStore.Configuration = GraphQLStore.Configuration()
) throws -> PagedList<String, Launch> {
    try makeLaunchList(
        transport: transport, configuration: configuration, store: GraphQLStore(configuration: store))
}

/// A fresh list over a given store.
/// - Parameters:
///   - transport: answers the list's requests.
///   - configuration: the list's paging configuration.
///   - store: the store.
@MainActor
public func makeLaunchList(
    transport: LaunchPageTransport, configuration: PagingConfiguration, store: GraphQLStore
) throws -> PagedList<String, Launch> {
    let client = GraphQLClient(endpoint: URL(fileURLWithPath: "/graphql"), transport: transport, store: store)
    return ConnectionSource(
        client: client, document: try ConnectionDocument(launchListDocument), as: Launch.self
    )
    .makeList(configuration: configuration)
}

/// Loads the list's next page and checks that the list grew by it, or kept its window.
/// - Parameters:
///   - list: the list.
///   - pageSize: the launches per page.
@MainActor
public func loadLaunchPage(_ list: PagedList<String, Launch>, pageSize: Int) async throws {
    let before = list.items.count
    let last = list.items.last.flatMap { Int($0.id) } ?? -1
    _ = try await list.loadNext().value
    guard list.items.count == before + pageSize || list.items.last.flatMap({ Int($0.id) }) == last + pageSize
    else {
        throw BenchmarkSetupError("the list shows \(list.items.count) items after a page, \(before) before")
    }
}
