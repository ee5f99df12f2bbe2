import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL
import PagingGraphQLClient

/// The transport of every `paging` command that talks to a server: HTTP/1.1 and HTTP/2 over
/// SwiftNIO (AsyncHTTPClient), with TLS from BoringSSL, on Linux and Apple platforms alike.
///
/// Not FoundationNetworking: on Linux, URLSession loads libcurl and some thirty libraries with
/// it (about 7 MB of a process's resident memory before the first request), and keeps a few
/// hundred bytes of every request it sends for as long as the process lives; an export of
/// millions of nodes sends tens of thousands. This transport holds nothing once a request ends
/// (Benchmarks/README.md, issue 19, has the figures).
///
/// It behaves as the library's `URLSessionTransport` does, so that the commands' errors read the
/// same whichever a user meets:
/// - Failures are `URLError`s with the codes URLSession gives (`timedOut`,
///   `networkConnectionLost`, `cannotConnectToHost`, `dataLengthExceedsMaximum`, ...), the
///   underlying error kept under `NSUnderlyingErrorKey`; cancelling the calling task throws
///   `CancellationError`.
/// - A body larger than ``maximumResponseSize`` fails as soon as its announced length or the
///   bytes read pass it.
/// - ``idleTimeout`` ends a request when no byte arrives for that long, the body included; a
///   request's own timeout bounds the wait for its response's head.
/// - Redirects (301, 302, 303, 307, 308) are followed, up to ``maximumRedirects``: a 303, and a
///   301 or 302 answering a `POST`, go on as a `GET` without a body. A redirect to a URL that
///   ``permits`` refuses goes on without the request's header fields but `Accept` and
///   `Content-Type` (and never with `Authorization`, `Cookie` or `Proxy-Authorization`), the
///   rule of the library's `RedirectHeaderGuard`.
///
/// The connections are kept alive and reused; the transport closes them when its last reference
/// goes.
final class HTTPClientTransport: GraphQLTransport, Sendable {
    /// The largest response body read, in bytes.
    let maximumResponseSize: Int
    /// How long a request waits for its next byte before it fails with `URLError.timedOut`.
    let idleTimeout: Duration
    /// How many redirects one request follows before it fails with
    /// `URLError.httpTooManyRedirects`.
    let maximumRedirects: Int
    /// Whether a redirect to a URL keeps the request's header fields; `nil` for: only to the
    /// request's own origin.
    let permits: (@Sendable (URL) -> Bool)?
    private let client: HTTPClient

    /// The default of ``maximumResponseSize``: 64 MiB, the library transport's.
    static let defaultMaximumResponseSize = 64 << 20

    /// The `User-Agent` of every request that does not set its own (some APIs, GitHub's among
    /// them, refuse a request without one).
    static let userAgent = "paging"

    /// The fields a redirect to a URL that ``permits`` refuses still carries.
    private static let keptFields: Set<String> = ["accept", "content-type"]

    /// Creates a transport.
    /// - Parameters:
    ///   - idleTimeout: how long a request waits for its next byte.
    ///   - maximumResponseSize: the largest response body read, in bytes.
    ///   - maximumRedirects: how many redirects a request follows; 10 unless given.
    ///   - maximumConnectionsPerHost: how many connections to one host are open at once.
    ///   - proxy: the proxy every request goes through, or `nil` for none (see
    ///     ``proxy(for:environment:)``).
    ///   - permits: whether a redirect to a URL keeps the request's header fields; never unless
    ///     given, but to the request's own origin.
    init(
        idleTimeout: Duration, maximumResponseSize: Int = defaultMaximumResponseSize,
        maximumRedirects: Int = 10,
        maximumConnectionsPerHost: Int = 8, proxy: HTTPClient.Configuration.Proxy? = nil,
        permits: (@Sendable (URL) -> Bool)? = nil
    ) {
        self.idleTimeout = idleTimeout
        self.maximumResponseSize = maximumResponseSize
        self.maximumRedirects = maximumRedirects
        self.permits = permits
        var configuration = HTTPClient.Configuration(
            redirectConfiguration: .disallow,
            timeout: .init(read: TimeAmount(idleTimeout)),
            connectionPool: .init(
                idleTimeout: .seconds(60),
                concurrentHTTP1ConnectionsPerHostSoftLimit: maximumConnectionsPerHost),
            proxy: proxy)
        configuration.httpVersion = .automatic
        // A connection refused fails the request at once, as URLSession's does; the retries are
        // the caller's (`paging fetch --retries`), which it shows.
        configuration.connectionPool.retryConnectionEstablishment = false
        client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
    }

