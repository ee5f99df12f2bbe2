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
    public let rawValue: String
    /// The text's hash, computed once: the store's tables are keyed by
    /// record keys, and growing a table rehashes every key in it.
    let textHash: Int

    /// Creates a key from its text.
    /// - Parameter rawValue: the key, such as `Launch:109`.
    /// - Complexity: O(*n*) for a key of *n* characters.
    public init(_ rawValue: String) {
        self.rawValue = rawValue
        self.textHash = rawValue.hashValue
    }

    /// Whether two keys have the same text.
    public static func == (lhs: CacheKey, rhs: CacheKey) -> Bool {
        lhs.textHash == rhs.textHash && lhs.rawValue == rhs.rawValue
    }

    /// Hashes the key.
    /// - Complexity: O(1): the text's hash is computed when the key is made.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(textHash)
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
