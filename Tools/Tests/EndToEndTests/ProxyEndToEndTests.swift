import Foundation
import LaunchServer
import PagingGraphQL
import PagingHTTPClient
import Testing

@testable import PagingCLI

@Suite("The commands' transport through a proxy")
struct ProxyEndToEndTests {
    /// The first three launches, asked for as a GraphQL POST.
    static func firstLaunches(at endpoint: URL) -> GraphQLHTTPRequest {
        GraphQLHTTPRequest(
            url: endpoint, headers: ["Content-Type": "application/json"],
            body: Data(#"{"query":"{ launchConnection(first: 3) { edges { node { id } } } }"}"#.utf8),
            timeout: patience)
    }

    @Test(
        "a request goes through an HTTP proxy's tunnel, with the proxy's credentials, to a host only the proxy knows"
    )
    func throughAProxy() async throws {
        try await withLaunchServer { server in
            let port = try #require(server.graphQLURL.port)
            let proxy = try TunnelProxy.start(tunnelingTo: port)
            defer { proxy.stop() }
            let proxied = HTTPClientTransport(
                idleTimeout: patience,
                proxy: .server(
                    host: "127.0.0.1", port: proxy.port, authorization: .basic(username: "me", password: "pw")
                ))
            var components = try #require(
                URLComponents(url: server.graphQLURL, resolvingAgainstBaseURL: false))
            components.host = "launches.paging-test.invalid"
            let elsewhere = try #require(components.url)

            let response = try await proxied.send(Self.firstLaunches(at: elsewhere))
            let direct = try await HTTPClientTransport(idleTimeout: patience)
                .send(Self.firstLaunches(at: server.graphQLURL))
            #expect(response.statusCode == 200)
            #expect(response.body == direct.body)
            let heads = proxy.requestHeads
            #expect(heads.count == 1)
            let head = try #require(heads.first)
            #expect(head.hasPrefix("CONNECT launches.paging-test.invalid:\(port) HTTP/1.1\r\n"), "\(head)")
            // "me:pw" in base64.
            #expect(head.lowercased().contains("proxy-authorization: basic bwu6chc="), "\(head)")
        }
    }
}
