import Foundation
import Testing

@testable import LaunchServer

/// `GET /api/launches?per_page=&page=` with RFC 8288 `Link` headers, over loopback HTTP.
@Suite("The GitHub-style list")
struct LaunchListTests {
    struct Entry: Decodable {
        let id: String
    }

    /// The links of a `Link` header by relation.
    static func links(_ header: String?) -> [String: String] {
        guard let header else { return [:] }
        var links: [String: String] = [:]
        for part in header.split(separator: ",") {
            let pieces = part.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            guard pieces.count == 2, pieces[0].hasPrefix("<"), pieces[0].hasSuffix(">"),
                pieces[1].hasPrefix("rel=\"")
            else {
                Issue.record("malformed link: \(part)")
                continue
            }
            links[String(pieces[1].dropFirst(5).dropLast())] = String(pieces[0].dropFirst().dropLast())
        }
        return links
    }

    @Test("links first, prev, next and last as GitHub does")
    func linkHeaders() async throws {
        try await withLaunchServer { server in
            let client = HTTPTestClient(baseURL: server.baseURL)
            let base = server.baseURL.absoluteString + "/api/launches?per_page=30&page="

            let first = try await client.send("GET", "/api/launches?per_page=30&page=1")
            #expect(first.status == 200)
            #expect(first.header("X-Total-Count") == "100")
            #expect(
                try JSONDecoder().decode([Entry].self, from: first.body).map(\.id)
                    == (71...100).reversed().map(String.init))
            #expect(Self.links(first.header("Link")) == ["next": base + "2", "last": base + "4"])

            let second = try await client.send("GET", "/api/launches?per_page=30&page=2")
            #expect(
                Self.links(second.header("Link")) == [
                    "next": base + "3", "last": base + "4", "first": base + "1", "prev": base + "1",
                ])

            let last = try await client.send("GET", "/api/launches?per_page=30&page=4")
            #expect(try JSONDecoder().decode([Entry].self, from: last.body).count == 10)
            #expect(Self.links(last.header("Link")) == ["first": base + "1", "prev": base + "3"])

            let beyond = try await client.send("GET", "/api/launches?per_page=30&page=9")
            #expect(beyond.status == 200 && beyond.text == "[]")
            #expect(Self.links(beyond.header("Link")) == ["first": base + "1", "prev": base + "4"])

            let defaults = try await client.send("GET", "/api/launches")
            #expect(try JSONDecoder().decode([Entry].self, from: defaults.body).count == 30)
        }
    }

    @Test("following rel=next from the first page visits every launch once")
    func followsNextLinks() async throws {
        try await withLaunchServer { server in
            let client = HTTPTestClient(baseURL: server.baseURL)
            var seen: [String] = []
            var next: String? = server.baseURL.absoluteString + "/api/launches?per_page=13"
            while let url = next {
                let reply = try await client.send(
                    "GET", String(url.dropFirst(server.baseURL.absoluteString.count)))
                seen += try JSONDecoder().decode([Entry].self, from: reply.body).map(\.id)
                next = Self.links(reply.header("Link"))["next"]
            }
            #expect(seen == (1...100).reversed().map(String.init))
        }
    }
}
