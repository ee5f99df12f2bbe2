import Foundation
import Testing

@testable import PagingGraphQL
@testable import PagingGraphQLClient

@Suite("HTTPOrigin")
struct HTTPOriginTests {
    @Test(
        "origins differ by scheme, host or port, and a default port is the same as none",
        arguments: [
            ("http://127.0.0.1:8080/a", "http://127.0.0.1:8080/b?c=d", true),
            ("https://api.example.com/a", "https://API.example.com:443/b", true),
            ("http://example.com/a", "http://example.com:80/b", true),
            ("http://127.0.0.1:8080/a", "http://localhost:8080/a", false),
            ("http://127.0.0.1:8080/a", "http://127.0.0.1:8081/a", false),
            ("https://example.com/a", "http://example.com/a", false),
            ("https://example.com/a", "https://example.com.evil.test/a", false),
        ])
    func origins(first: String, second: String, same: Bool) throws {
        let a = try #require(URL(string: first))
        let b = try #require(URL(string: second))
        #expect((HTTPOrigin(a) == HTTPOrigin(b)) == same)
    }

    @Test(
        "an origin reads as scheme and host, with the port only when it is not the default",
        arguments: [
            ("https://API.example.com:443/graphql", "https://api.example.com"),
            ("http://localhost:8080/a", "http://localhost:8080"),
            ("http://[::1]:8080/a", "http://[::1]:8080"),
        ])
    func description(url: String, origin: String) throws {
        #expect(HTTPOrigin(try #require(URL(string: url)))?.description == origin)
    }

    @Test("a URL without a host has no origin")
    func noHost() throws {
        #expect(HTTPOrigin(try #require(URL(string: "file:///tmp/list.json"))) == nil)
    }
}
