import Paging
import PagingGraphQLClient

/// The Apollo tutorial's queries and mutations against the launch server: the launch list
/// (`launches(pageSize:after:)`), a launch's details (`launch(id:)`), and booking.
struct TutorialAPI: Sendable {
    /// The client.
    let client: GraphQLClient

    private static let launchFields =
        "id site mission { name missionPatch(size: SMALL) } rocket { id name type } isBooked launchDate"

    /// The `@connection` key of `demo --live`'s list.
    static let liveConnectionKey = "DemoLive_launchConnection"

    /// `demo --live`'s list: `launchConnection`, newest first, through the client's store.
    static let liveListDocument = """
        query LiveLaunches($first: Int, $after: String) {
          launchConnection(first: $first, after: $after) @connection(key: "\(liveConnectionKey)") {
            edges { node { \(launchFields) } }
          }
        }
        """

    /// `demo --live`'s subscription: each launch scheduled, put at the top of the live list by
    /// the store.
    static let launchAdded = UntypedOperation(
        document: """
            subscription LaunchAdded {
              launchAdded @prependNode(connections: ["\(liveConnectionKey)"]) { \(launchFields) }
            }
            """,
        operationName: "LaunchAdded")

    private struct ListData: Decodable, Sendable {
        struct Connection: Decodable, Sendable {
            var cursor: String?
            var hasMore: Bool
            var launches: [TutorialLaunch?]
        }
        var launches: Connection
    }

    private struct LaunchData: Decodable, Sendable {
        var launch: TutorialLaunch?
    }

    private struct TripData: Decodable, Sendable {
        struct Response: Decodable, Sendable {
            var success: Bool
            var message: String?
            var launches: [TutorialLaunch?]?
        }
        var bookTrips: Response?
        var cancelTrip: Response?
    }

    /// A page of the launch list: the tutorial's `LaunchList` query.
    func launches(pageSize: Int, after cursor: String?) async throws -> HasMorePage<String, TutorialLaunch> {
        let request = InlineOperation(
            document: """
                query LaunchList($pageSize: Int, $after: String) {
                  launches(pageSize: $pageSize, after: $after) { cursor hasMore launches { \(Self.launchFields) } }
                }
                """,
            operationName: "LaunchList",
            variables: ["pageSize": .int(pageSize), "after": cursor.map(JSONValue.string) ?? .null],
            as: ListData.self)
        let response = try await client.send(request)
        guard let connection = response.data?.launches else {
            return HasMorePage(items: [], cursor: nil, hasMore: false)
        }
        return HasMorePage(
            items: connection.launches.compactMap { $0 }, cursor: connection.cursor,
            hasMore: connection.hasMore)
    }

    /// The tutorial's pager over the launch list.
    /// - Parameters:
    ///   - settled: awaited after each page has come, before the source returns it.
    ///   - ended: told how each request for a page ended (`true`: it failed), before the source
    ///     returns or throws; not told of a cancelled one.
    func source(
        settled: @escaping @Sendable () async -> Void = {},
        ended: @escaping @Sendable (_ failed: Bool) -> Void = { _ in }
    ) -> HasMoreCursorSource<String, TutorialLaunch> {
        HasMoreCursorSource { pageSize, cursor in
            let page: HasMorePage<String, TutorialLaunch>
            do {
                page = try await launches(pageSize: pageSize, after: cursor)
            } catch {
                if !Task.isCancelled { ended(true) }
                throw error
            }
            await settled()
            ended(false)
            return page
        }
    }

    private struct SearchData: Decodable, Sendable {
        struct Connection: Decodable, Sendable {
            struct Edge: Decodable, Sendable {
                var node: TutorialLaunch?
            }
            struct PageInfo: Decodable, Sendable {
                var endCursor: String?
                var hasNextPage: Bool
            }
            var totalCount: Int?
            var edges: [Edge?]
            var pageInfo: PageInfo
        }
        var launchConnection: Connection
    }

