/// A page of the newest-first list by offset (GraphQL type `LaunchPage`).
struct LaunchPage: Sendable {
    /// The page's launches.
    let launches: [Launch]
    /// The offset asked for.
    let offset: Int
    /// The limit asked for.
    let limit: Int
    /// Whether launches follow this page.
    let hasMore: Bool
    /// How many launches the list holds.
    let totalCount: Int
}
