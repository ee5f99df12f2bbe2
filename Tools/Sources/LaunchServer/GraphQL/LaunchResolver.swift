import Foundation
import GraphQL
import Graphiti

/// The root resolvers of the launch schema: the `Query` and `Mutation` fields.
struct LaunchResolver: Sendable {
    // MARK: Query

    /// Arguments of the tutorial's `launches`.
    struct LaunchesArguments: Codable, Sendable {
        var pageSize: Int?
        var after: String?
    }

    /// `launches(pageSize: Int = 20, after: String): LaunchConnection!` — the Apollo tutorial's
    /// list, newest first.
    func launches(context: LaunchContext, arguments: LaunchesArguments) async throws -> LaunchConnection {
        let pageSize = arguments.pageSize ?? 20
        guard (0...ConnectionArguments.maximumCount).contains(pageSize) else {
            throw ArgumentError.invalid(
                "pageSize", of: "launches",
                "Argument `pageSize` of `launches` must be between 0 and \(ConnectionArguments.maximumCount); it was \(pageSize)."
            )
        }
        let after = try ConnectionRequest.position(arguments.after, argument: "after", field: "launches")
        let rows = try await context.store.page(
            scope: .all, below: after, above: nil, newestFirst: true, limit: pageSize + 1)
        let page = Array(rows.prefix(pageSize))
        let cursor =
            page.last.map { LaunchCursor.encode($0.position) }
            ?? arguments.after
            ?? LaunchCursor.encode(.head)
        return LaunchConnection(cursor: cursor, hasMore: rows.count > pageSize, launches: page)
    }

    /// Arguments of the fields that take one `id`.
    struct IDArguments: Codable, Sendable {
        var id: GraphID
    }

    /// `launch(id: ID!): Launch` — null when no launch has this id.
    func launch(context: LaunchContext, arguments: IDArguments) async throws -> Launch? {
        guard let number = arguments.id.launchNumber else { return nil }
        return try await context.store.launch(number: number)
    }

    /// `launchConnection(first:, after:, last:, before:, search:, booked:, site:, orderBy:):
    /// LaunchRelayConnection!`: every launch, or those that pass the filters given (a mission
    /// name containing `search`, case-insensitive; a booked or unbooked trip; exactly `site`),
    /// newest first or by mission name, with cursors that keep their place whatever is added or
    /// removed and that only this order and these filters accept.
    ///
    /// - Complexity: That of ``LaunchRelayConnection/resolve(scope:order:fieldName:arguments:store:)``:
    ///   O(log n + count) at any depth, except with a search.
    func launchConnection(context: LaunchContext, arguments: LaunchConnectionArguments) async throws
        -> LaunchRelayConnection
    {
        try await LaunchRelayConnection.resolve(
            scope: arguments.scope, order: arguments.orderBy ?? .newestFirst, fieldName: "launchConnection",
            arguments: arguments.connection, store: context.store)
    }

    /// Arguments of `launchPage`.
    struct LaunchPageArguments: Codable, Sendable {
        var offset: Int?
        var limit: Int?
    }

    /// `launchPage(offset: Int = 0, limit: Int = 20): LaunchPage!` — offset paging.
    func launchPage(context: LaunchContext, arguments: LaunchPageArguments) async throws -> LaunchPage {
        let offset = arguments.offset ?? 0
        let limit = arguments.limit ?? 20
        guard offset >= 0 else {
            throw ArgumentError.invalid(
                "offset", of: "launchPage",
                "Argument `offset` of `launchPage` must be 0 or more; it was \(offset).")
        }
        guard (0...ConnectionArguments.maximumCount).contains(limit) else {
            throw ArgumentError.invalid(
                "limit", of: "launchPage",
                "Argument `limit` of `launchPage` must be between 0 and \(ConnectionArguments.maximumCount); it was \(limit)."
            )
        }
        let launches = try await context.store.offsetPage(offset: offset, limit: limit)
        let total = try await context.store.count(scope: .all)
        return LaunchPage(
            launches: launches, offset: offset, limit: limit,
            hasMore: offset + launches.count < total, totalCount: total)
    }

    /// `node(id: ID!): Node` — a launch (digits) or a rocket (anything else); null when none.
    func node(context: LaunchContext, arguments: IDArguments) async throws -> (any RelayNode)? {
        if let number = arguments.id.launchNumber {
            return try await context.store.launch(number: number)
        }
        return context.store.rockets[arguments.id.rawValue]
    }

    /// `rocket(id: ID!): Rocket`.
    func rocket(context: LaunchContext, arguments: IDArguments) -> Rocket? {
        context.store.rockets[arguments.id.rawValue]
    }

    /// `rockets: [Rocket!]!`, by id.
    func rockets(context: LaunchContext, arguments: NoArguments) -> [Rocket] {
        context.store.rockets.values.sorted { $0.rocketID < $1.rocketID }
    }

