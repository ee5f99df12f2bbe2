// The context of PagingSQLite.docc/PagingSQLite.md's samples (scripts/check-doc-blocks.py).
import Foundation
import PagingTesting

let directory: String = placeholder()
let endpoint: URL = placeholder()
struct Launch: Identifiable, Codable, Sendable { let id: String }
/// The remote source of the list: any page source (a GraphQL connection, a REST list).
let launches: ScriptedSource<String, Launch> = placeholder()
