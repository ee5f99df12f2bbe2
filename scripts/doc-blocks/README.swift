// The context of README.md's samples (scripts/check-doc-blocks.py): the app's types, the APIs its
// pages come from, and where it keeps its files.
import Foundation
import Paging
import PagingGraphQLClient

/// A launch as the samples use it: by the engine (a year for the headers), decoded from GraphQL
/// (`id site mission { name }`), and stored (Codable) by the offline-first source.
struct Launch: Codable, Identifiable, Sendable {
    struct Mission: Codable, Sendable { let name: String }
    let id: String
    let site: String?
    let mission: Mission?
    var year: Int { 2006 }
}
struct Post: Identifiable, Sendable { let id: String }

/// The app's servers.
protocol API: Sendable {
    func launches(pageSize: Int, after cursor: String?) async throws
        -> (launches: [Launch], cursor: String?, hasMore: Bool)
    func launchConnection(first: Int?, after: String?) async throws -> (nodes: [Launch], pageInfo: PageInfo)
    func launchPage(offset: Int, limit: Int) async throws -> (launches: [Launch], totalCount: Int)
}
let api: any API = placeholder()
/// Firebase's query: the last `limitToLast` posts up to the key `endAt`, ascending by key.
protocol Firebase: Sendable {
    func timeline(limitToLast: Int, endAt: String?) async throws -> [(key: String, item: Post)]
}
let firebase: any Firebase = placeholder()
/// A Relay connection's fetch, both ways.
let fetch: @Sendable (RelayArguments) async throws -> RelayPage<Launch> = placeholder()
let deepLinkCursor: String? = nil
let row = 0

struct LaunchRow: View {
    init(_ launch: Launch) {}
    var body: Never { return fatalError() }
}

let url: URL = placeholder()
let token: String = placeholder()
let directory: String = placeholder()
func show(_ data: LaunchQuery.Data?) {}
