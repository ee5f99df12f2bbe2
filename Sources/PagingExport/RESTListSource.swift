public import Foundation
public import PagingGraphQLClient

/// How a REST list says where its next page is.
public enum NextPageLocator: Sendable, Hashable {
    /// An RFC 8288 `Link` header with `rel="next"` (GitHub's, GitLab's).
    case linkHeader
    /// A member of the JSON body, by a path of keys such as `["links", "next"]`:
    /// a URL (absolute or relative to the page's), or, when `tokenParameter`
    /// is set, a token sent as that query parameter of the page's URL.
    case bodyField(path: [String], tokenParameter: String?)
}

/// Reads a REST list for an ``Exporter``: each page is a JSON array, or an
/// object holding the array; the next page is found by a `Link` header or a
/// field of the body (``NextPageLocator``).
///
/// Cursors are the URL of the page to load next. A cursor of the form
/// `URL#paging-skip=N` also skips the first N items of that page, so that
/// an export stopped by an item limit in the middle of a page resumes there.
///
/// The header fields go only where ``sendsHeaders`` allows, by default the
/// origin (scheme, host and port) of the first page: a next page on another
/// host is asked for without them, so that a token given for one API does
/// not reach another.
public struct RESTListSource: ExportSource {
    /// The first page.
    public let start: URL
    /// How the next page is found.
    public let locator: NextPageLocator
    /// The member of an object body that holds the items, as a path of
    /// keys; the first array member (in key order) when `nil`.
    public let itemsPath: [String]?
    /// The header fields sent with each request that ``sendsHeaders`` allows.
    public let headers: [String: String]
    /// Whether the header fields go with a request to a URL.
    public let sendsHeaders: @Sendable (URL) -> Bool
    /// How long a request may take.
    public let timeout: Duration
    /// What sends the requests (`RetryingTransport` over any transport
    /// retries transient failures and waits out rate limits).
    public let transport: any GraphQLTransport

    private static let skipMarker = "#paging-skip="

    /// Creates a source.
    /// - Parameters:
    ///   - start: the first page (with its page size as the API takes it, such as `per_page=100`).
    ///   - locator: how the next page is found.
    ///   - itemsPath: the member of an object body that holds the items.
    ///   - headers: header fields to send (an `Authorization` token).
    ///   - sendsHeaders: whether they go with a request to a URL; by default
    ///     only to the origin of `start`.
    ///   - timeout: how long a request may take.
    ///   - transport: what sends the requests.
    public init(
        start: URL, locator: NextPageLocator = .linkHeader, itemsPath: [String]? = nil,
        headers: [String: String] = [:], sendsHeaders: (@Sendable (URL) -> Bool)? = nil,
        timeout: Duration = .seconds(60), transport: any GraphQLTransport
    ) {
        self.start = start
        self.locator = locator
        self.itemsPath = itemsPath
        self.headers = headers
        let origin = HTTPOrigin(start)
        self.sendsHeaders = sendsHeaders ?? { url in origin != nil && HTTPOrigin(url) == origin }
        self.timeout = timeout
        self.transport = transport
    }

    /// Loads the page a cursor names (the first page for `nil`).
    /// - Throws: ``ExportError`` for a cursor this source did not make, a
    ///   status that is not a success, a body that is not JSON or holds no
    ///   list; the transport's error otherwise.
    /// - Complexity: one request; O(*n*) in the size of the body.
    public func page(at cursor: String?, count: Int) async throws -> ExportPage {
        let (url, skip) = try cursor.map(Self.position) ?? (start, 0)
        var fields = ["Accept": "application/json"]
        let withHeaders = !headers.isEmpty && sendsHeaders(url)
        if withHeaders {
            for (name, value) in headers { fields[name] = value }
        }
        let response = try await transport.send(
            GraphQLHTTPRequest(url: url, method: "GET", headers: fields, body: Data(), timeout: timeout))
        guard response.isSuccess else {
            let hint =
                headers.isEmpty || withHeaders
                ? "Check the URL and the header fields."
                : "The header fields were not sent there, as it is not the origin the export started on."
            throw ExportError(
                .httpStatus(response.statusCode),
                "GET \(url.absoluteString) answered HTTP \(response.statusCode); the body begins: \(Self.excerpt(response.body)). \(hint)",
                url: url)
        }
        let body: JSONValue
        do {
            // The library's reader, not JSONDecoder, which traps on some bodies that are not JSON.
            body = try JSONValue(json: response.body)
        } catch {
            throw ExportError(
                .notJSON,
                "GET \(url.absoluteString) did not answer JSON; the body begins: \(Self.excerpt(response.body)). Check that the URL is a JSON list.",
                url: url)
        }
        let items = try Self.items(in: body, path: itemsPath, url: url)
        let next: URL?
        switch locator {
        case .linkHeader:
            next = LinkHeader.target(of: "next", in: response.value(forHeader: "Link"), base: url)
        case .bodyField(let path, let tokenParameter):
            next = try Self.nextURL(in: body, path: path, tokenParameter: tokenParameter, current: url)
        }
        let total = response.value(forHeader: "X-Total-Count").flatMap {
            Int($0.trimmingCharacters(in: .whitespaces))
        }
        let kept = Array(items.dropFirst(skip))
        let cursors: [String?] = kept.indices.map { index in
            "\(url.absoluteString)\(Self.skipMarker)\(skip + index + 1)"
        }
        return ExportPage(items: kept, resumeCursors: cursors, next: next?.absoluteString, totalCount: total)
    }

