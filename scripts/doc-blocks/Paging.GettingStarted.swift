// The context of Paging.docc/GettingStarted.md's samples (scripts/check-doc-blocks.py): the app's
// types and the APIs its pages come from.
import Foundation
import Paging

struct Launch: Identifiable, Sendable { let id: String; let mission: String }
struct Post: Identifiable, Sendable { let id: String }
struct Message: Identifiable, Sendable { let id: String }
struct LogLine: Identifiable, Sendable { let id: Int }

/// The app's servers: a cursor connection, a Relay connection of messages.
protocol API: Sendable {
    func launches(pageSize: Int, after cursor: String?) async throws
        -> (launches: [Launch], cursor: String?, hasMore: Bool)
    func messages(first: Int?, after: String?, last: Int?, before: String?) async throws
        -> (nodes: [Message], pageInfo: PageInfo)
}
let api: any API = placeholder()

/// Firebase's query: the last `limitToLast` posts up to the key `endAt`, ascending by key.
protocol Firebase: Sendable {
    func timeline(limitToLast: Int, endAt: String?) async throws -> [(key: String, item: Post)]
}
let firebase: any Firebase = placeholder()
let deepLinkCursor: String? = nil
let indexPath = IndexPath(row: 0, section: 0)

/// The app's sources of launches and of log lines.
struct LaunchesSource: PageSource {
    func load(_ request: PageRequest<Int>) async throws -> Page<Int, Launch> { placeholder() }
}
struct LogSource: PageSource {
    func load(_ request: PageRequest<Int>) async throws -> Page<Int, LogLine> { placeholder() }
}

struct LaunchRow: View {
    init(_ launch: Launch) {}
    var body: Never { return fatalError() }
}

@MainActor let tableView = UITableView()
@MainActor var rowsShown: PagedItems<LogLine> = placeholder()
@MainActor let list: PagedList<Int, Launch> = placeholder()
@MainActor var drawnVersion = 0
func apply(_ change: ListChange) {}
