import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import NIOHTTPCompression
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
/// - ``idleTimeout`` ends a request when no byte arrives for that long, the body included, and
///   bounds the time to connect; a request's own timeout bounds the wait for its response's
///   head.
/// - It asks for a compressed body (`Accept-Encoding: gzip, deflate`) unless the request names
///   its own encodings, and reads a gzip or deflate body uncompressed (the size limit counts the
///   uncompressed bytes).
/// - A URL with credentials (`https://user:token@host/...`) sends them as HTTP Basic
///   authentication, unless the request has an `Authorization` field.
/// - Redirects (301, 302, 303, 307, 308) are followed, up to ``maximumRedirects``: a 303, and a
///   301 or 302 answering a `POST`, go on as a `GET` without a body. Which header fields a
///   redirect keeps is ``redirectFields``' to say (`RedirectFieldRule`, the rule of the
///   library's `RedirectHeaderGuard`): all of them where it permits, and elsewhere only `Accept`
///   and `Content-Type`.
///
/// The connections are kept alive and reused; the transport closes them when its last reference
/// goes. Where it differs from URLSession: it keeps no cookies, not even for one command; it
/// does not send a request again by itself when a kept-alive connection turns out closed (the
/// request fails with `networkConnectionLost`, which `paging fetch` retries); and its proxy is
/// one for every request (see ``proxy(for:environment:)``), reached with `CONNECT` for `http`
/// URLs too, where curl sends those to the proxy as they are.
final class HTTPClientTransport: GraphQLTransport, Sendable {
    /// The largest response body read, in bytes.
    let maximumResponseSize: Int
    /// How long a request waits for its next byte before it fails with `URLError.timedOut`.
    let idleTimeout: Duration
    /// How many redirects one request follows before it fails with
    /// `URLError.httpTooManyRedirects`.
    let maximumRedirects: Int
    /// Which header fields a redirect keeps: every one where the `permits` closure given allows
    /// (or, without one, on the request's own origin), `Accept` and `Content-Type` elsewhere.
    let redirectFields: RedirectFieldRule
    private let client: HTTPClient

    /// The default of ``maximumResponseSize``: 64 MiB, the library transport's.
    static let defaultMaximumResponseSize = 64 << 20

