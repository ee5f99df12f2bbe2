// The context of PagingHTTPClient.docc/PagingHTTPClient.md's samples (scripts/check-doc-blocks.py).
import Foundation

let endpoint: URL = placeholder()
