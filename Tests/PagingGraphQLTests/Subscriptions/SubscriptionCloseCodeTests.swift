import Testing

@testable import PagingGraphQLClient

/// Which close codes a subscription client reconnects after.
@Suite("WebSocket close codes")
struct SubscriptionCloseCodeTests {
    @Test(
        "each close code of RFC 6455 and graphql-transport-ws is retried or not, as documented",
        arguments: [
            (1000, true), (1001, true), (1002, false), (1003, false), (1005, true), (1006, true),
            (1007, false),
            (1008, false), (1009, false), (1010, false), (1011, true), (1012, true), (1013, true),
            (4400, false), (4401, false), (4403, false), (4406, false), (4408, true), (4409, false),
            (4429, true), (4499, false), (4500, false), (4504, true), (4000, true), (3000, true),
        ] as [(UInt16, Bool)])
    func classification(code: UInt16, retryable: Bool) {
        let closeCode = WebSocketCloseCode(code)
        #expect(closeCode.isRetryable == retryable)
        let error = GraphQLSubscriptionError.closed(closeCode, reason: "why")
        #expect(error.isRetryable == retryable)
        #expect(error.code == .closed)
        #expect(error.closeCode == closeCode)
        #expect(error.closeReason == "why")
        #expect(error.description.contains("\(code)"))
    }

    @Test("the protocol's codes have their numbers and names")
    func names() {
        #expect(WebSocketCloseCode.badRequest.rawValue == 4400)
        #expect(WebSocketCloseCode.unauthorized.rawValue == 4401)
        #expect(WebSocketCloseCode.forbidden.rawValue == 4403)
        #expect(WebSocketCloseCode.connectionInitialisationTimeout.rawValue == 4408)
        #expect(WebSocketCloseCode.subscriberAlreadyExists.rawValue == 4409)
        #expect(WebSocketCloseCode.tooManyInitialisationRequests.rawValue == 4429)
        #expect(WebSocketCloseCode.abnormalClosure.rawValue == 1006)
        #expect(WebSocketCloseCode.forbidden.description == "4403 forbidden")
        #expect(WebSocketCloseCode(4321).description == "4321")
    }

    @Test("the failures of a connection and of one subscription are retried or not")
    func errorClassification() {
        #expect(GraphQLSubscriptionError.connectionFailed(URLErrorStandIn()).isRetryable)
        #expect(GraphQLSubscriptionError.acknowledgementTimeout.isRetryable)
        #expect(
            GraphQLSubscriptionError.acknowledgementTimeout.closeCode == .connectionAcknowledgementTimeout)
        #expect(!GraphQLSubscriptionError.badMessage("Invalid message: x").isRetryable)
        #expect(GraphQLSubscriptionError.badMessage("Invalid message: x").closeCode == .badRequest)
        #expect(!GraphQLSubscriptionError.graphQLErrors([GraphQLResponseError(message: "no")]).isRetryable)
        #expect(!GraphQLSubscriptionError.connectionParameters(URLErrorStandIn()).isRetryable)
        #expect(!GraphQLSubscriptionError.notConfigured.isRetryable)
    }

    struct URLErrorStandIn: Error {}
}
