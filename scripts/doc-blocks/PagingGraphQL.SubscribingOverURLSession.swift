// The context of PagingGraphQL.docc/SubscribingOverURLSession.md's samples
// (scripts/check-doc-blocks.py).
import Foundation
import PagingGraphQL

/// The app's sign-in, which hands out the token a socket opens with.
protocol Session: Sendable { func token() async throws -> String }
let session: any Session = placeholder()
let endpoint: URL = placeholder()
let store: GraphQLStore = placeholder()
