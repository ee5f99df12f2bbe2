/// An object the copies of a store-backed source share: what the follower
/// of each pager over the source is kept for (`PagerAttachments`), so that
/// each pager has one follower per source, whatever wraps the source.
final class SourceIdentity: Sendable {}
