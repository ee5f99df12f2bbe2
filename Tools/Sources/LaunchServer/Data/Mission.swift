/// The mission of a launch: its name and patch images (the tutorial's `Mission` type).
struct Mission: Sendable, Hashable {
    /// The mission's name, such as "FalconSat".
    let name: String
    /// The address of the small patch image, if the mission has one.
    let missionPatchSmall: String?
    /// The address of the large patch image, if the mission has one.
    let missionPatchLarge: String?

    /// Arguments of `Mission.missionPatch`.
    struct PatchArguments: Codable, Sendable {
        /// The size asked for; `LARGE` when absent, as in the tutorial's server.
        var size: PatchSize?
    }

    /// Resolves `missionPatch(size:)`: the patch image of the requested size.
    func missionPatch(context: LaunchContext, arguments: PatchArguments) -> String? {
        switch arguments.size ?? .large {
        case .small: missionPatchSmall
        case .large: missionPatchLarge
        }
    }
}
