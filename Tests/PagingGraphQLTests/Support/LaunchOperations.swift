import Foundation
import PagingLock

@testable import PagingGraphQL
@testable import PagingGraphQLClient

/// One launch by id, with the fields a detail screen shows.
struct LaunchQuery: GraphQLOperation {
    struct Variables: Encodable, Sendable { var id: String }
    struct Data: Decodable, Sendable, Equatable {
        struct Launch: Decodable, Sendable, Equatable {
            var id: String
            var site: String?
            var isBooked: Bool
        }
        var launch: Launch?
    }

    let document = "query Launch($id: ID!) { launch(id: $id) { id site isBooked } }"
    var operationName: String? { "Launch" }
    var variables: Variables

    init(id: String) {
        variables = Variables(id: id)
    }
}

/// The tutorial's `bookTrips` mutation: it books launches and returns them.
struct BookTripsMutation: GraphQLOperation {
    struct Variables: Encodable, Sendable { var launchIds: [String] }
    struct Data: Decodable, Sendable, Equatable {
        struct BookTrips: Decodable, Sendable, Equatable {
            struct Launch: Decodable, Sendable, Equatable {
                var id: String
                var isBooked: Bool
            }
            var success: Bool
            var launches: [Launch]
        }
        var bookTrips: BookTrips
    }

    let document = """
        mutation BookTrips($launchIds: [ID]!) {
          bookTrips(launchIds: $launchIds) { success launches { id isBooked } }
        }
        """
    var operationName: String? { "BookTrips" }
    var variables: Variables
}

/// A launch server in memory for the client and store tests: it answers
/// `Launch` and `BookTrips` from a table of launches it keeps, and any other
/// operation with the reply given for its name.
final class LaunchBackend: Sendable {
    /// The ids of the booked launches.
    private final class Bookings: Sendable {
        let ids = Lock<Set<String>>([])
    }

    /// The server the clients talk to.
    let server: FakeGraphQLServer

    /// - Parameter replies: whole response bodies, by operation name.
    init(replies: [String: JSONValue] = [:]) {
        let bookings = Bookings()
        server = FakeGraphQLServer { request in
            if let reply = replies[request.operationName ?? ""] { return reply }
            switch request.operationName {
            case "Launch":
                let id = request.variables["id"]?.stringValue ?? ""
                return [
                    "data": ["launch": Self.launch(id, booked: bookings.ids.withLock { $0.contains(id) })]
                ]
            case "BookTrips":
                let ids = request.variables["launchIds"]?.arrayValue?.compactMap(\.stringValue) ?? []
                bookings.ids.withLock { $0.formUnion(ids) }
                return [
                    "data": [
                        "bookTrips": [
                            "__typename": "TripUpdateResponse",
                            "success": true,
                            "launches": .array(
                                ids.map { ["__typename": "Launch", "id": .string($0), "isBooked": true] }),
                        ]
                    ]
                ]
            default:
                return ["data": nil, "errors": [["message": "Unknown operation"]]]
            }
        }
    }

    /// A launch as the server sends it, `__typename` included.
    static func launch(_ id: String, booked: Bool = false) -> JSONValue {
        ["__typename": "Launch", "id": .string(id), "site": .string("Site \(id)"), "isBooked": .bool(booked)]
    }

    /// How many requests arrived.
    var requestCount: Int { server.received.count }
}
