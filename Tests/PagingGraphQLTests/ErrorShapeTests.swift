import Foundation
import Testing

@testable import Paging
@testable import PagingGraphQL
@testable import PagingGraphQLClient
@testable import PagingGraphQLStore

/// Every error type of the libraries has one shape: a `code` to branch on and
/// a `message` a person can act on, which is also its `description`.
@Suite("error types share one shape")
struct ErrorShapeTests {
    @Test("the engine's error: code and message, described by its message")
    func pagingError() {
        let error = PagingError.invalidArgument("count must be positive, got 0")
        #expect(error.code == .invalidArgument)
        #expect(error.message.contains("count must be positive, got 0"))
        #expect(error.description == error.message)
    }

    @Test("the document, store, client and pager errors: code and message, described by the message")
    func graphQLErrors() throws {
        do {
            _ = try ConnectionDocument("query { launches { id } }")
            Issue.record("a document without @connection was accepted")
        } catch {
            #expect(error.code == .noConnection)
            #expect(error.message.contains("@connection"))
            #expect(error.description == error.message)
        }

        let store = GraphQLStoreError(.variables, "The variable $first is an Int; got \"ten\".")
        #expect(store.code == .variables)
        #expect(store.description == store.message)

        let client = GraphQLClientError.httpStatus(503, body: Data("busy".utf8), url: nil)
        #expect(client.code == .httpStatus)
        #expect(client.message.contains("503"))
        #expect(client.description == client.message)

        let pager = GraphQLPagerError(.noQuery, "The page resolver gave no query for the next page.")
        #expect(pager.code == .noQuery)
        #expect(pager.description == pager.message)
    }

    @Test("a server's error: its extensions' code, or nil without one")
    func responseErrorCode() {
        let coded = GraphQLResponseError(message: "Log in first.", extensions: ["code": "UNAUTHENTICATED"])
        #expect(coded.code == "UNAUTHENTICATED")
        #expect(coded.message == "Log in first.")
        #expect(GraphQLResponseError(message: "Boom").code == nil)
        #expect(GraphQLResponseError(message: "Odd", extensions: ["code": 42]).code == nil)
    }
}
