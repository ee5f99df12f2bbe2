extension KeyedDecodingContainer {
    /// Decodes the value of a key as the type its use calls for.
    ///
    /// The types `paging codegen` writes decode their fields with it, so that
    /// they never name a type where a field of the same name could hide it
    /// (a field `Swift` hides `Swift.String.self`, one named after a fragment
    /// hides that fragment's type).
    ///
    /// ```swift
    /// name = try container.decodeInferred(forKey: .name)
    /// ```
    /// - Parameter key: the key.
    /// - Returns: the value.
    /// - Throws: `DecodingError` when the key is missing or its value does not decode.
    /// - Complexity: that of decoding the value.
    public func decodeInferred<Value: Decodable>(forKey key: Key) throws -> Value {
        try decode(Value.self, forKey: key)
    }

    /// Decodes the value of a key as the type its use calls for, or `nil`
    /// when the key is missing or its value is `null`.
    /// - Parameter key: the key.
    /// - Returns: the value, or `nil`.
    /// - Throws: `DecodingError` when the value does not decode.
    /// - Complexity: that of decoding the value.
    public func decodeInferredIfPresent<Value: Decodable>(forKey key: Key) throws -> Value? {
        try decodeIfPresent(Value.self, forKey: key)
    }
}
