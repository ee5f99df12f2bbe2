/// An edit of the connections that paged lists show, asked by a mutation:
/// add a record's node to, or remove it from, every list of a connection.
///
/// A mutation names the connections by key: the `key` of the list document's
/// `@connection(key:)`, or the connection field's name when it has none.
///
/// ```graphql
/// mutation AddLaunch($site: String!) {
///   addLaunch(site: $site) @prependNode(connections: ["Feed_launches"]) { id site }
/// }
/// ```
public struct StoreConnectionEdit: Hashable, Sendable {
    /// What to do with the record's node.
    public enum Kind: Hashable, Sendable {
        /// Add it after the last item.
        case append
        /// Add it before the first item.
        case prepend
        /// Remove it.
        case remove
    }

    /// The connection's key.
    public let connection: String
    /// What to do.
    public let kind: Kind
    /// The node's record.
    public let record: CacheKey

    /// Creates an edit.
    /// - Parameters:
    ///   - connection: the connection's key.
    ///   - kind: what to do.
    ///   - record: the node's record.
    public init(connection: String, kind: Kind, record: CacheKey) {
        self.connection = connection
        self.kind = kind
        self.record = record
    }
}
