import Foundation
import PagingGraphQLClient

/// One input: a status byte and a response body. Reading it either gives a response or throws
/// a `GraphQLClientError`; nothing else (no trap, no other error type).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzResponse(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    guard count > 0 else { return 0 }
    let statuses = [200, 200, 200, 204, 400, 401, 429, 500, 502, 503]
    let status = statuses[Int(start[0]) % statuses.count]
    let body = Data(bytes: start + 1, count: count - 1)
    let http = GraphQLHTTPResponse(
        statusCode: status, headers: ["Content-Type": "application/json"], body: body)
    do {
        let response = try GraphQLResponse<JSONValue>(decoding: http)
        _ = response.data
    } catch {
        _ = error.description
    }
    return 0
}