    deinit {
        // Closes the kept-alive connections; nothing waits for it.
        client.shutdown { _ in }
    }

    /// Sends a request, following redirects.
    /// - Parameter request: the request; its body goes only when it has one.
    /// - Returns: the response, whatever its status.
    /// - Throws: `CancellationError` when the calling task is cancelled, a `URLError` otherwise
    ///   (see the type's description).
    /// - Complexity: O(*n*) in the size of the response's body.
    func send(_ request: GraphQLHTTPRequest) async throws -> GraphQLHTTPResponse {
        var hop = request
        var redirects = 0
        while true {
            let response: HTTPClientResponse
            do {
                response = try await client.execute(
                    Self.clientRequest(for: hop), timeout: TimeAmount(max(hop.timeout, .milliseconds(1))))
            } catch {
                throw Self.translate(error, url: hop.url)
            }
            if let next = Self.redirect(from: hop, response: response) {
                // The redirect's own body is dropped: the connection closes rather than read it.
                redirects += 1
                guard redirects <= maximumRedirects else {
                    throw Self.error(
                        .httpTooManyRedirects, url: hop.url,
                        "more than \(maximumRedirects) redirects", underlying: nil)
                }
                hop = keepsFields(to: next.url, from: request.url) ? next : Self.withoutFields(next)
                continue
            }
            let body = try await read(response, url: hop.url)
            return GraphQLHTTPResponse(
                statusCode: Int(response.status.code), headers: Self.headers(of: response), body: body)
        }
    }

    /// The proxy for requests to `url` that the environment names, as curl reads it: `https_proxy`
    /// (or `HTTPS_PROXY`) for an `https` URL, `http_proxy` for an `http` one (not `HTTP_PROXY`,
    /// which a CGI request can set), `all_proxy` (or `ALL_PROXY`) for either; `nil` when none is
    /// set, or when `no_proxy` (or `NO_PROXY`) names the URL's host, one of its parent domains
    /// (`example.com` and `.example.com` cover `api.example.com`), or is `*`.
    ///
    /// The proxy is an HTTP one (`http://[user:password@]host[:port]`, the port 1080 unless
    /// given, as curl's) or a SOCKS5 one (`socks5://` or `socks5h://`); `nil` for another scheme.
    /// - Complexity: O(*n*) in the length of `no_proxy`.
    static func proxy(for url: URL, environment: [String: String]) -> HTTPClient.Configuration.Proxy? {
        func value(_ names: String...) -> String? {
            names.lazy.compactMap { environment[$0] }.first { !$0.isEmpty }
        }
        guard let scheme = url.scheme?.lowercased(), let host = url.host?.lowercased() else { return nil }
        let named =
            scheme == "https"
            ? value("https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY")
            : value("http_proxy", "all_proxy", "ALL_PROXY")
        guard let named else { return nil }
        let exempt = (value("no_proxy", "NO_PROXY") ?? "").split(separator: ",").map {
            $0.trimmingCharacters(in: .whitespaces).lowercased()
        }
        for entry in exempt where !entry.isEmpty {
            if entry == "*" { return nil }
            let domain = entry.hasPrefix(".") ? String(entry.dropFirst()) : entry
            if host == domain || host.hasSuffix("." + domain) { return nil }
        }
        guard let proxyURL = URL(string: named.contains("://") ? named : "http://" + named),
            let proxyHost = proxyURL.host, !proxyHost.isEmpty
        else { return nil }
        let port = proxyURL.port ?? 1080
        switch proxyURL.scheme?.lowercased() {
        case "http":
            let authorization = proxyURL.user.map { user in
                HTTPClient.Authorization.basic(
                    username: user.removingPercentEncoding ?? user,
                    password: proxyURL.password.map { $0.removingPercentEncoding ?? $0 } ?? "")
            }
            return .server(host: proxyHost, port: port, authorization: authorization)
        case "socks5", "socks5h": return .socksServer(host: proxyHost, port: port)
        default: return nil
        }
    }

