import Foundation
import PagingGraphQL

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The URL session the tests of this target send over, and the transport on it: one each for the
/// whole run, as `PagingGraphQL`'s documentation asks of an app.
///
/// Not one per test or per client: on Linux, a URL session ended while one of its sockets has an
/// event pending can crash libdispatch (swift-corelibs-foundation issues 4791 and 5469), and
/// every `URLSessionTransport` over a session without a delegate ends a session of its own when
/// its last copy goes. Runs under ThreadSanitizer ended in that crash 2 times in 5 while the
/// tests made a session per client (RELIABILITY.md, "Race detection").
///
/// Ephemeral, without a cache or cookies: tests share connections, nothing else.
enum TestSession {
    /// The session, for requests that are not GraphQL (``RESTClient``).
    static let session = URLSession(configuration: configuration)

    /// The transport of every GraphQL client of the tests.
    static let transport = URLSessionTransport(session: session)

    private static var configuration: URLSessionConfiguration {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        configuration.httpCookieStorage = nil
        return configuration
    }
}
