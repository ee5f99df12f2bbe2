// The context of PagingGraphQLClient.docc/ListsThatTakeNewRecords.md's samples
// (scripts/check-doc-blocks.py).
import Foundation

let endpoint: URL = placeholder()
