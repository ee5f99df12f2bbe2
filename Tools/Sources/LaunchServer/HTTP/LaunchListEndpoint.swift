import Foundation
import HTTPTypes
import Hummingbird

/// A GitHub-style list on `GET /api/launches?per_page=N&page=P`: a JSON array of launches,
/// newest first, with an RFC 8288 `Link` header.
///
/// `per_page` is 1 to 100 (30 by default) and `page` is 1 or more (1 by default). The `Link`
/// header carries `rel="next"` and `rel="last"` unless this is the last page, and
/// `rel="first"` and `rel="prev"` unless it is the first; a page past the end is empty and
/// links back. `X-Total-Count` carries the number of launches. Paging is by offset, as on
/// GitHub, so deep pages cost more (see `LaunchStore.offsetPage`).
struct LaunchListEndpoint: Sendable {
    /// The launches.
    let store: LaunchStore
    /// The server's base address, for the links.
    let baseURL: LinkBase

    /// The default page size, as on GitHub.
    static let defaultPerPage = 30
    /// The largest page size, as on GitHub.
    static let maximumPerPage = 100

    /// Handles `GET /api/launches`.
    func respond(to request: Request) async throws -> Response {
        let parameters = request.uri.queryParameters
        let perPage = try Self.integer(
            parameters, "per_page", default: Self.defaultPerPage, range: 1...Self.maximumPerPage)
        let page = try Self.integer(parameters, "page", default: 1, range: 1...Int.max)
        let total = try await store.count(scope: .all)
        let (offset, overflow) = (page - 1).multipliedReportingOverflow(by: perPage)
        let launches =
            overflow || offset >= total ? [] : try await store.offsetPage(offset: offset, limit: perPage)
        let lastPage = max(1, (total + perPage - 1) / perPage)
        var links: [String] = []
        func link(_ number: Int, _ relation: String) {
            links.append(
                "<\(baseURL.text)/api/launches?per_page=\(perPage)&page=\(number)>; rel=\"\(relation)\"")
        }
        if page < lastPage {
            link(page + 1, "next")
            link(lastPage, "last")
        }
        if page > 1 {
            link(1, "first")
            link(min(page - 1, lastPage), "prev")
        }
        var headers: HTTPFields = [:]
        if !links.isEmpty, let name = HTTPField.Name("Link") {
            headers[name] = links.joined(separator: ", ")
        }
        if let name = HTTPField.Name("X-Total-Count") {
            headers[name] = String(total)
        }
        return try JSONResponse.make(encoding: launches.map(LaunchJSON.init), headers: headers)
    }

    /// A whole-number parameter within a range.
    private static func integer(
        _ parameters: Parameters, _ name: String, default value: Int, range: ClosedRange<Int>
    ) throws(HTTPProblem) -> Int {
        guard let text = parameters[Substring(name)] else { return value }
        guard let number = Int(text) else {
            throw .badRequest("\(name) must be a whole number; it was '\(text)'.")
        }
        guard range.contains(number) else {
            let bounds =
                range.upperBound == Int.max
                ? "\(range.lowerBound) or more" : "between \(range.lowerBound) and \(range.upperBound)"
            throw .badRequest("\(name) must be \(bounds); it was \(number).")
        }
        return number
    }
}
