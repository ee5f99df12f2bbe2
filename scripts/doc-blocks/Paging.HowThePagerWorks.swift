// The context of Paging.docc/HowThePagerWorks.md's samples (scripts/check-doc-blocks.py).
import Paging

struct Launch: Identifiable, Sendable { let id: Int }
@MainActor let list: PagedList<Int, Launch> = placeholder()
@MainActor var drawnVersion = 0
@MainActor let tableView = UITableView()
func apply(_ change: ListChange) {}
