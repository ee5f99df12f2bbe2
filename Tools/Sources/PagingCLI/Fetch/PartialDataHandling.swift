import PagingGraphQLClient

/// What an export does with a page whose data came with GraphQL errors (a field failed, so it
/// is `null`, and the rest of the page is there): the library's ``PartialDataReport`` says which
/// page and which errors.
enum PartialDataHandling: Sendable {
    /// The load of the page fails with ``PartialDataError``: nothing of the page is written, and
    /// the export stops with the cursor before it. What `paging fetch` does by default.
    case refuse
    /// The page is written with its nulls, after its report is handed to the closure with the
    /// number of the page's nodes that were `null` (and so are missing from it). What
    /// `--allow-partial` asks for.
    case accept(@Sendable (PartialDataReport<String>, _ missingItems: Int) -> Void)
}
