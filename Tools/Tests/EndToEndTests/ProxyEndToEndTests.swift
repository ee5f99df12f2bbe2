import Foundation
import LaunchServer
import PagingGraphQL
import PagingHTTPClient
import Testing

@testable import PagingCLI

@Suite("The commands' transport through a proxy")
struct ProxyEndToEndTests {
    /// How long a request here may wait for its next byte, and for its answer. The test is about
    /// where a request goes, not how fast: on a busy machine (issue 38: runs beside other builds)
    /// it ended with `HTTPClientError.readTimeout` once the 10 seconds it used to allow had
    /// passed with no byte. The launch server answers in this process, on the threads of its
    /// cooperative pool that every other test of the run shares, so its answer can wait behind
    /// them that long. The limit is there only so that a tunnel that never answers fails the test
    /// instead of hanging it.
    static let patience = Duration.seconds(300)

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
                idleTimeout: Self.patience,
                proxy: .server(
                    host: "127.0.0.1", port: proxy.port, authorization: .basic(username: "me", password: "pw")
                ))
            var components = try #require(
                URLComponents(url: server.graphQLURL, resolvingAgainstBaseURL: false))
            components.host = "launches.paging-test.invalid"
            let elsewhere = try #require(components.url)

            let response = try await proxied.send(Self.firstLaunches(at: elsewhere))
            let direct = try await HTTPClientTransport(idleTimeout: Self.patience)
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