    /// Checks that a cursor is one this source makes (to refuse a resume
    /// cursor before the export starts).
    /// - Parameter cursor: a cursor, as an export printed it.
    /// - Throws: ``ExportError`` (``ExportError/Code/malformedCursor``) when it is not.
    /// - Complexity: O(*n*) in the length of the cursor.
    public static func validate(cursor: String) throws(ExportError) {
        _ = try position(cursor)
    }

    /// The URL and the number of items to skip a cursor names.
    static func position(_ cursor: String) throws(ExportError) -> (URL, Int) {
        var text = cursor
        var skip = 0
        if let marker = cursor.range(of: skipMarker, options: .backwards) {
            guard let count = Int(cursor[marker.upperBound...]), count >= 0 else {
                throw ExportError(
                    .malformedCursor,
                    "the cursor '\(cursor)' has a malformed \(skipMarker) count; give the cursor exactly as the export reported it."
                )
            }
            skip = count
            text = String(cursor[..<marker.lowerBound])
        }
        guard let url = URL(string: text), url.scheme != nil else {
            throw ExportError(
                .malformedCursor,
                "the cursor '\(cursor)' is not a URL; a REST list's cursor is the URL of the next page, exactly as the export reported it."
            )
        }
        return (url, skip)
    }

    /// The items of a page body.
    static func items(in body: JSONValue, path: [String]?, url: URL) throws(ExportError) -> [JSONValue] {
        if let path {
            guard let items = body[path: path.map { .key($0) }]?.arrayValue else {
                throw ExportError(
                    .noItems,
                    "the JSON of \(url.absoluteString) has no array at \(path.joined(separator: ".")).",
                    url: url)
            }
            return items
        }
        if let items = body.arrayValue { return items }
        if let members = body.objectValue,
            let first = members.keys.sorted().first(where: { members[$0]?.arrayValue != nil }),
            let items = members[first]?.arrayValue
        {
            return items
        }
        throw ExportError(
            .noItems,
            "the JSON of \(url.absoluteString) is neither an array nor an object with an array member.",
            url: url)
    }

    /// The URL of the next page named by a body field.
    static func nextURL(in body: JSONValue, path: [String], tokenParameter: String?, current: URL)
        throws(ExportError) -> URL?
    {
        guard let value = body[path: path.map { .key($0) }], !value.isNull else { return nil }
        let text: String
        if let string = value.stringValue {
            text = string
        } else if let number = value.intValue {
            text = String(number)
        } else {
            throw ExportError(
                .malformedNextPage,
                "the next-page field \(path.joined(separator: ".")) is \(String(decoding: value.jsonData(sortingKeys: true), as: UTF8.self)), not a URL or a token.",
                url: current)
        }
        guard !text.isEmpty else { return nil }
        if let tokenParameter {
            guard var components = URLComponents(url: current, resolvingAgainstBaseURL: false) else {
                return nil
            }
            var query = (components.queryItems ?? []).filter { $0.name != tokenParameter }
            query.append(URLQueryItem(name: tokenParameter, value: text))
            components.queryItems = query
            return components.url
        }
        guard let url = URL(string: text, relativeTo: current)?.absoluteURL, url.scheme != nil else {
            throw ExportError(
                .malformedNextPage,
                "the next-page field \(path.joined(separator: ".")) is '\(text)', not a URL; if it is a token, name the query parameter it goes in.",
                url: current)
        }
        return url
    }

    /// The start of a body, on one line, for an error message.
    static func excerpt(_ body: Data) -> String {
        guard !body.isEmpty else { return "(an empty body)" }
        let text = String(decoding: body.prefix(400), as: UTF8.self)
        let collapsed = text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        return "\"\(collapsed.prefix(160))\(collapsed.count > 160 ? "…" : "")\""
    }
}
