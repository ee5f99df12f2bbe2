import GraphQL
import Graphiti

/// The launch server's GraphQL schema, built with Graphiti.
///
/// It serves the Apollo tutorial's API field for field (`launches`, `launch`, `Launch`,
/// `Mission`, `Rocket`, `bookTrips`, `cancelTrip`), a Relay connection (`launchConnection`,
/// `Node`, `node`, `Rocket.launches`), a connection of connections (`rocketConnection`), an
/// offset page (`launchPage`), mutations that change the list while a client pages
/// (`addLaunch`, `deleteLaunch`, `scheduleLaunch`), and subscriptions to the launches added and
/// changed (`launchAdded`, `launchUpdated`, over WebSocket). `launchConnection` filters (`search`, `booked`, `site`) and
/// sorts (`orderBy: LaunchOrder`). ``sdl`` prints it.
public enum LaunchSchema {
    /// The schema in the GraphQL schema definition language.
    ///
    /// - Returns: The SDL text, or a line saying why the schema could not be built.
    public static var sdl: String {
        do {
            return printSchema(schema: try make().schema)
        } catch {
            return "# The launch schema could not be built: \(error)"
        }
    }

    /// The arguments of a Relay connection field.
    @ArgumentComponentBuilder<ConnectionArguments>
    private static func connectionArguments() -> [ArgumentComponent<ConnectionArguments>] {
        Argument("first", at: \.first)
        Argument("after", at: \.after)
        Argument("last", at: \.last)
        Argument("before", at: \.before)
    }

