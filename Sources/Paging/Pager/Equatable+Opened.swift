/// Whether two values are equal, when their type is `Equatable`: how a
/// follower of items of any type leaves alone a row that would not change.
/// - Returns: `false` when the type is not `Equatable` (it cannot tell).
/// - Complexity: that of the type's `==`.
package func equalIfEquatable<Value>(_ lhs: Value, _ rhs: Value) -> Bool {
    guard let lhs = lhs as? any Equatable else { return false }
    return lhs.isEqual(to: rhs)
}

extension Equatable {
    /// Whether another value is of this type and equal to this one.
    fileprivate func isEqual(to other: Any) -> Bool {
        (other as? Self) == self
    }
}
