/// Which launches a list pages through.
enum LaunchScope: Sendable, Hashable {
    /// Every launch.
    case all
    /// The launches of the rocket with this id.
    case rocket(String)
}
