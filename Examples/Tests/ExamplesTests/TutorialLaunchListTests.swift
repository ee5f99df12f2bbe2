import Foundation
import LaunchServer
import PagingGraphQL
import Testing

@testable import TutorialLaunchList

@Suite("The Apollo tutorial's launch list, on generated types")
struct TutorialLaunchListTests {
    @Test("LaunchListQuery(cursor:) pages until hasMore is false, at FalconSat, each launch once")
    @MainActor
    func pagesToFalconSat() async throws {
        try await LaunchServer.withRunning(LaunchServerConfiguration()) { server in
            let model = try LaunchListViewModel(client: GraphQLClient(endpoint: server.graphQLURL))
            var pages = 0
            while model.hasMore, !Task.isCancelled {
                try await model.loadMoreLaunchesIfTheyExist()
                pages += 1
                try #require(pages <= 10, "the list did not end")
            }
            #expect(pages == 5, "100 launches, 20 a page")
            #expect(model.launches.count == 100)
            #expect(Set(model.launches.map(\.id)).count == 100)
            #expect(model.launches.last?.mission.name == "FalconSat")
            #expect(model.launches.first?.mission.missionPatch != nil)
        }
    }
}
