import Foundation
import Testing

@testable import LaunchServer

/// `GET /timeline.json` with Firebase Realtime Database query semantics, over loopback HTTP.
@Suite("The Firebase-style timeline")
struct TimelineTests {
    struct Entry: Decodable {
        let id: String
        let missionName: String
        let site: String?
    }

    /// Fetches the timeline and returns its entries sorted by key, as Firebase clients do.
    func fetch(_ client: HTTPTestClient, _ query: String) async throws -> [(key: String, entry: Entry)] {
        let reply = try await client.send("GET", "/timeline.json" + query)
        #expect(reply.status == 200, "\(reply.text)")
        #expect(reply.header("Content-Type")?.hasPrefix("application/json") == true)
        let object = try JSONDecoder().decode([String: Entry].self, from: reply.body)
        return object.sorted { $0.key < $1.key }.map { (key: $0.key, entry: $0.value) }
    }

    static func query(_ pairs: [(String, String)]) -> String {
        "?" + pairs.map { "\($0.0)=\(queryValue($0.1))" }.joined(separator: "&")
    }

    @Test("limitToLast returns the newest keys, keyed by 20-character push keys")
    func limitToLast() async throws {
        try await withLaunchServer { server in
            let client = HTTPTestClient(baseURL: server.baseURL)
            let entries = try await fetch(
                client, Self.query([("orderBy", "\"$key\""), ("limitToLast", "5")]))
            #expect(entries.map(\.entry.id) == ["96", "97", "98", "99", "100"])
            #expect(entries.allSatisfy { $0.key.count == 20 })
            let everything = try await fetch(client, "")
            #expect(everything.count == 100)
            #expect(everything.first?.entry.missionName == "FalconSat")
        }
    }

    @Test("endAt is inclusive: the boundary key comes back")
    func endAtIsInclusive() async throws {
        try await withLaunchServer { server in
            let client = HTTPTestClient(baseURL: server.baseURL)
            let all = try await fetch(client, "")
            let key50 = all[49].key
            #expect(all[49].entry.id == "50")
            let page = try await fetch(
                client,
                Self.query([("orderBy", "\"$key\""), ("limitToLast", "3"), ("endAt", "\"\(key50)\"")]))
            #expect(page.map(\.entry.id) == ["48", "49", "50"])

            // A key between two launches ends at the lower one; a deleted launch's key still works.
            let between = try await fetch(
                client,
                Self.query([("orderBy", "\"$key\""), ("limitToLast", "2"), ("endAt", "\"\(key50)~\"")]))
            #expect(between.map(\.entry.id) == ["49", "50"])
            #expect(try await server.store.delete(number: 50))
            let afterDeletion = try await fetch(
                client,
                Self.query([("orderBy", "\"$key\""), ("limitToLast", "2"), ("endAt", "\"\(key50)\"")]))
            #expect(afterDeletion.map(\.entry.id) == ["48", "49"])
        }
    }

    @Test("startAt with limitToFirst, and equalTo, bound the range from below")
    func startAtAndEqualTo() async throws {
        try await withLaunchServer { server in
            let client = HTTPTestClient(baseURL: server.baseURL)
            let all = try await fetch(client, "")
            let start = try await fetch(
                client,
                Self.query([
                    ("orderBy", "\"$key\""), ("limitToFirst", "2"), ("startAt", "\"\(all[10].key)\""),
                ]))
            #expect(start.map(\.entry.id) == ["11", "12"])
            let equal = try await fetch(
                client, Self.query([("orderBy", "\"$key\""), ("equalTo", "\"\(all[3].key)\"")]))
            #expect(equal.map(\.entry.id) == ["4"])
        }
    }

    @Test("Makestagram's helper pages newest first to FalconSat, dropping the repeated boundary")
    func makestagramPaging() async throws {
        try await withLaunchServer { server in
            let client = HTTPTestClient(baseURL: server.baseURL)
            let pageSize = 8
            var seen: [String] = []
            var lastKey: String?
            while true {
                var pairs = [("orderBy", "\"$key\""), ("limitToLast", String(pageSize))]
                if let lastKey { pairs.append(("endAt", "\"\(lastKey)\"")) }
                let page = try await fetch(client, Self.query(pairs))
                var newestFirst = Array(page.reversed())
                if lastKey != nil {
                    #expect(newestFirst.first?.key == lastKey, "the boundary comes back")
                    newestFirst.removeFirst()
                }
                seen += newestFirst.map(\.entry.id)
                lastKey = page.first?.key
                if page.count < pageSize { break }
            }
            #expect(seen == (1...100).reversed().map(String.init))
        }
    }
}
