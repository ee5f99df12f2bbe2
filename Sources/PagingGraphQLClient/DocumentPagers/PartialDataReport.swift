public import Paging

/// GraphQL errors that came with a page's data.
///
/// The pagers of this module deliver a page whose response carried data and
/// errors together (a field failed, the rest succeeded): the page is shown,
/// and the errors are handed to the pager's `onPartialData` closure with the
/// request that loaded the page. A response with errors and no data, or
/// whose connection is `null` because of an error, is not partial data: the
/// load fails with a ``GraphQLClientError`` with code
/// ``GraphQLClientError/Code/graphQLErrors`` as its underlying error, and
/// the engine keeps what it had and lets `Pager.retry()` repeat it.
///
/// ```swift
/// let source = ConnectionSource(client: client, document: document, as: Launch.self) { report in
///     Task { @MainActor in banner.show("\(report.errors.count) field(s) failed to load") }
/// }
/// ```
public struct PartialDataReport<Key: Hashable & Sendable>: Sendable {
    /// The request that loaded the page.
    public let request: PageRequest<Key>
    /// The errors the server reported next to the data.
    public let errors: [GraphQLResponseError]

    /// Creates a report.
    /// - Parameters:
    ///   - request: the request that loaded the page.
    ///   - errors: the errors that came with the data.
    public init(request: PageRequest<Key>, errors: [GraphQLResponseError]) {
        self.request = request
        self.errors = errors
    }
}
