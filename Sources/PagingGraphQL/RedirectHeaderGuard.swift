import PagingGraphQLClient

#if canImport(FoundationNetworking)
    public import Foundation
    public import FoundationNetworking
#else
    public import Foundation
#endif

/// A URL session delegate that keeps header fields, credentials above all, to the origin they
/// were sent to when a request is redirected: the rule `PagingHTTPClient`'s `HTTPClientTransport`
/// keeps too, by the same code.
///
/// URLSession follows a redirect with a copy of every header field of the request, whatever
/// origin the redirect names (FoundationNetworking, on Linux, does so for `Authorization`
/// too). This delegate follows a redirect as curl and browsers do with credentials:
///
/// - to the origin (scheme, host and port, see `HTTPOrigin`) of the task's first request,
///   with every field;
/// - to another origin, without the fields the first request was sent with, but for `Accept`
///   and `Content-Type` (what the answer may be and what the body is), and without
///   `Authorization`, `Cookie` and `Proxy-Authorization` whoever set them.
///
/// A redirect that went to another origin goes on without those fields, even if a later
/// redirect leads back. Fields that the session's configuration adds to every request
/// (`httpAdditionalHeaders`) are the session's, and beyond this delegate's reach.
///
/// ``URLSessionTransport`` uses one for its requests in a session without a delegate of its
/// own, `URLSession.shared` included. To make a session that does the same:
///
/// ```swift
/// let session = URLSession(
///     configuration: .ephemeral, delegate: RedirectHeaderGuard(), delegateQueue: nil)
/// ```
///
/// A session delegate of your own keeps the same rule by answering its redirects with
/// ``request(following:from:)``.
public final class RedirectHeaderGuard: NSObject, URLSessionTaskDelegate, Sendable {
    private let rule: RedirectFieldRule

    /// Creates a delegate.
    /// - Parameter permits: whether a redirect to a URL keeps every field, decided by the caller
    ///   (for instance, a command line's option to send its fields to any host); `nil`, the
    ///   default, for the rule above: only on the origin of the task's first request.
    public init(permits: (@Sendable (_ url: URL) -> Bool)? = nil) {
        self.rule = RedirectFieldRule(permits: permits)
    }

    /// The request to follow a redirect with: the redirect as it is when it stays on the origin
    /// of the first request (or the `permits` closure allows it), and otherwise without the
    /// fields the first request was sent with (`Accept` and `Content-Type` aside) and without
    /// `Authorization`, `Cookie` and `Proxy-Authorization`.
    ///
    /// ```swift
    /// func urlSession(
    ///     _ session: URLSession, task: URLSessionTask,
    ///     willPerformHTTPRedirection response: HTTPURLResponse, newRequest request: URLRequest,
    ///     completionHandler: @escaping @Sendable (URLRequest?) -> Void
    /// ) {
    ///     completionHandler(RedirectHeaderGuard().request(following: request, from: task.originalRequest))
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - redirect: the request URLSession proposes for the redirect.
    ///   - original: the task's first request (`URLSessionTask.originalRequest`); with none,
    ///     every redirect counts as one to another origin.
    /// - Returns: the request to follow the redirect with.
    /// - Complexity: O(*n*), where *n* is the number of header fields of `original`.
    public func request(following redirect: URLRequest, from original: URLRequest?) -> URLRequest {
        if let url = redirect.url, rule.keepsFields(to: url, from: original?.url) { return redirect }
        var request = redirect
        for name in (original?.allHTTPHeaderFields ?? [:]).keys
        where !RedirectFieldRule.isKeptAcrossOrigins(name) {
            request.setValue(nil, forHTTPHeaderField: name)
        }
        for name in RedirectFieldRule.withheldFields { request.setValue(nil, forHTTPHeaderField: name) }
        return request
    }

    /// Follows a redirect with ``request(following:from:)``.
    /// - Parameters:
    ///   - session: the session of the task.
    ///   - task: the task whose request is redirected.
    ///   - response: the redirect response.
    ///   - request: the request URLSession proposes for the redirect.
    ///   - completionHandler: told the request to follow the redirect with.
    public func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        completionHandler(self.request(following: request, from: task.originalRequest))
    }
}
