import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A REST client for the server's Firebase-style timeline and GitHub-style list, on URLSession.
struct RESTClient: Sendable {
    /// A response outside 2xx.
    struct StatusError: Error, CustomStringConvertible {
        let status: Int
        let body: String
        var description: String { "HTTP \(status): \(body.prefix(200))" }
    }

    /// One page of `/api/launches`: the launches and the `Link` header's targets by relation.
    struct ListPage: Sendable {
        var launches: [RESTLaunch]
        var links: [String: URL]
    }

    let baseURL: URL
    private var session: URLSession { TestSession.session }

    init(baseURL: URL) {
        self.baseURL = baseURL
    }

    /// GETs a URL; throws ``StatusError`` for a status outside 2xx.
    func get(_ url: URL) async throws -> (Data, HTTPURLResponse) {
        let (data, response) = try await session.data(from: url)
        guard let http = response as? HTTPURLResponse else {
            throw UnexpectedResponse("\(url) answered no HTTP response")
        }
        guard (200..<300).contains(http.statusCode) else {
            throw StatusError(status: http.statusCode, body: String(decoding: data, as: UTF8.self))
        }
        return (data, http)
    }

    /// `GET /timeline.json?orderBy="$key"&limitToLast=N&endAt="KEY"`: the entries, as the server
    /// sent them (a JSON object; its member order means nothing).
    func timeline(limitToLast: Int, endAt: String?) async throws -> [(key: String, item: RESTLaunch)] {
        var query = "orderBy=\(Self.encode("\"$key\""))&limitToLast=\(limitToLast)"
        if let endAt {
            query += "&endAt=\(Self.encode("\"\(endAt)\""))"
        }
        guard let url = URL(string: baseURL.absoluteString + "/timeline.json?" + query) else {
            throw UnexpectedResponse("cannot make the timeline URL from \(query)")
        }
        let (data, _) = try await get(url)
        // Firebase answers `null` where nothing matches; this server answers `{}`.
        let object = try JSONDecoder().decode([String: RESTLaunch]?.self, from: data) ?? [:]
        return object.map { (key: $0.key, item: $0.value) }
    }

    /// The first page of `/api/launches`.
    func firstListURL(perPage: Int) throws -> URL {
        guard let url = URL(string: baseURL.absoluteString + "/api/launches?per_page=\(perPage)&page=1")
        else {
            throw UnexpectedResponse("cannot make the list URL")
        }
        return url
    }

    /// A page of `/api/launches` and its `Link` header.
    func listPage(_ url: URL) async throws -> ListPage {
        let (data, response) = try await get(url)
        let header = response.allHeaderFields.first { ($0.key as? String)?.lowercased() == "link" }?.value
        let links = LinkHeader.parse((header as? String) ?? "")
        return ListPage(launches: try JSONDecoder().decode([RESTLaunch].self, from: data), links: links)
    }

    private static func encode(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? text
    }
}

/// An RFC 8288 `Link` header, read as a map from relation type to target.
enum LinkHeader {
    /// Parses `<url>; rel="next", <url>; rel="last"`. A link with several relation types
    /// (`rel="next last"`) is listed under each; a later link does not replace an earlier one
    /// of the same relation.
    static func parse(_ header: String) -> [String: URL] {
        var links: [String: URL] = [:]
        var rest = Substring(header)
        while let open = rest.firstIndex(of: "<"),
            let close = rest[open...].firstIndex(of: ">")
        {
            let target = rest[rest.index(after: open)..<close]
            let afterTarget = rest[rest.index(after: close)...]
            let end = afterTarget.firstIndex(of: "<") ?? afterTarget.endIndex
            let parameters = afterTarget[..<end]
            rest = afterTarget[end...]
            guard let url = URL(string: String(target)) else { continue }
            for parameter in parameters.split(separator: ";") {
                let parts = parameter.split(separator: "=", maxSplits: 1)
                guard parts.count == 2,
                    parts[0].trimmingCharacters(in: .whitespaces).lowercased() == "rel"
                else { continue }
                let value = parts[1].trimmingCharacters(in: CharacterSet(charactersIn: " ,\""))
                for relation in value.split(separator: " ") where links[relation.lowercased()] == nil {
                    links[relation.lowercased()] = url
                }
            }
        }
        return links
    }

    /// The `page` query parameter of a URL.
    static func pageNumber(of url: URL) -> Int? {
        URLComponents(url: url, resolvingAgainstBaseURL: false)?
            .queryItems?.first { $0.name == "page" }?.value.flatMap { Int($0) }
    }
}
