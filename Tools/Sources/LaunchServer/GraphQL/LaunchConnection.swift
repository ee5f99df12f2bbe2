/// The Apollo tutorial's page shape (GraphQL type `LaunchConnection`): the launches, the cursor
/// to pass as `after` for the next page, and whether there is one.
struct LaunchConnection: Sendable {
    /// The cursor after the page's last launch. For an empty page it is the `after` cursor that
    /// was passed (or the cursor of the list's start), so it is never null, as the schema says.
    let cursor: String
    /// Whether launches follow this page.
    let hasMore: Bool
    /// The page's launches, newest first.
    let launches: [Launch?]
}
