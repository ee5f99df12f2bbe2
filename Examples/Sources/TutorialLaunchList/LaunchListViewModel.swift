import Foundation
import Observation
import Paging
import PagingGraphQL

/// A launch as the tutorial's list shows it: the generated type of `LaunchList.graphql`.
typealias LaunchListItem = LaunchListQuery.Data.Launches.Launch

/// The tutorial's launch list, as its "Paginate results" chapter builds it: fetch
/// `LaunchListQuery(cursor:)`, append the launches, and fetch again from the connection's
/// `cursor` while `hasMore` is true. The bookkeeping the tutorial writes by hand (the last
/// connection, a request in flight, the end of the list) is the pager's.
@MainActor
@Observable
final class LaunchListViewModel {
    /// The launches loaded so far, newest first.
    var launches: PagedItems<LaunchListItem> { list.items }
    /// Whether more launches follow the ones loaded.
    var hasMore: Bool { list.pager.hasNext }

    private let list: PagedList<String, LaunchListItem>

    /// Creates the list over a client of the launch server.
    /// - Parameter client: the client whose endpoint serves the tutorial's schema.
    init(client: GraphQLClient) throws {
        let source = HasMoreCursorSource<String, LaunchListItem> { _, cursor in
            // The tutorial's query takes no page size: the server's default, 20, applies.
            let data = try await client.send(LaunchListQuery(cursor: cursor)).data
            guard let connection = data?.launches else {
                return HasMorePage(items: [], cursor: nil, hasMore: false)
            }
            return HasMorePage(
                items: connection.launches.compactMap { $0 }, cursor: connection.cursor,
                hasMore: connection.hasMore)
        }
        list = source.makeList(configuration: try PagingConfiguration(pageSize: 20, prefetchDistance: 5))
    }

    /// The tutorial's `loadMoreLaunchesIfTheyExist()`: the next page, unless the list is at its end
    /// (or a page is already loading: a second tap joins it).
    func loadMoreLaunchesIfTheyExist() async throws {
        guard hasMore else { return }
        _ = try await list.loadNext().value
    }
}
