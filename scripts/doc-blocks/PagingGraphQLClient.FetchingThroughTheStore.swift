// The context of PagingGraphQLClient.docc/FetchingThroughTheStore.md's samples
// (scripts/check-doc-blocks.py).
import Foundation
import PagingGraphQLClient

let url: URL = placeholder()
let mutation = BookTrips(variables: .init(ids: ["109"]))
/// The app's log (swift-log's `Logger` has the same call).
struct Logger { func warning(_ message: String) {} }
let logger = Logger()
func show(_ data: LaunchQuery.Data?, stale: Bool) {}
