import Foundation
import Testing

@testable import PagingGraphQL
@testable import PagingGraphQLClient

@Suite("GraphQLClientError")
struct GraphQLClientErrorTests {
    private struct Typed: Decodable, Sendable {
        var launch: Launch; struct Launch: Decodable, Sendable { var id: String }
    }

    private func failure<Data: Decodable & Sendable>(
        _ reply: ScriptedTransport.Reply,
        as type: Data.Type = JSONValue.self
    ) async throws -> GraphQLClientError {
        let client = GraphQLClient(endpoint: testEndpoint, transport: ScriptedTransport([reply]))
        do {
            _ = try await client.send(InlineOperation(document: "{ launch { id } }", as: Data.self))
        } catch let error as GraphQLClientError {
            return error
        }
        Issue.record("the request did not fail")
        throw CancellationError()
    }

    @Test("a transport failure wraps the underlying error and says to check the connection")
    func transport() async throws {
        let error = try await failure(.failure(URLError(.notConnectedToInternet)))
        #expect(error.code == .transport)
        #expect((error.underlyingError as? URLError)?.code == .notConnectedToInternet)
        #expect(error.statusCode == nil)
        #expect(error.url == testEndpoint)
        #expect(error.description.contains("got no response"))
        #expect(error.description.contains("https://api.example.test/graphql"))
        #expect(error.description.contains("Check the network connection"))
    }

    @Test("a non-2xx status with a body that is not GraphQL gives the status and an excerpt of the body")
    func httpStatus() async throws {
        let html = "<html><body>" + String(repeating: "Bad gateway. ", count: 40) + "</body></html>"
        let error = try await failure(.response(GraphQLHTTPResponse(statusCode: 502, body: Data(html.utf8))))
        #expect(error.code == .httpStatus)
        #expect(error.statusCode == 502)
        let excerpt = try #require(error.bodyExcerpt)
        #expect(excerpt.hasPrefix("\"<html><body>Bad gateway."))
        #expect(excerpt.hasSuffix("…\""))
        #expect(excerpt.count < 210)
        #expect(error.description.contains("HTTP 502 Bad Gateway instead of a GraphQL response"))
    }

