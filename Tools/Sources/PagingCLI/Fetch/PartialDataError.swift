import Paging
import PagingGraphQLClient

/// A page refused because GraphQL errors came next to its data: the errors, and the page.
struct PartialDataError: Error, Sendable, CustomStringConvertible {
    /// The page's request and the errors.
    let report: PartialDataReport<String>

    var description: String {
        """
        \(Self.summary(of: report)):
        \(Self.list(report.errors))
        Nothing of that page was written. Fix the query (the errors say where), or pass \
        --allow-partial to export the data with null where the errors are.
        """
    }

    /// `the server reported 2 GraphQL errors next to the data of the page at cursor 'c1'`.
    static func summary(of report: PartialDataReport<String>) -> String {
        let count = report.errors.count
        let page = report.request.key.map { "the page at cursor '\($0)'" } ?? "the first page"
        return
            "the server reported \(count) GraphQL error\(count == 1 ? "" : "s") next to the data of \(page)"
    }

    /// Each error on a line of its own: its message, its path and its place in the document.
    static func list(_ errors: [GraphQLResponseError]) -> String {
        errors.map { "  - \($0.description)" }.joined(separator: "\n")
    }
}
