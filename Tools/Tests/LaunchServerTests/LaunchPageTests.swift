import Testing

@testable import LaunchServer

/// `launchPage(offset:, limit:)`.
@Suite("The offset page")
struct LaunchPageTests {
    struct Payload: Decodable {
        struct Page: Decodable {
            let launches: [LaunchBody]
            let offset: Int
            let limit: Int
            let hasMore: Bool
            let totalCount: Int
        }
        let launchPage: Page?
    }

    @Test("returns the launches at the offset, newest first, with totalCount")
    func returnsAPage() async throws {
        try await withLaunchServer { server in
            let page = try await server.graphQL(
                "{ launchPage(offset: 10, limit: 5) { launches { id } offset limit hasMore totalCount } }",
                as: Payload.self)
            #expect(page.data?.launchPage?.launches.map(\.id) == ["90", "89", "88", "87", "86"])
            #expect(page.data?.launchPage?.hasMore == true)
            #expect(page.data?.launchPage?.totalCount == 100)

            let end = try await server.graphQL(
                "{ launchPage(offset: 95, limit: 10) { launches { id } offset limit hasMore totalCount } }",
                as: Payload.self)
            #expect(end.data?.launchPage?.launches.map(\.id) == ["5", "4", "3", "2", "1"])
            #expect(end.data?.launchPage?.hasMore == false)
        }
    }

    @Test("rejects a negative offset and an oversize limit, naming the argument")
    func rejectsBadArguments() async throws {
        try await withLaunchServer { server in
            let negative = try await server.graphQL(
                "{ launchPage(offset: -1) { totalCount } }", as: Payload.self)
            #expect(negative.errors?.first?.extensions?["argument"] == "offset")
            let large = try await server.graphQL(
                "{ launchPage(limit: 101) { totalCount } }", as: Payload.self)
            #expect(large.errors?.first?.extensions?["argument"] == "limit")
        }
    }
}