    /// A page of the launches whose mission name contains `text` (ignoring case), newest first:
    /// `launchConnection(first:after:search:)`, with the number of launches that match.
    func searchLaunches(_ text: String, pageSize: Int, after cursor: String?) async throws -> (
        page: HasMorePage<String, TutorialLaunch>, matches: Int?
    ) {
        let request = InlineOperation(
            document: """
                query SearchLaunches($search: String, $first: Int, $after: String) {
                  launchConnection(search: $search, first: $first, after: $after) {
                    totalCount edges { node { \(Self.launchFields) } } pageInfo { endCursor hasNextPage }
                  }
                }
                """,
            operationName: "SearchLaunches",
            variables: [
                "search": .string(text), "first": .int(pageSize),
                "after": cursor.map(JSONValue.string) ?? .null,
            ],
            as: SearchData.self)
        let response = try await client.send(request)
        guard let connection = response.data?.launchConnection else {
            return (HasMorePage(items: [], cursor: nil, hasMore: false), 0)
        }
        return (
            HasMorePage(
                items: connection.edges.compactMap { $0?.node }, cursor: connection.pageInfo.endCursor,
                hasMore: connection.pageInfo.hasNextPage),
            connection.totalCount
        )
    }

    /// A source of the launches whose mission name contains `text`; `counted` hears the number
    /// of matches the server gives with each page.
    func searchSource(_ text: String, counted: @escaping @Sendable (Int) -> Void = { _ in })
        -> HasMoreCursorSource<String, TutorialLaunch>
    {
        HasMoreCursorSource { pageSize, cursor in
            let (page, matches) = try await searchLaunches(text, pageSize: pageSize, after: cursor)
            if let matches { counted(matches) }
            return page
        }
    }

    /// One launch, by id: the tutorial's `LaunchDetails` query; when the server cannot be reached
    /// and the client has a store, what the store holds of it.
    func launch(id: String) async throws -> TutorialLaunch? {
        let request = InlineOperation(
            document: """
                query LaunchDetails($id: ID!) {
                  launch(id: $id) { id site mission { name missionPatch(size: LARGE) } rocket { id name type } isBooked launchDate }
                }
                """,
            operationName: "LaunchDetails",
            variables: ["id": .string(id)],
            as: LaunchData.self)
        do {
            return try await client.send(request).data?.launch
        } catch {
            // Offline: the launch as the store (and so the demo's database) last had it.
            guard client.store != nil,
                let stored = try? await client.send(request, policy: .cacheOnly).data?.launch
            else { throw error }
            return stored
        }
    }

    /// Books the trip on a launch, or cancels it: the tutorial's `BookTrip` and `CancelTrip`.
    /// - Returns: the launch as the server now has it, and the server's message.
    func setBooked(_ launch: TutorialLaunch, booked: Bool) async throws -> (
        item: TutorialLaunch, message: String
    ) {
        let field = booked ? "bookTrips(launchIds: [$id])" : "cancelTrip(launchId: $id)"
        let request = InlineOperation(
            document: """
                mutation \(booked ? "BookTrip" : "CancelTrip")($id: ID!) {
                  \(field) { success message launches { \(Self.launchFields) } }
                }
                """,
            variables: ["id": .string(launch.id)],
            as: TripData.self)
        let response = try await client.send(request)
        guard let result = response.data?.bookTrips ?? response.data?.cancelTrip else {
            throw TripError(message: "the server answered without a result")
        }
        guard result.success,
            let updated = result.launches?.compactMap({ $0 }).first(where: { $0.id == launch.id })
        else {
            throw TripError(message: result.message ?? "the server refused")
        }
        return (updated, result.message ?? (booked ? "Booked." : "Cancelled."))
    }

    /// The server refused a booking.
    struct TripError: Error, CustomStringConvertible {
        /// The server's message.
        var message: String
        var description: String { message }
    }
}
