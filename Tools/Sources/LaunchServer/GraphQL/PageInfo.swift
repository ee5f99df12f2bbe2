/// The Relay `PageInfo` of a connection page.
struct PageInfo: Sendable, Hashable {
    /// Whether edges follow the page (see ``LaunchRelayConnection`` for the exact rule).
    let hasNextPage: Bool
    /// Whether edges precede the page.
    let hasPreviousPage: Bool
    /// The first edge's cursor; `nil` when the page is empty.
    let startCursor: String?
    /// The last edge's cursor; `nil` when the page is empty.
    let endCursor: String?
}
