// The context of PagingTesting.docc/PagingTesting.md's samples (scripts/check-doc-blocks.py).
struct Launch: Identifiable, Sendable { let id: Int }
let firstLaunches = (0..<20).map { Launch(id: $0) }
let moreLaunches = (20..<40).map { Launch(id: $0) }
