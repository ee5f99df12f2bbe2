import PagingExport
import PagingGraphQLClient
import ToolsLock

/// Tells, on standard error, each page an export kept despite GraphQL errors (`--allow-partial`),
/// and sums up what they nulled at the end.
final class PartialDataLog: Sendable {
    private struct Counts {
        var errors = 0
        var pages = 0
        var missingItems = 0
    }

    private let progress: ProgressReporter
    private let counts = Locked(Counts())

    /// Creates a log that writes through the progress reporter (which clears its bar first).
    init(progress: ProgressReporter) {
        self.progress = progress
    }

    /// The handling that writes pages with errors and tells about them here.
    var handling: PartialDataHandling {
        .accept { report, missing in self.record(report, missingItems: missing) }
    }

    /// Warns about a page kept with errors, listing them.
    func record(_ report: PartialDataReport<String>, missingItems: Int) {
        counts.withLock { counts in
            counts.errors += report.errors.count
            counts.pages += 1
            counts.missingItems += missingItems
        }
        progress.interject(
            """
            paging: warning: \(PartialDataError.summary(of: report)); exported with null where they are \
            (--allow-partial):
            \(PartialDataError.list(report.errors))

            """)
    }

    /// What the errors nulled, in a sentence; `nil` when no page had errors.
    /// - Parameter itemsWithNulls: the items written with a `null` an error put there.
    func summary(itemsWithNulls: Int) -> String? {
        let counts = counts.withLock { $0 }
        guard counts.errors > 0 else { return nil }
        var text =
            "paging: partial data (--allow-partial): the server reported \(Self.count(counts.errors, "error")) on \(Self.count(counts.pages, "page"))"
        var parts: [String] = []
        if itemsWithNulls > 0 {
            parts.append(
                "\(Self.count(itemsWithNulls, "item")) \(itemsWithNulls == 1 ? "was" : "were") written with null in place of a failed field"
            )
        }
        if counts.missingItems > 0 {
            parts.append(
                "\(Self.count(counts.missingItems, "item")) \(counts.missingItems == 1 ? "was null and is" : "were null and are") missing"
            )
        }
        if !parts.isEmpty { text += "; " + parts.joined(separator: ", ") }
        return text + "."
    }

    private static func count(_ value: Int, _ noun: String) -> String {
        "\(value) \(noun)\(value == 1 ? "" : "s")"
    }
}