    /// Whether a request redirected to `target` keeps the header fields of the request first
    /// sent to `original`.
    private func keepsFields(to target: URL, from original: URL) -> Bool {
        if let permits { return permits(target) }
        guard let origin = HTTPOrigin(original) else { return false }
        return HTTPOrigin(target) == origin
    }

    /// Reads a response's body, up to ``maximumResponseSize``.
    private func read(_ response: HTTPClientResponse, url: URL) async throws -> Data {
        let limit = maximumResponseSize
        let announced = response.headers.first(name: "content-length").flatMap { Int($0) }
        if let announced, announced > limit { throw Self.tooLarge(limit: limit, url: url) }
        var body = Data()
        if let announced, announced > 0 { body.reserveCapacity(announced) }
        do {
            for try await chunk in response.body {
                guard chunk.readableBytes <= limit - body.count else {
                    throw Self.tooLarge(limit: limit, url: url)
                }
                body.append(contentsOf: chunk.readableBytesView)
            }
        } catch let error as URLError {
            throw error
        } catch {
            throw Self.translate(error, url: url)
        }
        return body
    }

    /// The request AsyncHTTPClient sends for a request.
    static func clientRequest(for request: GraphQLHTTPRequest) -> HTTPClientRequest {
        var sent = HTTPClientRequest(url: request.url.absoluteString)
        sent.method = HTTPMethod(rawValue: request.method)
        for (name, value) in request.headers { sent.headers.add(name: name, value: value) }
        if !sent.headers.contains(name: "user-agent") {
            sent.headers.add(name: "User-Agent", value: userAgent)
        }
        if !request.body.isEmpty { sent.body = .bytes(ByteBuffer(bytes: request.body)) }
        return sent
    }

    /// The request a redirect asks for, or `nil` when the response is not one to follow.
    static func redirect(from request: GraphQLHTTPRequest, response: HTTPClientResponse)
        -> GraphQLHTTPRequest?
    {
        let status = response.status.code
        guard [301, 302, 303, 307, 308].contains(status),
            let location = response.headers.first(name: "location"),
            let target = URL(string: location, relativeTo: request.url)?.absoluteURL,
            let scheme = target.scheme?.lowercased(), scheme == "http" || scheme == "https"
        else { return nil }
        var next = request
        next.url = target
        if status == 303 || ((status == 301 || status == 302) && request.method.uppercased() == "POST") {
            if request.method.uppercased() != "HEAD" { next.method = "GET" }
            next.body = Data()
            next.headers = next.headers.filter { $0.key.lowercased() != "content-type" }
        }
        return next
    }

    /// A redirected request without the header fields of the original, but `Accept` and
    /// `Content-Type`.
    static func withoutFields(_ request: GraphQLHTTPRequest) -> GraphQLHTTPRequest {
        var stripped = request
        stripped.headers = request.headers.filter { keptFields.contains($0.key.lowercased()) }
        return stripped
    }

