import Graphiti

extension LaunchResolver {
    /// Arguments of `scheduleLaunch`.
    struct ScheduleLaunchArguments: Codable, Sendable {
        var mission: String
        var site: String?
    }

    /// The rocket a scheduled launch flies.
    static let scheduledRocket = "falcon9"

    /// `scheduleLaunch(mission: String!, site: String): Launch!`: a Falcon 9 launch one second
    /// after the newest, with the next free id, so it lands at the head of every newest-first
    /// list; `launchAdded` delivers it once it is committed.
    func scheduleLaunch(context: LaunchContext, arguments: ScheduleLaunchArguments) async throws -> Launch {
        try Self.checkMissionName(arguments.mission, argument: "mission", of: "scheduleLaunch")
        return try await context.store.add(
            missionName: arguments.mission, site: arguments.site, rocketID: Self.scheduledRocket,
            launchDate: nil)
    }

    /// `subscription { launchAdded: Launch! }`: each launch added from now on, in the order the
    /// additions committed.
    func launchAdded(context: LaunchContext, arguments: NoArguments) -> AsyncThrowingStream<Launch, any Error>
    {
        context.store.events.stream(of: .added)
    }

    /// `subscription { launchUpdated: Launch! }`: each launch whose booking changes from now on,
    /// as it is after the change.
    func launchUpdated(context: LaunchContext, arguments: NoArguments) -> AsyncThrowingStream<
        Launch, any Error
    > {
        context.store.events.stream(of: .updated)
    }
}
