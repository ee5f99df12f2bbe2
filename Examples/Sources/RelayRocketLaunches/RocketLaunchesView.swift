import Observation
import Paging
import PagingGraphQL

/// What RelaySwiftUI's `@PaginationFragment<RocketLaunches_rocket>` gives a view: the rocket's
/// launches, `loadNext(_:)`, `hasNext` and `isLoadingNext`, on the types generated from
/// `RocketLaunches.graphql`. The list starts from the launches `RocketQuery` fetched with the
/// rocket; the refetch query asks only for the pages after them.
@MainActor
@Observable
final class RocketLaunchesView {
    /// The rocket, as `RocketQuery` fetched it.
    let rocket: RocketQuery.Data.Rocket
    /// Its launches, newest first: a page of ten from the query, then the pages loaded.
    let launches: PagedList<String, RocketLaunches_rocket.ListNode>

    /// Fetches the rocket with its first launches, as the parent view's query does.
    /// - Parameters:
    ///   - id: the rocket's id, such as `falcon9`.
    ///   - client: the client of the launch server.
    init?(rocket id: String, client: GraphQLClient) async throws {
        guard let rocket = try await client.send(RocketQuery(id: id)).data?.rocket else { return nil }
        self.rocket = rocket
        launches = try rocket.rocketLaunches_rocket.paginationFragment(client: client)
            .makeList(configuration: try PagingConfiguration(pageSize: 10, prefetchDistance: 0))
    }

    /// RelaySwiftUI's `loadNext(_:)`: the next `count` launches, unless the list is at its end.
    func loadNext(_ count: Int) async throws {
        guard launches.hasNext else { return }
        _ = try await launches.loadNext(count: count).value
    }
}
