import Foundation
import PagingGraphQL

/// Exports every item of a source, page after page, into a sink, and says where it stopped.
///
/// Each page is written whole before the next is asked for, so the cursor reported at the end
/// (after a failure, an interruption or a limit) resumes with nothing lost and nothing repeated.
struct Exporter {
    /// Limits and the place to start.
    struct Settings: Sendable {
        /// Items asked for per page.
        var pageSize: Int
        /// The most pages to load; no limit when `nil`.
        var maximumPages: Int?
        /// The most items to write; no limit when `nil`.
        var maximumItems: Int?
        /// The cursor to start after; the start of the list when `nil`.
        var resume: String?
    }

    /// How an export ended.
    enum Ending: Sendable {
        /// Every item was written.
        case completed
        /// `--max-pages` or `--max-items` was reached.
        case limitReached
        /// The task was cancelled (Ctrl-C).
        case interrupted
        /// A page could not be loaded or written.
        case failed(any Error)
    }

    /// The result of an export.
    struct Result: Sendable {
        /// How it ended.
        var ending: Ending
        /// The items written.
        var items: Int
        /// The pages loaded.
        var pages: Int
        /// Where to resume; `nil` when the export completed, or failed before its first page
        /// without a cursor to resume from.
        var resumeCursor: String?
    }

    /// The source.
    let source: any ExportSource
    /// The settings.
    let settings: Settings

    /// Runs the export.
    /// - Parameters:
    ///   - sink: where items go.
    ///   - progress: told after each page.
    /// - Returns: how it ended and where to resume.
    func run(into sink: JSONSink, progress: ProgressReporter) async -> Result {
        var cursor = settings.resume
        var items = 0
        var pages = 0
        var total: Int?
        func result(_ ending: Ending) -> Result {
            Result(ending: ending, items: items, pages: pages, resumeCursor: cursor)
        }
        while true {
            if Task.isCancelled { return result(.interrupted) }
            if let maximumPages = settings.maximumPages, pages >= maximumPages {
                return result(.limitReached)
            }
            var count = settings.pageSize
            if let maximumItems = settings.maximumItems {
                let remaining = maximumItems - items
                if remaining <= 0 { return result(.limitReached) }
                count = min(count, remaining)
            }
            let page: ExportPage
            do {
                page = try await source.page(at: cursor, count: count)
            } catch is CancellationError {
                return result(.interrupted)
            } catch {
                if Task.isCancelled { return result(.interrupted) }
                return result(.failed(error))
            }
            var values = page.items
            var next = page.next
            var cut = false
            if let maximumItems = settings.maximumItems, values.count > maximumItems - items {
                let keep = maximumItems - items
                values = Array(values.prefix(keep))
                if keep > 0, let resume = page.resumeCursors[keep - 1] {
                    next = resume
                    cut = true
                }
            }
            do {
                try sink.write(values)
            } catch {
                return result(
                    .failed(CLIError.failed("cannot write the output: \(ConnectionOptions.describe(error))."))
                )
            }
            items += values.count
            pages += 1
            // A resumed export does not know how many items came before its cursor.
            if settings.resume == nil { total = page.totalCount ?? total }
            progress.update(items: items, pages: pages, total: total)
            if next == nil, !cut {
                cursor = nil
                return result(.completed)
            }
            if let next, next == cursor, values.isEmpty {
                return result(
                    .failed(
                        CLIError.failed(
                            "the server answered the page after cursor \(next) with no items and the same cursor again; following it would loop forever."
                        )))
            }
            cursor = next
        }
    }
}
