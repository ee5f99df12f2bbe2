// The context of PagingExport.docc/PagingExport.md's samples (scripts/check-doc-blocks.py).
import Foundation

let token: String = placeholder()