    /// Builds the schema.
    ///
    /// - Throws: Graphiti's error if a definition is inconsistent (a bug of this file).
    static func make() throws -> Schema<LaunchResolver, LaunchContext> {
        try Schema<LaunchResolver, LaunchContext> {
            Scalar(GraphID.self, as: "ID")
                .description("A unique identifier, serialized as a String.")

            Enum(PatchSize.self) {
                Value(.small)
                Value(.large)
            }

            Enum(LaunchOrder.self) {
                Value(.newestFirst)
                    .description(
                        "Newest launch first; launches of the same second by descending id. The default.")
                Value(.missionName)
                    .description(
                        "By mission name ascending, comparing UTF-8 bytes (uppercase before lowercase); launches of the same name by ascending id."
                    )
            }
            .description(
                "The order of `launchConnection`. A cursor pages only the order (and filters) it came from.")

            Interface((any RelayNode).self, as: "Node") {
                Field("id", at: \.id)
            }
            .description("An object with a global id, which `node(id:)` fetches again.")

            Type(Mission.self) {
                Field("name", at: \.name)
                Field("missionPatch", at: Mission.missionPatch) {
                    Argument("size", at: \.size)
                }
            }

            Type(Rocket.self, interfaces: [(any RelayNode).self]) {
                Field("id", at: \.id)
                Field("name", at: \.name)
                Field("type", at: \.type)
                Field("launches", at: Rocket.launches, connectionArguments)
                    .description("This rocket's launches, newest first, as a Relay connection.")
            }

            Type(Launch.self, interfaces: [(any RelayNode).self]) {
                Field("id", at: \.id)
                Field("site", at: \.site)
                Field("mission", at: \.mission)
                Field("rocket", at: \.rocket)
                Field("isBooked", at: \.isBooked)
                Field("launchDate", at: \.launchDateISO8601)
                    .description("The launch time in UTC, ISO 8601.")
            }

            Type(LaunchConnection.self) {
                Field("cursor", at: \.cursor)
                Field("hasMore", at: \.hasMore)
                Field("launches", at: \.launches)
            }
            .description("The Apollo tutorial's page: pass `cursor` as `after` while `hasMore` is true.")

            Type(PageInfo.self) {
                Field("hasNextPage", at: \.hasNextPage)
                Field("hasPreviousPage", at: \.hasPreviousPage)
                Field("startCursor", at: \.startCursor)
                Field("endCursor", at: \.endCursor)
            }

            Type(LaunchEdge.self) {
                Field("cursor", at: \.cursor)
                Field("node", at: \.node)
            }

            Type(LaunchRelayConnection.self) {
                Field("edges", at: \.edges)
                Field("nodes", at: \.nodes)
                Field("pageInfo", at: \.pageInfo)
                Field("totalCount", at: LaunchRelayConnection.totalCount)
            }
            .description(
                "Launches as a Relay connection (GraphQL Cursor Connections Specification), newest first.")

            Type(RocketEdge.self) {
                Field("cursor", at: \.cursor)
                Field("node", at: \.node)
            }

            Type(RocketRelayConnection.self, as: "RocketConnection") {
                Field("edges", at: \.edges)
                Field("nodes", at: \.nodes)
                Field("pageInfo", at: \.pageInfo)
                Field("totalCount", at: \.totalCount)
            }
            .description(
                "Every rocket as a Relay connection, by id; each rocket's `launches` is a connection too.")

            Type(LaunchPage.self) {
                Field("launches", at: \.launches)
                Field("offset", at: \.offset)
                Field("limit", at: \.limit)
                Field("hasMore", at: \.hasMore)
                Field("totalCount", at: \.totalCount)
            }

            Type(TripUpdateResponse.self) {
                Field("success", at: \.success)
                Field("message", at: \.message)
                Field("launches", at: \.launches)
            }

            Query {
                Field("launches", at: LaunchResolver.launches) {
                    Argument("pageSize", at: \.pageSize).defaultValue(20)
                    Argument("after", at: \.after)
                }
                .description(
                    "The Apollo tutorial's list, newest first: `pageSize` is 0 to 100; pass the previous page's `cursor` as `after`."
                )

                Field("launch", at: LaunchResolver.launch) {
                    Argument("id", at: \.id)
                }

                Field("launchConnection", at: LaunchResolver.launchConnection) {
                    Argument("first", at: \.first)
                    Argument("after", at: \.after)
                    Argument("last", at: \.last)
                    Argument("before", at: \.before)
                    Argument("search", at: \.search)
                    Argument("booked", at: \.booked)
                    Argument("site", at: \.site)
                    Argument("orderBy", at: \.orderBy).defaultValue(.newestFirst)
                }
                .description(
                    "Every launch, or those that pass every filter given, as a Relay connection in the order `orderBy` asks for: give `first` or `last` (0 to 100), not both. `search` keeps the launches whose mission name contains it, ignoring case (all when empty); `booked` those whose trip is booked (true) or not (false); `site` those from exactly this site, such as \"KSC LC 39A\". A cursor pages only the list that returned it: another order or other filters refuse it. `totalCount` counts the filtered launches."
                )

                Field("launchPage", at: LaunchResolver.launchPage) {
                    Argument("offset", at: \.offset).defaultValue(0)
                    Argument("limit", at: \.limit).defaultValue(20)
                }
                .description(
                    "Offset paging over the newest-first list. Deep offsets cost more: use a connection instead."
                )

                Field("node", at: LaunchResolver.node) {
                    Argument("id", at: \.id)
                }
                .description("Fetches a launch or a rocket by its global id.")

                Field("rocket", at: LaunchResolver.rocket) {
                    Argument("id", at: \.id)
                }

                Field("rockets", at: LaunchResolver.rockets)

                Field("rocketConnection", at: LaunchResolver.rocketConnection, connectionArguments)
                    .description(
                        "Every rocket, by id, as a Relay connection whose nodes hold their own `launches` connection: the outer level of a nested export."
                    )
            }

            Mutation {
                Field("bookTrips", at: LaunchResolver.bookTrips) {
                    Argument("launchIds", at: \.launchIds)
                }
                Field("cancelTrip", at: LaunchResolver.cancelTrip) {
                    Argument("launchId", at: \.launchId)
                }
                Field("addLaunch", at: LaunchResolver.addLaunch) {
                    Argument("missionName", at: \.missionName)
                    Argument("site", at: \.site)
                    Argument("rocketId", at: \.rocketId)
                    Argument("launchDate", at: \.launchDate)
                }
                .description(
                    "Adds a launch with the next free id. `launchDate` is ISO 8601; by default one second after the newest launch, at the head of every list."
                )
                Field("deleteLaunch", at: LaunchResolver.deleteLaunch) {
                    Argument("id", at: \.id)
                }
                .description("Deletes a launch; returns its id, or null when no launch had it.")
                Field("scheduleLaunch", at: LaunchResolver.scheduleLaunch) {
                    Argument("mission", at: \.mission)
                    Argument("site", at: \.site)
                }
                .description(
                    "Schedules a Falcon 9 launch one second after the newest, with the next free id: it lands at the head of every newest-first list, and `launchAdded` delivers it."
                )
            }

            Subscription {
                SubscriptionField("launchAdded", as: Launch.self, atSub: LaunchResolver.launchAdded)
                    .description(
                        "Each launch added from now on (`scheduleLaunch`, `addLaunch`, the server's schedule), once committed, in commit order. Over WebSocket, graphql-transport-ws, at /graphql."
                    )
                SubscriptionField("launchUpdated", as: Launch.self, atSub: LaunchResolver.launchUpdated)
                    .description(
                        "Each launch whose booking changes from now on (`bookTrips`, `cancelTrip`), as it is after the change."
                    )
            }
        }
    }
}
