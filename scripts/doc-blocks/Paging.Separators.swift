// The context of Paging.docc/Separators.md's samples (scripts/check-doc-blocks.py).
import Paging
import PagingTesting

// `Launch` is the article's own (its first sample).
let pager: Pager<Int, Launch> = placeholder()
/// The app's source of launches.
struct LaunchesSource: PageSource {
    func load(_ request: PageRequest<Int>) async throws -> Page<Int, Launch> { placeholder() }
}
@MainActor let tableView = UITableView()
@MainActor var rows: SeparatedItems<Launch, Int> = placeholder()
