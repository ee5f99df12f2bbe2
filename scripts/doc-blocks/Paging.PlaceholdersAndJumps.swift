// The context of Paging.docc/PlaceholdersAndJumps.md's samples (scripts/check-doc-blocks.py).
import Foundation
import Paging

// `Launch` is the article's own (a later sample declares it).
/// The server's offset API: a page of launches and the total.
protocol LaunchAPI: Sendable {
    func launches(offset: Int, limit: Int) async throws -> (launches: [Launch], total: Int)
}
let api: any LaunchAPI = placeholder()

/// A search API that pages by skip and take, with the total of hits.
struct Hit: Identifiable, Sendable { let id: Int }
protocol SearchAPI: Sendable {
    func search(skip: Int, take: Int) async throws -> (hits: [Hit], total: Int)
}

/// The app's cell of grey bars for a placeholder row.
final class SkeletonCell: UITableViewCell {}
