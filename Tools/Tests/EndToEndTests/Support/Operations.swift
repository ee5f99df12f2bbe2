import PagingGraphQL

/// The Apollo tutorial's `LaunchList` query: `launches(pageSize:after:)`.
struct LaunchListQuery: GraphQLOperation {
    struct Variables: Encodable, Sendable {
        var pageSize: Int
        var after: String?
    }
    struct Data: Decodable, Sendable {
        var launches: HasMoreConnection<Launch>
    }

    var variables: Variables
    var document: String {
        """
        query LaunchList($pageSize: Int, $after: String) {
          launches(pageSize: $pageSize, after: $after) { cursor hasMore launches { \(Launch.selection) } }
        }
        """
    }
    var operationName: String? { "LaunchList" }

    init(pageSize: Int, after: String?) {
        variables = Variables(pageSize: pageSize, after: after)
    }
}

/// The Relay connection `launchConnection(first:after:last:before:)`.
struct LaunchConnectionQuery: GraphQLOperation {
    struct Variables: Encodable, Sendable {
        var first: Int?
        var after: String?
        var last: Int?
        var before: String?
    }
    struct Data: Decodable, Sendable {
        var launchConnection: Connection<Launch>
    }

    var variables: Variables
    var document: String {
        """
        query LaunchConnection($first: Int, $after: String, $last: Int, $before: String) {
          launchConnection(first: $first, after: $after, last: $last, before: $before) {
            edges { cursor node { \(Launch.selection) } }
            pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
            totalCount
          }
        }
        """
    }
    var operationName: String? { "LaunchConnection" }

    init(first: Int? = nil, after: String? = nil, last: Int? = nil, before: String? = nil) {
        variables = Variables(first: first, after: after, last: last, before: before)
    }
}

/// A first page that reads more than the pages after it: the connection with its total, and
/// the rockets. For the query pager with separate initial and paginated queries.
struct LaunchFeedQuery: GraphQLOperation {
    struct Variables: Encodable, Sendable {
        var first: Int
    }
    struct Rocket: Decodable, Sendable {
        var id: String
        var name: String
    }
    struct Data: Decodable, Sendable {
        var launchConnection: Connection<Launch>
        var rockets: [Rocket]
    }

    var variables: Variables
    var document: String {
        """
        query LaunchFeed($first: Int) {
          launchConnection(first: $first) {
            totalCount
            edges { cursor node { \(Launch.selection) } }
            pageInfo { hasNextPage endCursor }
          }
          rockets { id name }
        }
        """
    }
    var operationName: String? { "LaunchFeed" }

    init(first: Int) {
        variables = Variables(first: first)
    }
}

/// The offset page `launchPage(offset:limit:)`.
struct LaunchPageQuery: GraphQLOperation {
    struct Variables: Encodable, Sendable {
        var offset: Int
        var limit: Int
    }
    struct LaunchPage: Decodable, Sendable {
        var launches: [Launch]
        var offset: Int
        var limit: Int
        var hasMore: Bool
        var totalCount: Int
    }
    struct Data: Decodable, Sendable {
        var launchPage: LaunchPage
    }

    var variables: Variables
    var document: String {
        """
        query LaunchPage($offset: Int, $limit: Int) {
          launchPage(offset: $offset, limit: $limit) {
            launches { \(Launch.selection) } offset limit hasMore totalCount
          }
        }
        """
    }
    var operationName: String? { "LaunchPage" }

    init(offset: Int, limit: Int) {
        variables = Variables(offset: offset, limit: limit)
    }
}

/// `addLaunch`: a launch at the head of every list unless a date says otherwise.
struct AddLaunchMutation: GraphQLOperation {
    struct Variables: Encodable, Sendable {
        var missionName: String
        var rocketId: String
        var launchDate: String?
    }
    struct Data: Decodable, Sendable {
        var addLaunch: Launch
    }

    var variables: Variables
    var document: String {
        """
        mutation AddLaunch($missionName: String!, $rocketId: ID!, $launchDate: String) {
          addLaunch(missionName: $missionName, rocketId: $rocketId, launchDate: $launchDate) { \(Launch.selection) }
        }
        """
    }
    var operationName: String? { "AddLaunch" }

    init(missionName: String, rocketId: String = "falcon9", launchDate: String? = nil) {
        variables = Variables(missionName: missionName, rocketId: rocketId, launchDate: launchDate)
    }
}

/// `bookTrips(launchIds:)`: the launches it booked.
struct BookTripsMutation: GraphQLOperation {
    struct Variables: Encodable, Sendable {
        var launchIds: [String]
    }
    struct Response: Decodable, Sendable {
        var success: Bool
        var launches: [Launch]?
    }
    struct Data: Decodable, Sendable {
        var bookTrips: Response
    }

    var variables: Variables
    var document: String {
        """
        mutation BookTrips($launchIds: [ID]!) {
          bookTrips(launchIds: $launchIds) { success message launches { \(Launch.selection) } }
        }
        """
    }
    var operationName: String? { "BookTrips" }

    init(launchIds: [String]) {
        variables = Variables(launchIds: launchIds)
    }
}

/// `deleteLaunch(id:)`: the deleted id, or `null`.
struct DeleteLaunchMutation: GraphQLOperation {
    struct Variables: Encodable, Sendable {
        var id: String
    }
    struct Data: Decodable, Sendable {
        var deleteLaunch: String?
    }

    var variables: Variables
    var document: String {
        "mutation DeleteLaunch($id: ID!) { deleteLaunch(id: $id) }"
    }
    var operationName: String? { "DeleteLaunch" }

    init(id: String) {
        variables = Variables(id: id)
    }
}

/// Why a test could not go on with what the server sent.
struct UnexpectedResponse: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

extension GraphQLClient {
    /// The cursor of the launch at `index` (0-based, newest first) of the Relay connection.
    func cursor(ofLaunchAt index: Int) async throws -> (cursor: String, launch: Launch) {
        let response = try await send(LaunchConnectionQuery(first: index + 1))
        guard let connection = response.data?.launchConnection, connection.count == index + 1,
            let cursor = connection.cursor(at: index)
        else {
            throw UnexpectedResponse("launchConnection(first: \(index + 1)) returned no cursor at \(index)")
        }
        return (cursor, connection[index])
    }

    /// Adds a launch and returns it.
    func addLaunch(_ name: String) async throws -> Launch {
        guard let launch = try await send(AddLaunchMutation(missionName: name)).data?.addLaunch else {
            throw UnexpectedResponse("addLaunch returned no launch")
        }
        return launch
    }

    /// Deletes a launch; throws unless the server says it deleted it.
    func deleteLaunch(id: String) async throws {
        let deleted = try await send(DeleteLaunchMutation(id: id)).data?.deleteLaunch
        guard deleted == id else {
            throw UnexpectedResponse("deleteLaunch(id: \(id)) returned \(deleted ?? "null")")
        }
    }
}
