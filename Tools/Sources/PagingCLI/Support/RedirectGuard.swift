import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A URL session delegate that keeps the `--header` fields off a redirect to another origin:
/// every command that sends the user's header fields (`fetch`, `browse`) sends them through a
/// session made by ``session(scope:)``.
///
/// URLSession follows a redirect with a copy of every header field of the request, whatever
/// host the redirect names (FoundationNetworking does so for `Authorization` too); this
/// delegate removes the ``HeaderScope``'s fields from a redirect its scope does not permit, and
/// follows it without them.
final class RedirectGuard: NSObject, URLSessionTaskDelegate, Sendable {
    /// Which origins get the fields.
    let scope: HeaderScope

    /// Creates a delegate.
    init(scope: HeaderScope) {
        self.scope = scope
    }

    /// Follows a redirect, without the scope's fields when it leads to another origin.
    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        var redirect = request
        if let url = request.url, !scope.permits(url) {
            for name in scope.fields.keys { redirect.setValue(nil, forHTTPHeaderField: name) }
        }
        completionHandler(redirect)
    }

    /// A session whose redirects keep the scope's fields to their origin: ephemeral (no cache,
    /// no cookies or credentials kept after the command). The session holds its delegate until
    /// it is invalidated: invalidate it when the command ends.
    static func session(scope: HeaderScope) -> URLSession {
        URLSession(configuration: .ephemeral, delegate: RedirectGuard(scope: scope), delegateQueue: nil)
    }
}