    /// A response's header fields, a field sent more than once joined with commas (RFC 9110,
    /// section 5.3).
    static func headers(of response: HTTPClientResponse) -> [String: String] {
        var fields: [String: String] = [:]
        var names: [String: String] = [:]  // lowercased → the spelling first seen
        for (name, value) in response.headers {
            let key = names[name.lowercased(), default: name]
            names[name.lowercased()] = key
            fields[key] = fields[key].map { "\($0), \(value)" } ?? value
        }
        return fields
    }

    /// The error of a body larger than `limit` bytes.
    static func tooLarge(limit: Int, url: URL) -> URLError {
        error(
            .dataLengthExceedsMaximum, url: url,
            "the response is larger than the transport's limit of \(limit) bytes",
            underlying: nil)
    }

    /// A `URLError` with a message, the URL it failed on, and the error underneath.
    static func error(_ code: URLError.Code, url: URL, _ message: String, underlying: (any Error)?)
        -> URLError
    {
        var info: [String: Any] = [NSLocalizedDescriptionKey: message, NSURLErrorFailingURLErrorKey: url]
        if let underlying { info[NSUnderlyingErrorKey] = underlying }
        return URLError(code, userInfo: info)
    }

    /// An error of AsyncHTTPClient or SwiftNIO as URLSession would have given it.
    static func translate(_ error: any Error, url: URL) -> any Error {
        if error is CancellationError || Task.isCancelled { return CancellationError() }
        if let error = error as? URLError { return error }
        let (code, summary) = classify(error)
        if code == .cancelled { return CancellationError() }
        return Self.error(code, url: url, "\(summary) (\(String(describing: error)))", underlying: error)
    }

    /// The `URLError` code of an error, and a few words on it.
    static func classify(_ error: any Error) -> (URLError.Code, String) {
        if let error = error as? HTTPClientError {
            switch error {
            case .readTimeout, .deadlineExceeded, .writeTimeout: return (.timedOut, "the request timed out")
            case .connectTimeout, .getConnectionFromPoolTimeout, .tlsHandshakeTimeout:
                return (.timedOut, "the connection timed out")
            case .remoteConnectionClosed, .bodyLengthMismatch, .uncleanShutdown:
                return (.networkConnectionLost, "the connection was lost")
            case .cancelled: return (.cancelled, "cancelled")
            case .invalidURL, .emptyHost, .emptyScheme: return (.badURL, "the URL is not one to send to")
            case .proxyAuthenticationRequired, .invalidProxyResponse, .httpProxyHandshakeTimeout:
                return (.cannotConnectToHost, "the proxy refused the connection")
            default:
                if String(describing: error).contains("unsupported scheme") {
                    return (.unsupportedURL, "the URL's scheme is not http or https")
                }
                return (.badServerResponse, "the server's answer could not be read")
            }
        }
        if let error = error as? NIOConnectionError {
            let resolved =
                error.dnsAError == nil || error.dnsAAAAError == nil || !error.connectionErrors.isEmpty
            return resolved
                ? (.cannotConnectToHost, "could not connect to the server")
                : (.cannotFindHost, "could not find the server's host")
        }
        if let error = error as? IOError {
            switch error.errnoCode {
            case ECONNREFUSED: return (.cannotConnectToHost, "could not connect to the server")
            case ETIMEDOUT: return (.timedOut, "the connection timed out")
            default: return (.networkConnectionLost, "the connection was lost")
            }
        }
        if let error = error as? ChannelError {
            switch error {
            case .connectTimeout: return (.timedOut, "the connection timed out")
            default: return (.networkConnectionLost, "the connection was lost")
            }
        }
        if error is HTTPParserError { return (.badServerResponse, "the server's answer is not HTTP") }
        if error is NIOSSLError || error is BoringSSLError {
            return (.secureConnectionFailed, "the TLS connection failed")
        }
        if error is SocketAddressError { return (.cannotFindHost, "could not find the server's host") }
        return (.unknown, "the request failed")
    }
}
