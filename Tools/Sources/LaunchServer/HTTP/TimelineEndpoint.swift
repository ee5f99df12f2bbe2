import Foundation
import Hummingbird

/// A Makestagram-style timeline with the query semantics of the Firebase Realtime Database REST
/// API, on `GET /timeline.json`.
///
/// The resource is a JSON object keyed by time-ordered push keys (see ``PushKey``); the key
/// order is the launches' (date, id) order, so the newest launch has the greatest key.
///
/// Supported parameters, each a JSON value as Firebase expects (strings in double quotes):
/// - `orderBy="$key"` — required as soon as any other query parameter is given.
/// - `startAt`, `endAt` — inclusive bounds on the key; `equalTo` — both at once.
/// - `limitToFirst`, `limitToLast` — the first or last N keys of the range (1 to 1000; not both).
///
/// So `orderBy="$key"&limitToLast=5&endAt="KEY"` returns the five greatest keys at or below
/// `KEY`, including `KEY` itself when it exists — the boundary item comes back again, as
/// Makestagram's `MGPaginationHelper` expects. The object's members are written in ascending key
/// order, but like Firebase's, clients should sort by key themselves. Bad parameters get HTTP
/// 400 with `{"error": "..."}`.
struct TimelineEndpoint: Sendable {
    /// The launches.
    let store: LaunchStore

    /// The most entries one response may hold.
    static let maximumEntries = 1_000

    /// Handles `GET /timeline.json`.
    func respond(to request: Request) async throws -> Response {
        let query = try Self.parse(request.uri.queryParameters)
        let launches = try await store.timeline(
            startAt: query.startAt, endAt: query.endAt, fromEnd: query.fromEnd,
            limit: (query.limit ?? Self.maximumEntries) + (query.limit == nil ? 1 : 0))
        if query.limit == nil && launches.count > Self.maximumEntries {
            throw HTTPProblem.badRequest(
                "The timeline has more than \(Self.maximumEntries) entries in this range; add orderBy=\"$key\" with limitToLast or limitToFirst."
            )
        }
        let object = Dictionary(uniqueKeysWithValues: launches.map { ($0.pushKey, LaunchJSON($0)) })
        return try JSONResponse.make(encoding: object)
    }

    /// A validated timeline query.
    struct Query: Sendable, Hashable {
        var startAt: String?
        var endAt: String?
        var limit: Int?
        var fromEnd = false
    }

    /// Parses and validates the query parameters.
    ///
    /// - Throws: ``HTTPProblem`` (400) naming the bad parameter.
    static func parse(_ parameters: Parameters) throws(HTTPProblem) -> Query {
        var query = Query()
        let filterNames = ["startAt", "endAt", "equalTo", "limitToFirst", "limitToLast"]
        let given = filterNames.filter { parameters[Substring($0)] != nil }
        guard let orderBy = parameters["orderBy"] else {
            if let first = given.first {
                throw .badRequest(
                    "orderBy must be defined when other query parameters are defined (got \(first) without orderBy=\"$key\")."
                )
            }
            return query
        }
        guard let path = try? CheckedJSON.decode(String.self, from: Data(orderBy.utf8)) else {
            throw .badRequest(
                "orderBy must be a valid JSON encoded path, such as orderBy=\"$key\" (with the double quotes)."
            )
        }
        guard path == "$key" else {
            throw .badRequest(
                "orderBy=\"\(path)\" is not supported by this timeline; order by key with orderBy=\"$key\".")
        }
        query.startAt = try key(parameters, "startAt")
        query.endAt = try key(parameters, "endAt")
        if let equal = try key(parameters, "equalTo") {
            guard query.startAt == nil && query.endAt == nil else {
                throw .badRequest("equalTo cannot be combined with startAt or endAt.")
            }
            query.startAt = equal
            query.endAt = equal
        }
        let first = try limit(parameters, "limitToFirst")
        let last = try limit(parameters, "limitToLast")
        switch (first, last) {
        case (.some, .some):
            throw .badRequest("limitToFirst and limitToLast cannot both be given; pick one.")
        case (let first?, nil):
            query.limit = first
        case (nil, let last?):
            query.limit = last
            query.fromEnd = true
        case (nil, nil):
            break
        }
        return query
    }

    /// A bound on the key: a JSON string.
    private static func key(_ parameters: Parameters, _ name: String) throws(HTTPProblem)
        -> String?
    {
        guard let text = parameters[Substring(name)] else { return nil }
        let data = Data(text.utf8)
        if let key = try? CheckedJSON.decode(String.self, from: data) {
            return key
        }
        if (try? JSONSerialization.jsonObject(with: data, options: .fragmentsAllowed)) != nil {
            throw .badRequest(
                "When ordering by key (orderBy=\"$key\"), \(name) must be a JSON string such as \(name)=\"-MzXb0000000000000\"; it was \(text)."
            )
        }
        throw .badRequest(
            "\(name) must be a JSON value: put strings in double quotes, as in \(name)=\"-MzXb0000000000000\"; it was \(text)."
        )
    }

    /// A limit: a whole number from 1 to ``maximumEntries``.
    private static func limit(_ parameters: Parameters, _ name: String) throws(HTTPProblem)
        -> Int?
    {
        guard let text = parameters[Substring(name)] else { return nil }
        guard let value = Int(text), value >= 1 else {
            throw .badRequest("\(name) must be a positive integer; it was \(text).")
        }
        guard value <= maximumEntries else {
            throw .badRequest("\(name) must be at most \(maximumEntries) on this server; it was \(value).")
        }
        return value
    }
}
