import Testing

@testable import LaunchServer

@Suite("The GraphQL schema")
struct SchemaTests {
    @Test("prints the tutorial's types, the Relay connection and the mutations")
    func printsTheExpectedSDL() {
        let sdl = LaunchSchema.sdl
        print(sdl)
        #expect(sdl.contains("launches(pageSize: Int = 20, after: String): LaunchConnection!"))
        #expect(
            sdl.contains(
                "launchConnection(first: Int, after: String, last: Int, before: String, search: String, booked: Boolean, site: String, orderBy: LaunchOrder = NEWEST_FIRST): LaunchRelayConnection!"
            ))
        #expect(sdl.contains("enum LaunchOrder {"))
        #expect(sdl.contains("NEWEST_FIRST") && sdl.contains("MISSION_NAME"))
        #expect(sdl.contains("launch(id: ID!): Launch"))
        #expect(sdl.contains("node(id: ID!): Node"))
        #expect(sdl.contains("type Launch implements Node"))
        #expect(sdl.contains("type Rocket implements Node"))
        #expect(sdl.contains("missionPatch(size: PatchSize): String"))
        #expect(sdl.contains("bookTrips(launchIds: [ID]!): TripUpdateResponse!"))
        #expect(sdl.contains("cancelTrip(launchId: ID!): TripUpdateResponse!"))
        #expect(sdl.contains("deleteLaunch(id: ID!): ID"))
        #expect(sdl.contains("launchPage(offset: Int = 0, limit: Int = 20): LaunchPage!"))
    }
}
