import Paging
public import PagingGraphQLClient

/// What an export does with a page whose data came with GraphQL errors (a
/// field failed, so it is `null`, and the rest of the page is there): the
/// client's `PartialDataReport` says which page and which errors.
public enum PartialDataHandling: Sendable {
    /// The load of the page fails with ``PartialDataError``: nothing of the
    /// page is written, and the export stops with the cursor before it.
    case refuse
    /// The page is written with its nulls, after its report is handed to
    /// the closure with the number of the page's items that were `null` as
    /// a whole (and so are missing from it).
    case accept(@Sendable (PartialDataReport<String>, _ missingItems: Int) -> Void)
}

/// A page refused because GraphQL errors came next to its data: the errors,
/// and the page's request.
public struct PartialDataError: Error, Sendable, CustomStringConvertible {
    /// The page's request and the errors.
    public let report: PartialDataReport<String>

    /// Creates the error of a refused page.
    /// - Parameter report: the page's request and the errors.
    public init(report: PartialDataReport<String>) {
        self.report = report
    }

    /// The errors, each on a line, and what to do.
    public var description: String {
        """
        \(Self.summary(of: report)):
        \(Self.list(report.errors))
        Nothing of that page was written. Fix the query (the errors say where), or accept \
        partial data (PartialDataHandling.accept) to export it with null where the errors are.
        """
    }

    /// The errors in a clause: `the server reported 2 GraphQL errors next to
    /// the data of the page at cursor 'c1'`.
    /// - Parameter report: a page's report.
    /// - Returns: the clause.
    public static func summary(of report: PartialDataReport<String>) -> String {
        let count = report.errors.count
        let page = report.request.key.map { "the page at cursor '\($0)'" } ?? "the first page"
        return
            "the server reported \(count) GraphQL error\(count == 1 ? "" : "s") next to the data of \(page)"
    }

    /// Each error on a line of its own, indented: its message, its path and
    /// its place in the document.
    /// - Parameter errors: the errors.
    /// - Returns: the lines, joined.
    public static func list(_ errors: [GraphQLResponseError]) -> String {
        errors.map { "  - \($0.description)" }.joined(separator: "\n")
    }
}
