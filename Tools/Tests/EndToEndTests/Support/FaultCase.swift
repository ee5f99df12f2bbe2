import Foundation
import PagingGraphQL
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One row of the fault matrix: a way ``HostileServer`` misbehaves, and the error the client
/// must make of it.
struct FaultCase: Sendable, CustomTestStringConvertible {
    /// The fault.
    var fault: HostileFault
    /// The code of the client's error.
    var code: GraphQLClientError.Code
    /// The HTTP status the error carries; `nil` when no response arrived.
    var statusCode: Int?
    /// The transport's error, for ``GraphQLClientError/Code/transport``; the message names it
    /// too (`URLError -1005`).
    var urlErrorCode: URLError.Code?
    /// What `URLSessionTransport` gives instead of ``urlErrorCode`` on Linux, where it differs
    /// (see ``URLSessionExpectation``); `nil` where it is the same.
    var onFoundationNetworking: URLSessionExpectation?
    /// What the error's message says, besides the endpoint: each of these.
    var messageExcerpts: [String]
    /// How long `paging fetch` waits before it retries, for a fault it retries (no response,
    /// HTTP 408, 429 and 5xx): `Retry-After` when the answer has one, its first backoff
    /// otherwise; `nil` for a fault it does not retry (a body that is not a GraphQL response, or
    /// over the transport's size limit).
    var fetchRetryDelay: Duration?

    /// The fault's name, for the test's name.
    var testDescription: String { fault.description }

