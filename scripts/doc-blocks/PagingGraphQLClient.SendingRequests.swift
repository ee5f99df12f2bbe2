// The context of PagingGraphQLClient.docc/SendingRequests.md's samples (scripts/check-doc-blocks.py).
import Foundation
import PagingGraphQLClient

let url: URL = placeholder()

let query = LaunchQuery(id: "109")
func showAlert(title: String, message: String) {}
