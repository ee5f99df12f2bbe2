public import AsyncHTTPClient
public import Foundation
import NIOCore
import NIOHTTP1
import NIOHTTPCompression
import NIOPosix
import NIOSSL
public import PagingGraphQLClient

/// A `GraphQLTransport` over SwiftNIO (AsyncHTTPClient): HTTP/1.1 and HTTP/2, TLS from
/// BoringSSL, on Linux and Apple platforms alike. On Linux it is the transport to use.
///
/// ```swift
/// let transport = HTTPClientTransport()
/// let client = GraphQLClient(endpoint: url, transport: RetryingTransport(base: transport))
/// ```
///
/// Why not `URLSessionTransport` on Linux: FoundationNetworking loads libcurl and some thirty
/// libraries with it (about 7 MB of a process's resident memory before the first request),
/// keeps a few hundred bytes of every request it sends for as long as the process lives, and
/// stalls on a kept-alive connection the server dropped (RELIABILITY.md). This transport holds
/// nothing once a request ends.
///
/// It behaves as `PagingGraphQL`'s `URLSessionTransport` does, by the same rules, so that errors
/// read the same whichever a program meets:
/// - Failures are `URLError`s with the codes URLSession gives (`timedOut`,
///   `networkConnectionLost`, `cannotConnectToHost`, `dataLengthExceedsMaximum`, ...), the
///   underlying error kept under `NSUnderlyingErrorKey`; cancelling the calling task throws
///   `CancellationError`.
/// - A body larger than ``maximumResponseSize`` fails with `URLError.dataLengthExceedsMaximum`
///   as soon as its announced length or the bytes read pass it (the message the library's
///   transports share).
/// - ``idleTimeout`` ends a request when no byte arrives for that long, the body included, and
///   bounds the time to connect; a request's own timeout bounds the wait for its response's
///   head.
/// - It asks for a compressed body (`Accept-Encoding: gzip, deflate`) unless the request names
///   its own encodings, and reads a gzip or deflate body uncompressed (the size limit counts the
///   uncompressed bytes).
/// - A URL with credentials (`https://user:token@host/...`) sends them as HTTP Basic
///   authentication, unless the request has an `Authorization` field.
/// - Redirects (301, 302, 303, 307, 308) are followed, up to ``maximumRedirects``: a 303, and a
///   301 or 302 answering a `POST`, go on as a `GET` without a body. A redirect keeps the
///   request's header fields by the rule of `URLSessionTransport`'s `RedirectHeaderGuard`: all
///   of them to the first request's origin (or where the `permits` closure given allows), and
///   elsewhere only `Accept` and `Content-Type`, never `Authorization`, `Cookie` or
///   `Proxy-Authorization`.
///
/// The connections are kept alive and reused; the transport closes them when its last reference
/// goes. Where it differs from URLSession: it keeps no cookies; it does not send a request again
/// by itself when a kept-alive connection turns out closed (the request fails with
/// `networkConnectionLost`, which a `RetryingTransport` retries); and its proxy is one for
/// every request (see ``proxy(for:environment:)``), reached with `CONNECT` for `http` URLs too,
/// where curl sends those to the proxy as they are.
///
/// - Complexity: a request costs O(*n*) in the size of its response's body.
public final class HTTPClientTransport: GraphQLTransport, Sendable {
    /// The largest response body read, in bytes.
    public let maximumResponseSize: Int
    /// How long a request waits for its next byte before it fails with `URLError.timedOut`.
    public let idleTimeout: Duration
    /// How many redirects one request follows before it fails with
    /// `URLError.httpTooManyRedirects`.
    public let maximumRedirects: Int
    /// The `User-Agent` of every request that does not set its own.
    public let userAgent: String
    /// Which header fields a redirect keeps: every one where the `permits` closure given allows
    /// (or, without one, on the request's own origin), `Accept` and `Content-Type` elsewhere.
    let redirectFields: RedirectFieldRule
    private let client: HTTPClient

    /// The default of ``maximumResponseSize``: 64 MiB, as `URLSessionTransport`'s.
    public static let defaultMaximumResponseSize = TransportLimits.defaultMaximumResponseSize

    /// The default of ``userAgent``: `Paging` (some APIs, GitHub's among them, refuse a request
    /// without one).
    public static let defaultUserAgent = "Paging"

    /// Creates a transport.
    /// - Parameters:
    ///   - idleTimeout: how long a request waits for its next byte; 60 seconds unless given.
    ///   - maximumResponseSize: the largest response body read, in bytes; 64 MiB unless given.
    ///   - maximumRedirects: how many redirects a request follows; 10 unless given.
    ///   - maximumConnectionsPerHost: how many connections to one host are open at once; 8
    ///     unless given.
    ///   - proxy: the proxy every request goes through, or `nil` for none (see
    ///     ``proxy(for:environment:)``).
    ///   - userAgent: the `User-Agent` of requests that do not set their own.
    ///   - permits: whether a redirect to a URL keeps the request's header fields; unless
    ///     given, only to the request's own origin.
    public init(
        idleTimeout: Duration = .seconds(60), maximumResponseSize: Int = defaultMaximumResponseSize,
        maximumRedirects: Int = 10,
        maximumConnectionsPerHost: Int = 8, proxy: HTTPClient.Configuration.Proxy? = nil,
        userAgent: String = defaultUserAgent,
        permits: (@Sendable (URL) -> Bool)? = nil
    ) {
        // A zero timeout would fail every request at once.
        let idleTimeout = max(idleTimeout, .milliseconds(1))
        self.idleTimeout = idleTimeout
        self.maximumResponseSize = maximumResponseSize
        self.maximumRedirects = maximumRedirects
        self.userAgent = userAgent
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
        // the caller's (a `RetryingTransport`), which it can show.
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
    public func send(_ request: GraphQLHTTPRequest) async throws -> GraphQLHTTPResponse {
        var hop = request
        var redirects = 0
        while true {
            guard let scheme = hop.url.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
                throw Self.error(
                    .unsupportedURL, url: hop.url, "the transport sends requests to http and https URLs only",
                    underlying: nil)
            }
            let response: HTTPClientResponse
            do {
                response = try await client.execute(
                    Self.clientRequest(for: hop, userAgent: userAgent),
                    timeout: TimeAmount(max(hop.timeout, .milliseconds(1))))
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
    static func clientRequest(for request: GraphQLHTTPRequest, userAgent: String) -> HTTPClientRequest {
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
}
