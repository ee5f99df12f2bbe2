import Foundation
import Testing

@testable import PagingGraphQL
@testable import PagingGraphQLClient

@Suite("untyped responses")
struct UntypedResponseTests {
    @Test("an untyped response is read by the one-pass reader with its errors and extensions")
    func untypedResponse() throws {
        let body = Data(
            #"{"data":{"a":1},"errors":[{"message":"partial","path":["a"]}],"extensions":{"cost":3}}"#.utf8)
        let response = try GraphQLResponse<JSONValue>(
            decoding: GraphQLHTTPResponse(statusCode: 200, body: body))
        #expect(response.data == .object(["a": .int(1)]))
        #expect(response.errors.map(\.message) == ["partial"])
        #expect(response.extensions == ["cost": .int(3)])
    }
}