    /// The `User-Agent` of every request that does not set its own (some APIs, GitHub's among
    /// them, refuse a request without one).
    static let userAgent = "paging"

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
        // A zero timeout would fail every request at once.
        let idleTimeout = max(idleTimeout, .milliseconds(1))
        self.idleTimeout = idleTimeout
        self.maximumResponseSize = maximumResponseSize
        self.maximumRedirects = maximumRedirects
        self.redirectFields = RedirectFieldRule(permits: permits)
        var configuration = HTTPClient.Configuration(
            redirectConfiguration: .disallow,
            timeout: .init(connect: TimeAmount(idleTimeout), read: TimeAmount(idleTimeout)),
            connectionPool: .init(
                idleTimeout: .seconds(60),
                concurrentHTTP1ConnectionsPerHostSoftLimit: maximumConnectionsPerHost),
            proxy: proxy,
            decompression: .enabled(limit: .size(maximumResponseSize)))
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
            guard let scheme = hop.url.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
                throw Self.error(
                    .unsupportedURL, url: hop.url, "paging sends requests to http and https URLs only",
                    underlying: nil)
            }
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
                hop = next
                hop.headers = redirectFields.fields(
                    of: next.headers, redirectedTo: next.url, from: request.url)
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
    /// given, as curl's) or a SOCKS5 one (`socks5://` or `socks5h://`, without credentials).
    ///
    /// A command asks once, for the URL it starts from: its requests to other hosts (a redirect,
    /// a next page elsewhere) go through the same proxy, or none.
    /// - Throws: ``UnusableProxy`` for a proxy of another kind, or one that cannot be read, rather
    ///   than connecting without it.
    /// - Complexity: O(*n*) in the length of `no_proxy`.
    static func proxy(for url: URL, environment: [String: String]) throws(UnusableProxy)
        -> HTTPClient.Configuration.Proxy?
    {
        func variable(_ names: String...) -> (name: String, value: String)? {
            names.lazy.compactMap { name in environment[name].map { (name, $0) } }.first { !$0.1.isEmpty }
        }
        guard let scheme = url.scheme?.lowercased(), let host = url.host?.lowercased() else { return nil }
        let found =
            scheme == "https"
            ? variable("https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY")
            : variable("http_proxy", "all_proxy", "ALL_PROXY")
        guard let (name, named) = found else { return nil }
        let exempt = (variable("no_proxy", "NO_PROXY")?.value ?? "").split(separator: ",").map {
            $0.trimmingCharacters(in: .whitespaces).lowercased()
        }
        for entry in exempt where !entry.isEmpty {
            if entry == "*" { return nil }
            let domain = entry.hasPrefix(".") ? String(entry.dropFirst()) : entry
            if host == domain || host.hasSuffix("." + domain) { return nil }
        }
        guard let proxyURL = URL(string: named.contains("://") ? named : "http://" + named),
            let proxyHost = proxyURL.host, !proxyHost.isEmpty
        else { throw UnusableProxy(variable: name, proxy: nil) }
        let port = proxyURL.port ?? 1080
        let shown = "\(proxyURL.scheme ?? "")://\(proxyHost):\(port)"  // never the credentials
        switch proxyURL.scheme?.lowercased() {
        case "http":
            let authorization = proxyURL.user(percentEncoded: false).map { user in
                HTTPClient.Authorization.basic(
                    username: user, password: proxyURL.password(percentEncoded: false) ?? "")
            }
            return .server(host: proxyHost, port: port, authorization: authorization)
        case "socks5", "socks5h":
            guard proxyURL.user == nil else {
                throw UnusableProxy(variable: name, proxy: shown + " with credentials")
            }
            return .socksServer(host: proxyHost, port: port)
        default: throw UnusableProxy(variable: name, proxy: shown)
        }
    }

    /// A proxy named in the environment that the transport cannot use.
    struct UnusableProxy: Error, Equatable, CustomStringConvertible {
        /// The environment variable that names it.
        var variable: String
        /// The proxy, without credentials; `nil` when it could not be read.
        var proxy: String?

        var description: String {
            let what = proxy.map { "names \($0)" } ?? "is not a proxy URL"
            return
                "\(variable) \(what): paging goes through an http:// proxy, or a socks5:// one without credentials. Change \(variable), or add the host to no_proxy."
        }
    }

    /// Reads a response's body, up to ``maximumResponseSize``.
    private func read(_ response: HTTPClientResponse, url: URL) async throws -> Data {
        let limit = maximumResponseSize
        let announced = response.headers.first(name: "content-length").flatMap { Int($0) }
        if let announced, announced > limit { throw URLError.responseTooLarge(limit: limit, url: url) }
        var body = Data()
        if let announced, announced > 0 { body.reserveCapacity(announced) }
        do {
            for try await chunk in response.body {
                guard chunk.readableBytes <= limit - body.count else {
                    throw URLError.responseTooLarge(limit: limit, url: url)
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
        if !sent.headers.contains(name: "accept-encoding") {
            sent.headers.add(name: "Accept-Encoding", value: "gzip, deflate")
        }
        if !sent.headers.contains(name: "authorization"), let user = request.url.user(percentEncoded: false) {
            let password = request.url.password(percentEncoded: false) ?? ""
            sent.headers.add(
                name: "Authorization",
                value: "Basic " + Data("\(user):\(password)".utf8).base64EncodedString())
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
            case .cancelled:
                // Not the caller's cancellation (that is `Task.isCancelled`): the client's, of a
                // request on a connection that closed first (an HTTP/2 GOAWAY).
                return (.networkConnectionLost, "the connection closed before the request was sent")
            case .invalidURL, .emptyHost, .emptyScheme: return (.badURL, "the URL is not one to send to")
            case .proxyAuthenticationRequired, .invalidProxyResponse, .httpProxyHandshakeTimeout:
                return (.cannotConnectToHost, "the proxy refused the connection")
            default:
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
        if let error = error as? HTTPParserError {
            // The end of the connection before the end of the body it announced.
            if error == .invalidEOFState { return (.networkConnectionLost, "the connection was lost") }
            return (.badServerResponse, "the server's answer is not HTTP")
        }
        if let error = error as? NIOSSLError {
            if case .uncleanShutdown = error { return (.networkConnectionLost, "the connection was lost") }
            return (.secureConnectionFailed, "the TLS connection failed")
        }
        if error is BoringSSLError { return (.secureConnectionFailed, "the TLS connection failed") }
        if let error = error as? NIOHTTPDecompression.DecompressionError {
            if case .limit = error {
                return (
                    .dataLengthExceedsMaximum,
                    "the response is larger than the transport's limit, uncompressed"
                )
            }
            return (.cannotDecodeContentData, "the compressed body could not be read")
        }
        if error is SocketAddressError { return (.cannotFindHost, "could not find the server's host") }
        return (.unknown, "the request failed")
    }
}
