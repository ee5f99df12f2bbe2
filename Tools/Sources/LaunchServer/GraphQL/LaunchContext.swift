/// What every resolver gets: the store.
struct LaunchContext: Sendable {
    /// The launches.
    let store: LaunchStore
}
