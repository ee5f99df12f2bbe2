// The context of Paging.docc/ListsThatChange.md's samples (scripts/check-doc-blocks.py).
import Paging

struct Launch: Identifiable, Sendable { let id: String; let mission: String }
struct Post: Identifiable, Sendable { let id: String }
struct LogLine: Identifiable, Sendable { let id: Int; let number: Int }

/// The app's servers: a log read by keyset, posts by offset, launches searched as a connection.
protocol LogAPI: Sendable { func lines(below key: Int?, limit: Int) async throws -> [LogLine] }
protocol API: LogAPI {
    func posts(offset: Int, limit: Int) async throws -> OffsetPage<Post>
    func launches(search: String, first: Int?, after: String?) async throws
        -> (nodes: [Launch], pageInfo: PageInfo)
}
let api: any API = placeholder()

/// The app's sources of launches: a list, and a feed whose newest come on top.
struct LaunchesSource: PageSource {
    func load(_ request: PageRequest<Int>) async throws -> Page<Int, Launch> { placeholder() }
}
struct FeedSource: PageSource {
    func load(_ request: PageRequest<Int>) async throws -> Page<Int, Launch> { placeholder() }
}
/// The id of the row the reader was looking at.
let shownID: Launch.ID = placeholder()
let launch: Launch = placeholder()
