/// A ``ListChange`` that does not fit the items it is applied to: thrown by
/// `checkedApply(to:from:)` before it changes anything.
public struct ListChangeMismatch: Error, Sendable, Hashable, CustomStringConvertible {
    /// What does not fit, such as `it removes 5..<6 from 4 items`.
    public let message: String

    init(_ problem: String) {
        message =
            "The change does not fit the items it is applied to: \(problem); apply it to the rows it was made from, or reload them."
    }

    /// The message.
    public var description: String { message }
}
