/// The one error type of the paging engine.
///
/// It says what went wrong in words a person can act on, and keeps the
/// underlying error of a failed load:
///
/// ```swift
/// do {
///     try await pager.loadNext().value
/// } catch {
///     print(error)                  // "loading next(after: "c40"), count 20 failed: …"
///     if error.code == .loadFailed { showRetryButton(error.underlyingError) }
/// }
/// ```
///
/// Compare ``code`` to tell kinds apart; new codes may be added in later
/// versions, so a `switch` over them should have a default.
///
/// Every error type of the libraries has this shape: a `code` to branch on
/// (a struct of static members, compared with `==`) and a `message` to show
/// or log, which is also its `description`.
public struct PagingError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The kind of a ``PagingError``.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Value: Hashable, Sendable {
            case loadFailed, repeatedKey, invalidPage, invalidConfiguration, invalidArgument,
                unsupportedOperation
        }
        private let value: Value
        private init(_ value: Value) { self.value = value }

        /// The page source threw; ``PagingError/underlyingError`` holds what it threw.
        public static var loadFailed: Code { Code(.loadFailed) }
        /// The source returned, as the key of the next (or previous) page, the key
        /// the page was requested with, or one asked for earlier since the list
        /// (re)started: following it would load the same pages forever.
        public static var repeatedKey: Code { Code(.repeatedKey) }
        /// The backend answered with a page that cannot be followed (it says
        /// more items exist but gives no key to load them).
        public static var invalidPage: Code { Code(.invalidPage) }
        /// A configuration value is out of range.
        public static var invalidConfiguration: Code { Code(.invalidConfiguration) }
        /// An argument of a call is out of range.
        public static var invalidArgument: Code { Code(.invalidArgument) }
        /// The pager cannot do what was asked with its source: an anchored
        /// refresh over a source that is not a ``ReloadablePageSource``.
        public static var unsupportedOperation: Code { Code(.unsupportedOperation) }

        /// The code's name.
        public var description: String {
            switch value {
            case .loadFailed: "loadFailed"
            case .repeatedKey: "repeatedKey"
            case .invalidPage: "invalidPage"
            case .invalidConfiguration: "invalidConfiguration"
            case .invalidArgument: "invalidArgument"
            case .unsupportedOperation: "unsupportedOperation"
            }
        }
    }

    private enum Reason: Sendable {
        case loadFailed(request: String, underlying: any Error)
        case repeatedKey(request: String, direction: LoadDirection, key: String, cycle: Bool)
        case invalidPage(String)
        case invalidConfiguration(String)
        case invalidArgument(String)
        case unsupportedOperation(String)
    }

    private let reason: Reason

    private init(_ reason: Reason) { self.reason = reason }

    static func loadFailed<Key>(_ request: PageRequest<Key>, underlying: any Error) -> PagingError {
        PagingError(.loadFailed(request: request.description, underlying: underlying))
    }

    /// The page loaded for `request` named `returned` (the request's own key
    /// when `nil`) as its key in `direction`, a key asked for already.
    static func repeatedKey<Key>(
        _ request: PageRequest<Key>, direction: LoadDirection, returned: Key? = nil
    ) -> PagingError {
        let key = returned ?? request.key
        return PagingError(
            .repeatedKey(
                request: request.description, direction: direction, key: key.map { "\($0)" } ?? "nil",
                cycle: key != request.key))
    }

    static func invalidPage(_ message: String) -> PagingError {
        PagingError(.invalidPage(message))
    }

    static func invalidConfiguration(_ message: String) -> PagingError {
        PagingError(.invalidConfiguration(message))
    }

    static func invalidArgument(_ message: String) -> PagingError {
        PagingError(.invalidArgument(message))
    }

    static func unsupportedOperation(_ message: String) -> PagingError {
        PagingError(.unsupportedOperation(message))
    }

    /// The kind of error.
    public var code: Code {
        switch reason {
        case .loadFailed: .loadFailed
        case .repeatedKey: .repeatedKey
        case .invalidPage: .invalidPage
        case .invalidConfiguration: .invalidConfiguration
        case .invalidArgument: .invalidArgument
        case .unsupportedOperation: .unsupportedOperation
        }
    }

    /// What the page source threw, for ``Code/loadFailed``; `nil` otherwise.
    public var underlyingError: (any Error)? {
        if case .loadFailed(_, let underlying) = reason { return underlying }
        return nil
    }

    /// The request that failed, described (`next(after: 40), count 20`), for
    /// ``Code/loadFailed`` and ``Code/repeatedKey``; `nil` otherwise.
    public var requestDescription: String? {
        switch reason {
        case .loadFailed(let request, _), .repeatedKey(let request, _, _, _): request
        case .invalidPage, .invalidConfiguration, .invalidArgument, .unsupportedOperation: nil
        }
    }

    /// The message.
    public var description: String { message }

    /// What went wrong and, where it helps, what to do: a sentence a person
    /// can act on.
    public var message: String {
        switch reason {
        case .loadFailed(let request, let underlying):
            "loading \(request) failed: \(underlying)"
        case .repeatedKey(let request, let direction, let key, let cycle):
            "loading \(request) returned \(key) "
                + (cycle
                    ? "as the \(direction) key, a key this list asked for before"
                    : "again as the \(direction) key")
                + "; following it would load the same page\(cycle ? "s" : "") forever, so paging "
                + "\(direction == .next ? "forward" : "backward") stopped. The page source must return the key of the "
                + "\(direction) page."
        case .invalidPage(let message):
            "invalid page: \(message)"
        case .invalidConfiguration(let message):
            "invalid paging configuration: \(message)"
        case .invalidArgument(let message):
            "invalid argument: \(message)"
        case .unsupportedOperation(let message):
            "unsupported: \(message)"
        }
    }

    /// Two errors are equal when they have the same code and message.
    public static func == (lhs: PagingError, rhs: PagingError) -> Bool {
        lhs.code == rhs.code && lhs.message == rhs.message
    }
}