    /// `rocketConnection(first:, after:, last:, before:): RocketConnection!`, by id.
    func rocketConnection(context: LaunchContext, arguments: ConnectionArguments) throws
        -> RocketRelayConnection
    {
        try RocketRelayConnection.resolve(arguments: arguments, rockets: context.store.rockets)
    }

    // MARK: Mutation

    /// Arguments of `bookTrips`.
    struct BookTripsArguments: Codable, Sendable {
        var launchIds: [GraphID?]
    }

    /// `bookTrips(launchIds: [ID]!): TripUpdateResponse!`.
    func bookTrips(context: LaunchContext, arguments: BookTripsArguments) async throws -> TripUpdateResponse {
        try await setBooked(arguments.launchIds.compactMap { $0 }, booked: true, context: context)
    }

    /// Arguments of `cancelTrip`.
    struct CancelTripArguments: Codable, Sendable {
        var launchId: GraphID
    }

    /// `cancelTrip(launchId: ID!): TripUpdateResponse!`.
    func cancelTrip(context: LaunchContext, arguments: CancelTripArguments) async throws -> TripUpdateResponse
    {
        try await setBooked([arguments.launchId], booked: false, context: context)
    }

    private func setBooked(_ ids: [GraphID], booked: Bool, context: LaunchContext) async throws
        -> TripUpdateResponse
    {
        let numbers = ids.compactMap(\.launchNumber)
        let launches = try await context.store.setBooked(numbers, booked: booked)
        let found = Set(launches.map(\.id))
        let missing = ids.filter { !found.contains($0) }
        let verb = booked ? "booked" : "cancelled"
        let message =
            missing.isEmpty
            ? "\(launches.count) trip\(launches.count == 1 ? "" : "s") \(verb)."
            : "No launch has the id \(missing.map { "'\($0)'" }.joined(separator: ", ")); \(launches.count) trip\(launches.count == 1 ? "" : "s") \(verb)."
        return TripUpdateResponse(
            success: missing.isEmpty && !ids.isEmpty, message: message, launches: launches)
    }

    /// Arguments of `addLaunch`.
    struct AddLaunchArguments: Codable, Sendable {
        var missionName: String
        var site: String?
        var rocketId: GraphID
        var launchDate: String?
    }

    /// The longest mission name `addLaunch` takes, in Unicode scalars (at most 800 bytes of UTF-8).
    static let maximumMissionNameLength = 200

    /// `addLaunch(missionName: String!, site: String, rocketId: ID!, launchDate: String): Launch!`.
    func addLaunch(context: LaunchContext, arguments: AddLaunchArguments) async throws -> Launch {
        try Self.checkMissionName(arguments.missionName, argument: "missionName", of: "addLaunch")
        guard context.store.rockets[arguments.rocketId.rawValue] != nil else {
            let known = context.store.rockets.keys.sorted().joined(separator: ", ")
            throw ArgumentError.invalid(
                "rocketId", of: "addLaunch",
                "Argument `rocketId` of `addLaunch` names no rocket ('\(arguments.rocketId)'); use one of: \(known)."
            )
        }
        var date: Int64?
        if let text = arguments.launchDate {
            guard let parsed = try? Date(text, strategy: .iso8601) else {
                throw ArgumentError.invalid(
                    "launchDate", of: "addLaunch",
                    "Argument `launchDate` of `addLaunch` must be an ISO 8601 date such as 2024-05-01T12:00:00Z; it was '\(text)'."
                )
            }
            date = Int64(parsed.timeIntervalSince1970.rounded(.down))
        }
        return try await context.store.add(
            missionName: arguments.missionName, site: arguments.site,
            rocketID: arguments.rocketId.rawValue, launchDate: date)
    }

    /// Refuses a mission name that is empty or longer than ``maximumMissionNameLength``.
    ///
    /// - Throws: A `BAD_USER_INPUT` error naming the argument and the field.
    static func checkMissionName(_ name: String, argument: String, of field: String) throws {
        guard !name.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw ArgumentError.invalid(
                argument, of: field, "Argument `\(argument)` of `\(field)` must not be empty.")
        }
        // A mission-name cursor carries the name: this bound keeps every cursor under
        // `LaunchCursor.maximumLength`.
        guard name.unicodeScalars.count <= maximumMissionNameLength else {
            throw ArgumentError.invalid(
                argument, of: field,
                "Argument `\(argument)` of `\(field)` must be at most \(maximumMissionNameLength) characters; it had \(name.unicodeScalars.count)."
            )
        }
    }

    /// `deleteLaunch(id: ID!): ID` — the deleted launch's id (for Relay's `@deleteRecord`), or
    /// null when no launch had this id.
    func deleteLaunch(context: LaunchContext, arguments: IDArguments) async throws -> GraphID? {
        guard let number = arguments.id.launchNumber else { return nil }
        return try await context.store.delete(number: number) ? arguments.id : nil
    }
}
