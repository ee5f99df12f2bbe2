import Foundation
import PagingGraphQLClient

/// How a REST list says where its next page is.
enum NextPageLocator: Sendable, Hashable {
    /// An RFC 8288 `Link` header with `rel="next"`.
    case linkHeader
    /// A member of the JSON body, by a dotted path such as `links.next`: a URL (absolute or
    /// relative), or a token sent as the query parameter named `tokenParameter`.
    case bodyField(path: [String], tokenParameter: String?)
}

/// Exports a REST list: each page is a JSON array, or an object holding the array; the next page
/// is found by a `Link` header or a field of the body.
///
/// Cursors are the URL of the page to load next. A cursor of the form `URL#paging-skip=N` also
/// skips the first N items of that page (an export stopped by `--max-items` in the middle of a
/// page resumes there).
struct RESTExportSource: ExportSource {
    /// The first page.
    let start: URL
    /// How the next page is found.
    let locator: NextPageLocator
    /// The member of an object body that holds the items; the first array member when `nil`.
    let itemsPath: [String]?
    /// The `--header` fields, and the origin they are kept to: a page on another origin is asked
    /// for without them.
    let headers: HeaderScope
    /// How long a request may take.
    let timeout: Duration
    /// What sends the requests.
    let transport: any GraphQLTransport

    private static let skipMarker = "#paging-skip="

    func page(at cursor: String?, count: Int) async throws -> ExportPage {
        let (url, skip) = try Self.position(cursor) ?? (start, 0)
        var fields = ["Accept": "application/json"]
        let sendsHeaders = headers.permits(url)
        if sendsHeaders {
            for (name, value) in headers.fields { fields[name] = value }
        }
        let response = try await transport.send(
            GraphQLHTTPRequest(url: url, method: "GET", headers: fields, body: Data(), timeout: timeout))
        guard response.isSuccess else {
            let hint =
                sendsHeaders
                ? "Check the URL and the --header values."
                : "The --header fields were not sent there, as it is not the host the export started on; if it needs them, pass --send-headers-to-any-host."
            throw CLIError.failed(
                "GET \(url.absoluteString) answered HTTP \(response.statusCode); the body begins: \(Self.excerpt(response.body)). \(hint)"
            )
        }
        let body: JSONValue
        do {
            // The library's reader, not JSONDecoder, which traps on some bodies that are not JSON.
            body = try JSONValue(json: response.body)
        } catch {
            throw CLIError.failed(
                "GET \(url.absoluteString) did not answer JSON; the body begins: \(Self.excerpt(response.body)). Check that the URL is a JSON list."
            )
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

    /// The URL and the number of items to skip a cursor names.
    static func position(_ cursor: String?) throws(CLIError) -> (URL, Int)? {
        guard let cursor else { return nil }
        var text = cursor
        var skip = 0
        if let marker = cursor.range(of: skipMarker, options: .backwards) {
            guard let count = Int(cursor[marker.upperBound...]), count >= 0 else {
                throw .usage(
                    "--resume '\(cursor)' has a malformed \(skipMarker) count; pass the cursor exactly as printed."
                )
            }
            skip = count
            text = String(cursor[..<marker.lowerBound])
        }
        guard let url = URL(string: text), url.scheme != nil else {
            throw .usage(
                "--resume '\(cursor)' is not a URL; with --rest, pass the cursor exactly as printed (the URL of the next page)."
            )
        }
        return (url, skip)
    }

    /// The items of a page body.
    static func items(in body: JSONValue, path: [String]?, url: URL) throws(CLIError) -> [JSONValue] {
        if let path {
            guard let items = body[path: path.map { .key($0) }]?.arrayValue else {
                throw .failed(
                    "the JSON of \(url.absoluteString) has no array at \(path.joined(separator: ".")); check --items-field."
                )
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
        throw .failed(
            "the JSON of \(url.absoluteString) is neither an array nor an object with an array member; name the items with --items-field."
        )
    }

    /// The URL of the next page named by a body field.
    static func nextURL(in body: JSONValue, path: [String], tokenParameter: String?, current: URL)
        throws(CLIError)
        -> URL?
    {
        guard let value = body[path: path.map { .key($0) }], !value.isNull else { return nil }
        let text: String
        if let string = value.stringValue {
            text = string
        } else if let number = value.intValue {
            text = String(number)
        } else {
            throw .failed(
                "the next-page field \(path.joined(separator: ".")) is \(value.compactJSON), not a URL or a token."
            )
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
            throw .failed(
                "the next-page field \(path.joined(separator: ".")) is '\(text)', not a URL; if it is a token, name the query parameter it goes in with --token-param."
            )
        }
        return url
    }

    static func excerpt(_ body: Data) -> String {
        guard !body.isEmpty else { return "(an empty body)" }
        let text = String(decoding: body.prefix(400), as: UTF8.self)
        let collapsed = text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        return "\"\(collapsed.prefix(160))\(collapsed.count > 160 ? "…" : "")\""
    }
}

/// Reads RFC 8288 `Link` header values.
enum LinkHeader {
    /// The target of the first link with a relation type, resolved against a base URL.
    /// - Parameters:
    ///   - relation: the relation type, such as `next`.
    ///   - value: the header's value: `<url>; rel="next", <url>; rel="last"`.
    ///   - base: the URL the header came with.
    static func target(of relation: String, in value: String?, base: URL) -> URL? {
        guard let value else { return nil }
        for link in splitLinks(value) {
            guard let open = link.firstIndex(of: "<"), let close = link[open...].firstIndex(of: ">") else {
                continue
            }
            let target = String(link[link.index(after: open)..<close])
            let parameters = link[link.index(after: close)...].split(separator: ";")
            for parameter in parameters {
                let pair = parameter.split(separator: "=", maxSplits: 1)
                guard pair.count == 2, pair[0].trimmingCharacters(in: .whitespaces).lowercased() == "rel"
                else { continue }
                let relations = pair[1].trimmingCharacters(in: .whitespaces).trimmingCharacters(
                    in: CharacterSet(charactersIn: "\"")
                )
                .split(separator: " ").map { $0.lowercased() }
                if relations.contains(relation.lowercased()) {
                    return URL(string: target, relativeTo: base)?.absoluteURL
                }
            }
        }
        return nil
    }

    /// Splits a header value at the commas between links (not those inside `<...>` or quotes).
    private static func splitLinks(_ value: String) -> [Substring] {
        var parts: [Substring] = []
        var start = value.startIndex
        var inAngle = false
        var inQuote = false
        for index in value.indices {
            switch value[index] {
            case "<" where !inQuote: inAngle = true
            case ">" where !inQuote: inAngle = false
            case "\"" where !inAngle: inQuote.toggle()
            case "," where !inAngle && !inQuote:
                parts.append(value[start..<index])
                start = value.index(after: index)
            default: break
            }
        }
        parts.append(value[start...])
        return parts
    }
}
