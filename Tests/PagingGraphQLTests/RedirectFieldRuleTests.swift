import Foundation
import PagingGraphQLClient
import Testing

@Suite("RedirectFieldRule")
struct RedirectFieldRuleTests {
    private let fields = [
        "Authorization": "Bearer secret", "X-Api-Key": "key", "accept": "application/json",
        "Content-Type": "application/json",
    ]

    @Test("a redirect on the first request's origin keeps every field")
    func sameOrigin() throws {
        let from = try #require(URL(string: "https://API.example.com/graphql"))
        let to = try #require(URL(string: "https://api.example.com:443/v2/graphql"))
        let rule = RedirectFieldRule()
        #expect(rule.keepsFields(to: to, from: from))
        #expect(rule.fields(of: fields, redirectedTo: to, from: from) == fields)
    }

    @Test(
        "a redirect to another origin keeps only Accept and Content-Type, in any case",
        arguments: [
            "http://api.example.com/graphql", "https://api.example.com:8443/graphql", "https://evil.test/",
        ])
    func otherOrigin(target: String) throws {
        let from = try #require(URL(string: "https://api.example.com/graphql"))
        let to = try #require(URL(string: target))
        let rule = RedirectFieldRule()
        #expect(!rule.keepsFields(to: to, from: from))
        #expect(
            rule.fields(of: fields, redirectedTo: to, from: from)
                == ["accept": "application/json", "Content-Type": "application/json"])
    }

    @Test("with no first URL, or one without an origin, every redirect counts as to another origin")
    func noOrigin() throws {
        let to = try #require(URL(string: "https://api.example.com/graphql"))
        let rule = RedirectFieldRule()
        #expect(!rule.keepsFields(to: to, from: nil))
        #expect(!rule.keepsFields(to: to, from: URL(fileURLWithPath: "/tmp/a.json")))
    }

    @Test("the permits closure decides instead of the origins, both ways")
    func permits() throws {
        let from = try #require(URL(string: "https://api.example.com/graphql"))
        let elsewhere = try #require(URL(string: "https://cdn.example.net/page"))
        let sameOrigin = try #require(URL(string: "https://api.example.com/other"))
        let anyHost = RedirectFieldRule(permits: { _ in true })
        #expect(anyHost.fields(of: fields, redirectedTo: elsewhere, from: from) == fields)
        let onlyCDN = RedirectFieldRule(permits: { $0.host == "cdn.example.net" })
        #expect(onlyCDN.keepsFields(to: elsewhere, from: from))
        #expect(!onlyCDN.keepsFields(to: sameOrigin, from: from))
    }

    @Test("credentials are withheld by name, whoever set them; only Accept and Content-Type cross")
    func names() {
        #expect(
            Set(RedirectFieldRule.withheldFields.map { $0.lowercased() })
                == ["authorization", "cookie", "proxy-authorization"])
        for name in ["ACCEPT", "content-type", "Content-Type"] {
            #expect(RedirectFieldRule.isKeptAcrossOrigins(name))
        }
        for name in ["Authorization", "Cookie", "Accept-Encoding", "X-Content-Type"] {
            #expect(!RedirectFieldRule.isKeptAcrossOrigins(name))
        }
    }

    @Test("a body over the limit is dataLengthExceedsMaximum, naming the limit and the URL")
    func tooLarge() throws {
        let url = try #require(URL(string: "https://api.example.com/graphql"))
        let error = URLError.responseTooLarge(limit: 1024, url: url)
        #expect(error.code == .dataLengthExceedsMaximum)
        #expect(error.failingURL == url)
        #expect(error.localizedDescription.contains("1024 bytes"))
        #expect(URLError.responseTooLarge(limit: 1, url: nil).failingURL == nil)
    }
}