    /// Every row.
    static let all: [FaultCase] = [
        FaultCase(
            fault: .resetMidBody, code: .transport, urlErrorCode: .networkConnectionLost,
            messageExcerpts: ["got no response", "URLError -1005"], fetchRetryDelay: .milliseconds(500)),
        FaultCase(
            fault: .truncatedJSON, code: .notGraphQLResponse, statusCode: 200,
            messageExcerpts: [
                "answered HTTP 200, but the body is not a GraphQL response: it is not JSON",
                #"The body begins: "{"data":{"launches":{"edges":[""#,
            ],
            fetchRetryDelay: nil),
        FaultCase(
            fault: .stall, code: .transport, urlErrorCode: .timedOut,
            messageExcerpts: ["got no response", "URLError -1001"], fetchRetryDelay: .milliseconds(500)),
        FaultCase(
            fault: .closedUnanswered, code: .transport, urlErrorCode: .networkConnectionLost,
            onFoundationNetworking: URLSessionExpectation(
                newConnection: .badServerResponse, keptAliveConnection: .timedOut),
            messageExcerpts: ["got no response"], fetchRetryDelay: .milliseconds(500)),
        FaultCase(
            fault: .tooManyRequests(retryAfterSeconds: 7), code: .httpStatus, statusCode: 429,
            messageExcerpts: ["answered HTTP 429 Too Many Requests", "API rate limit exceeded"],
            fetchRetryDelay: .seconds(7)),
        FaultCase(
            fault: .serverError(status: 500, contentType: "text/plain", body: "Internal Server Error"),
            code: .httpStatus, statusCode: 500,
            messageExcerpts: [#"answered HTTP 500 Internal Server Error"#, #"The body begins: "Internal"#],
            fetchRetryDelay: .milliseconds(500)),
        FaultCase(
            fault: .serverError(
                status: 502, contentType: "text/html",
                body:
                    "<html><head><title>502 Bad Gateway</title></head><body><h1>502 Bad Gateway</h1></body></html>"
            ),
            code: .httpStatus, statusCode: 502,
            messageExcerpts: ["answered HTTP 502 Bad Gateway", "<title>502 Bad Gateway</title>"],
            fetchRetryDelay: .milliseconds(500)),
        FaultCase(
            fault: .serverError(
                status: 503, contentType: "text/html; charset=utf-8",
                body: "<!DOCTYPE html>\n<html><body><h1>Down for maintenance</h1></body></html>"),
            code: .httpStatus, statusCode: 503,
            messageExcerpts: ["answered HTTP 503 Service Unavailable", "Down for maintenance"],
            fetchRetryDelay: .milliseconds(500)),
        FaultCase(
            fault: .invalidUTF8, code: .notGraphQLResponse, statusCode: 200,
            messageExcerpts: ["not UTF-8"], fetchRetryDelay: nil),
        FaultCase(
            fault: .endlessBody, code: .transport, urlErrorCode: .dataLengthExceedsMaximum,
            messageExcerpts: ["larger than the transport accepts", "maximumResponseSize"],
            fetchRetryDelay: nil),
        FaultCase(
            fault: .wrongContentType(body: HostileFault.htmlPage), code: .notGraphQLResponse, statusCode: 200,
            messageExcerpts: [
                "it is not JSON", "Check that the URL is the GraphQL endpoint", "<!DOCTYPE html>",
            ],
            fetchRetryDelay: nil),
        FaultCase(
            fault: .wrongContentType(body: #"{"status":"maintenance","message":"Back soon"}"#),
            code: .notGraphQLResponse, statusCode: 200,
            messageExcerpts: [#"it is a JSON object without "data" or "errors""#, "Back soon"],
            fetchRetryDelay: nil),
    ]

    /// The transport's error that `URLSessionTransport` gives for the fault, on this platform.
    /// - Parameter keptAlive: whether the request went on a connection kept alive from an
    ///   earlier one.
    func urlSessionErrorCode(keptAlive: Bool) -> URLError.Code? {
        #if canImport(FoundationNetworking)
            if let onFoundationNetworking {
                return keptAlive
                    ? onFoundationNetworking.keptAliveConnection : onFoundationNetworking.newConnection
            }
        #endif
        return urlErrorCode
    }

    /// Checks the client's error, over `URLSessionTransport`, against the row.
    /// - Parameters:
    ///   - error: the client's error.
    ///   - endpoint: the endpoint it must name.
    ///   - keptAlive: whether the request went on a connection kept alive from an earlier one.
    ///   - sourceLocation: where the check was asked for.
    func check(
        _ error: GraphQLClientError, endpoint: URL, keptAlive: Bool,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let urlErrorCode = urlSessionErrorCode(keptAlive: keptAlive)
        #expect(error.code == code, "\(error.message)", sourceLocation: sourceLocation)
        #expect(error.statusCode == statusCode, sourceLocation: sourceLocation)
        #expect(error.url == endpoint, sourceLocation: sourceLocation)
        #expect(error.message.contains(endpoint.absoluteString), sourceLocation: sourceLocation)
        if let urlErrorCode {
            #expect(
                (error.underlyingError as? URLError)?.code == urlErrorCode, "\(error.message)",
                sourceLocation: sourceLocation)
            #expect(
                error.message.contains("(URLError \(urlErrorCode.rawValue))"), "\(error.message)",
                sourceLocation: sourceLocation)
        } else {
            #expect(error.underlyingError == nil, sourceLocation: sourceLocation)
        }
        if statusCode != nil, code != .transport {
            #expect(error.bodyExcerpt != nil, sourceLocation: sourceLocation)
        }
        for excerpt in messageExcerpts {
            #expect(error.message.contains(excerpt), "\(error.message)", sourceLocation: sourceLocation)
        }
    }
}

/// What FoundationNetworking's `URLSessionTransport` gives for a fault where it differs from
/// other transports.
///
/// A connection closed unanswered: on a new connection, libcurl reports an empty reply
/// (`badServerResponse`). On a kept-alive connection, libcurl sends the request again on a new
/// connection, which needs the body from its start, and FoundationNetworking cannot give a
/// `Data` body again (it reports the rewind done and sends nothing): the server waits for the
/// body, and the request ends at its timeout (`timedOut`). A `GET`, which has no body, is sent
/// again and answered.
///
/// On Apple platforms the row expects ``FaultCase/urlErrorCode`` (-1005), which has not been run
/// here.
struct URLSessionExpectation: Sendable {
    /// The error on the first request of a connection.
    var newConnection: URLError.Code
    /// The error on a connection kept alive from an earlier request.
    var keptAliveConnection: URLError.Code
}
