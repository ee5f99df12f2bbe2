/// An edge of ``LaunchRelayConnection``: a launch and the cursor of its position.
struct LaunchEdge: Sendable {
    /// The opaque cursor of the launch's position.
    let cursor: String
    /// The launch.
    let node: Launch
}
