/// The key of a record in a ``GraphQLStore``.
///
/// An object with an identity gets a key from the store's
/// ``GraphQLStore/Configuration``, such as `Launch:109`; an object without
/// one has no record and no key: it stays in the field that holds it
/// (``StoreValue/object(_:)``). The data of each operation type starts at a
/// root record: ``queryRoot``, ``mutationRoot`` or ``subscriptionRoot``.
///
/// ```swift
/// let launch: CacheKey = "Launch:109"
/// let name = store.record(for: launch)?["name"]
/// ```
public struct CacheKey: Hashable, Sendable {
    /// The key as text.
    ///
    /// The key is its text alone, 16 bytes, held inline up to 15 UTF-8
    /// bytes (`Launch:109`): the store holds one per record and per
    /// reference, and a follower one per row.
    public let rawValue: String

    /// Creates a key from its text.
    /// - Parameter rawValue: the key, such as `Launch:109`.
    /// - Complexity: O(1).
    public init(_ rawValue: String) {
        self.rawValue = rawValue
    }

    /// A hash of the text that is cheap and stable within a process (FNV-1a):
    /// it spreads the store's records over its tables.
    /// - Complexity: O(*n*) for a key of *n* UTF-8 bytes.
    @inlinable
    package var shardHash: UInt {
        var hash: UInt = 14_695_981_039_346_656_037
        for byte in rawValue.utf8 { hash = (hash ^ UInt(byte)) &* 1_099_511_628_211 }
        return hash
    }

    /// The record that holds the fields of queries: `QUERY_ROOT`.
    public static let queryRoot = CacheKey("QUERY_ROOT")
    /// The record that holds the fields of mutations: `MUTATION_ROOT`.
    public static let mutationRoot = CacheKey("MUTATION_ROOT")
    /// The record that holds the fields of subscriptions: `SUBSCRIPTION_ROOT`.
    public static let subscriptionRoot = CacheKey("SUBSCRIPTION_ROOT")

    /// Whether the key is one of the three root records.
    var isRoot: Bool {
        self == .queryRoot || self == .mutationRoot || self == .subscriptionRoot
    }
}

extension CacheKey: CustomStringConvertible {
    /// The key as text, such as `Launch:109`.
    public var description: String { rawValue }
}

extension CacheKey: ExpressibleByStringLiteral {
    /// A string literal is a key: `let key: CacheKey = "Launch:109"`.
    /// - Parameter value: the key as text.
    public init(stringLiteral value: String) {
        self.init(value)
    }
}