    @Test("a 401 with a JSON body without data or errors is an HTTP status error")
    func unauthorized() async throws {
        let error = try await failure(.response(.json(#"{"message":"token expired"}"#, status: 401)))
        #expect(error.code == .httpStatus)
        #expect(error.statusCode == 401)
        #expect(error.bodyExcerpt == #""{"message":"token expired"}""#)
    }

    @Test(
        "a 429 or 503 keeps the server's Retry-After, in seconds or as an HTTP date; other errors have none")
    func retryAfter() async throws {
        let limited = try await failure(
            .response(
                GraphQLHTTPResponse(
                    statusCode: 429, headers: ["retry-after": "7"], body: Data("slow down".utf8))))
        #expect(limited.code == .httpStatus)
        #expect(limited.retryAfter == .seconds(7))

        // An HTTP date a minute and a half ahead: the wait is counted from when the response was read.
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        let date = formatter.string(from: Date().addingTimeInterval(90))
        let unavailable = try await failure(
            .response(
                .json(#"{"errors":[{"message":"maintenance"}]}"#, status: 503, headers: ["Retry-After": date])
            ))
        #expect(unavailable.code == .graphQLErrors)
        let wait = try #require(unavailable.retryAfter)
        #expect(wait > .seconds(80) && wait <= .seconds(91))

        let plain = try await failure(.response(.json(#"{"message":"token expired"}"#, status: 401)))
        #expect(plain.retryAfter == nil)
        let transport = try await failure(.failure(URLError(.timedOut)))
        #expect(transport.retryAfter == nil)
    }

    @Test("a non-2xx GraphQL response with errors and no data is a GraphQL error with the status kept")
    func non2xxGraphQLErrors() async throws {
        let error = try await failure(
            .response(
                .json(#"{"errors":[{"message":"Variable \"$first\" got invalid value"}]}"#, status: 400)))
        #expect(error.code == .graphQLErrors)
        #expect(error.statusCode == 400)
        #expect(error.graphQLErrors.map(\.message) == [#"Variable "$first" got invalid value"#])
        #expect(error.description.contains("(HTTP 400)"))
    }

    @Test("a 2xx body that is not JSON says it is not a GraphQL response")
    func notJSON() async throws {
        let error = try await failure(
            .response(GraphQLHTTPResponse(statusCode: 200, body: Data("<!doctype html>".utf8))))
        #expect(error.code == .notGraphQLResponse)
        #expect(error.statusCode == 200)
        #expect(error.description.contains("it is not JSON"))
        #expect(error.description.contains("Check that the URL is the GraphQL endpoint"))
    }

    @Test(
        "513 unclosed brackets, on which Foundation's JSONDecoder traps, are not JSON: an error, not a crash",
        arguments: [200, 502])
    func unclosedBrackets(status: Int) async throws {
        // Found by the FuzzResponse fuzz target: the client ended the process on this body.
        let body = Data(String(repeating: "[", count: 513).utf8)
        let untyped = try await failure(.response(GraphQLHTTPResponse(statusCode: status, body: body)))
        #expect(untyped.code == (status == 200 ? .notGraphQLResponse : .httpStatus))
        #expect(untyped.statusCode == status)
        struct Typed: Decodable, Sendable { var launches: [String] }
        let typed = try await failure(
            .response(GraphQLHTTPResponse(statusCode: status, body: body)), as: Typed.self)
        #expect(typed.code == untyped.code)
    }

    @Test("an empty 2xx body or JSON without data or errors is not a GraphQL response")
    func emptyAndShapeless() async throws {
        let empty = try await failure(.response(GraphQLHTTPResponse(statusCode: 204, body: Data())))
        #expect(empty.code == .notGraphQLResponse)
        #expect(empty.description.contains("it is empty"))
        let shapeless = try await failure(.response(.json(#"{"result":1}"#)))
        #expect(shapeless.code == .notGraphQLResponse)
        #expect(shapeless.description.contains("without \"data\" or \"errors\""))
        let array = try await failure(.response(.json("[1]")))
        #expect(array.description.contains("not an object"))
        let nullData = try await failure(.response(.json(#"{"data":null}"#)))
        #expect(nullData.code == .notGraphQLResponse)
    }

    @Test("data that does not decode names the coding path and the type")
    func undecodable() async throws {
        let error = try await failure(.response(.json(#"{"data":{"launch":{"id":7}}}"#)), as: Typed.self)
        #expect(error.code == .undecodableResponse)
        #expect(error.codingPath == "data.launch.id")
        #expect(error.description.contains("at data.launch.id"))
        #expect(error.description.contains("Typed"))
        let missing = try await failure(.response(.json(#"{"data":{"launch":{}}}"#)), as: Typed.self)
        #expect(missing.codingPath == "data.launch.id")
        #expect(missing.description.contains("the key \"id\" is missing"))
    }

    @Test("errors without data are thrown as GraphQL errors, each listed")
    func graphQLErrorsWithoutData() async throws {
        let error = try await failure(
            .response(
                .json(
                    #"""
                    {"data":null,"errors":[{"message":"Cannot query field \"x\"","locations":[{"line":1,"column":3}]},{"message":"Second"}]}
                    """#)))
        #expect(error.code == .graphQLErrors)
        #expect(error.statusCode == 200)
        #expect(error.graphQLErrors.count == 2)
        #expect(
            error.description
                == #"The server at https://api.example.test/graphql answered with 2 GraphQL errors and no data: Cannot query field "x" (line 1, column 3); Second"#
        )
    }

    @Test("variables that cannot be encoded fail before anything is sent")
    func unencodableVariables() async throws {
        let transport = ScriptedTransport([])
        let client = GraphQLClient(endpoint: testEndpoint, transport: transport)
        let request = InlineOperation(
            document: "{ a }", variables: ["ratio": JSONValue.double(.infinity)], as: JSONValue.self)
        await #expect {
            _ = try await client.send(request)
        } throws: { error in
            (error as? GraphQLClientError)?.code == .unencodableVariables
        }
        #expect(transport.requests.isEmpty)
    }

    @Test("kinds compare and print by name")
    func kinds() {
        #expect(GraphQLClientError.Code.transport != .httpStatus)
        #expect(GraphQLClientError.Code.graphQLErrors.description == "graphQLErrors")
    }
}
