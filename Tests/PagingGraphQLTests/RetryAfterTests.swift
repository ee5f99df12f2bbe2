import Foundation
import PagingGraphQLClient
import Testing

@Suite("GraphQLHTTPResponse.retryAfter")
struct RetryAfterTests {
    /// Sun, 06 Nov 1994 08:49:37 GMT, the date of RFC 9110's examples.
    private let now = Date(timeIntervalSince1970: 784_111_777)

    private func wait(_ value: String?) -> Duration? {
        let headers = value.map { ["Retry-After": $0] } ?? [:]
        return GraphQLHTTPResponse(statusCode: 429, headers: headers, body: Data()).retryAfter(now: now)
    }

    @Test("delay seconds, whatever the case of the field's name and the spaces around the number")
    func seconds() {
        #expect(wait("120") == .seconds(120))
        #expect(wait(" 7 ") == .seconds(7))
        #expect(wait("0") == .zero)
        let lowercase = GraphQLHTTPResponse(statusCode: 503, headers: ["retry-after": "30"], body: Data())
        #expect(lowercase.retryAfter(now: now) == .seconds(30))
    }

    @Test("an HTTP date in each of its three forms counts from now; a date already past is no wait")
    func dates() {
        #expect(wait("Sun, 06 Nov 1994 08:51:37 GMT") == .seconds(120))  // IMF-fixdate
        #expect(wait("Sunday, 06-Nov-94 08:50:37 GMT") == .seconds(60))  // RFC 850
        #expect(wait("Sun Nov  6 08:49:47 1994") == .seconds(10))  // asctime
        #expect(wait("Sun, 06 Nov 1994 08:00:00 GMT") == .zero)
    }

    @Test("no field, or a value that is neither seconds nor a date, asks for no wait")
    func unreadable() {
        #expect(wait(nil) == nil)
        #expect(wait("") == nil)
        #expect(wait("soon") == nil)
        #expect(wait("-5") == nil)
        #expect(wait("1.5") == nil)
        #expect(wait("Sun, 06 Nov 1994 25:61:00 GMT") == nil)
    }

    @Test("a count of seconds too large for an Int is a very long wait, not a crash")
    func hugeCount() {
        #expect(wait(String(repeating: "9", count: 40)) == .seconds(Int.max))
    }
}
