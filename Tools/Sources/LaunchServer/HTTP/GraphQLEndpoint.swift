import Foundation
import GraphQL
import HTTPTypes
import Hummingbird

/// GraphQL over HTTP on `/graphql`, after the GraphQL-over-HTTP specification.
///
/// - `POST` with a JSON body `{"query": ..., "operationName": ..., "variables": {...}}`.
/// - `GET` with the query parameters `query`, `operationName` and `variables` (JSON text);
///   mutations are refused over `GET` (405), as the specification requires.
/// - The response is `application/graphql-response+json` when the `Accept` header names it
///   (then a request that fails before execution — a syntax or validation error — gets HTTP
///   400), and `application/json` otherwise (always HTTP 200 for a well-formed request).
/// - A body that is not JSON, has no string `query`, or has `variables` that are not an object
///   gets HTTP 400; a body over the size limit gets 413. Their JSON bodies are GraphQL-shaped,
///   `{"errors": [{"message": ...}]}`, so GraphQL clients can read them.
struct GraphQLEndpoint: Sendable {
    /// The schema and resolvers.
    let api: LaunchAPI
    /// The resolvers' context.
    let context: LaunchContext
    /// The largest body accepted.
    let maximumBodySize: Int

    /// The media type of the GraphQL-over-HTTP specification.
    static let graphQLResponseType = "application/graphql-response+json; charset=utf-8"

    /// Handles one request on `/graphql`.
    func respond(to request: Request) async throws -> Response {
        let prefersGraphQLResponse = (request.headers[.accept] ?? "").contains(
            "application/graphql-response+json")
        let graphQLRequest: GraphQLRequest
        do {
            switch request.method {
            case .post:
                let body = try await RequestBodyReader.collect(request, limit: maximumBodySize)
                graphQLRequest = try Self.decodePost(Data(buffer: body))
            case .get:
                graphQLRequest = try Self.decodeGet(request.uri.queryParameters)
                if Self.isMutation(graphQLRequest) {
                    var problem = HTTPProblem(
                        status: .methodNotAllowed,
                        message: "Mutations must be sent with POST; GET may only run queries.")
                    problem.headers[.allow] = "POST"
                    throw problem
                }
            default:
                var problem = HTTPProblem(
                    status: .methodNotAllowed,
                    message: "/graphql accepts GET and POST; \(request.method) is not supported.")
                problem.headers[.allow] = "GET, POST"
                throw problem
            }
        } catch let problem as HTTPProblem {
            return Self.errorResponse(problem, prefersGraphQLResponse: prefersGraphQLResponse)
        }
        let result = await api.run(graphQLRequest, context: context)
        let status: HTTPResponse.Status = prefersGraphQLResponse && result.data == nil ? .badRequest : .ok
        return JSONResponse.make(
            status: status,
            data: try GraphQLJSONEncoder().encode(result),
            contentType: prefersGraphQLResponse ? Self.graphQLResponseType : JSONResponse.contentType
        )
    }

    /// A GraphQL-shaped error response for a request refused before execution.
    static func errorResponse(_ problem: HTTPProblem, prefersGraphQLResponse: Bool) -> Response {
        let result = GraphQLResult(errors: [GraphQLError(message: problem.message)])
        let data =
            (try? GraphQLJSONEncoder().encode(result)) ?? Data(#"{"errors":[{"message":"unknown"}]}"#.utf8)
        return JSONResponse.make(
            status: problem.status,
            data: data,
            contentType: prefersGraphQLResponse ? graphQLResponseType : JSONResponse.contentType,
            headers: problem.headers
        )
    }

    /// Decodes a POST body.
    static func decodePost(_ body: Data) throws(HTTPProblem) -> GraphQLRequest {
        let value: Map
        do {
            value = try CheckedJSON.decode(Map.self, from: body)
        } catch {
            throw .badRequest(
                "The request body is not valid JSON. Send {\"query\": \"...\", \"variables\": {...}} with Content-Type: application/json."
            )
        }
        guard case .dictionary(let fields) = value else {
            throw .badRequest(
                "The request body must be a JSON object such as {\"query\": \"{ launches { cursor } }\"}.")
        }
        guard case .string(let query)? = fields["query"] else {
            throw .badRequest(
                "The request body must have a string field `query` holding the GraphQL document.")
        }
        var operationName: String?
        switch fields["operationName"] {
        case .string(let name)?: operationName = name
        case nil, .null?, .undefined?: operationName = nil
        default: throw .badRequest("`operationName` must be a string or null.")
        }
        return GraphQLRequest(
            query: LexableText.lexable(query), operationName: operationName,
            variables: try variables(fields["variables"]))
    }

    /// Decodes the query parameters of a GET.
    static func decodeGet(_ parameters: Parameters) throws(HTTPProblem) -> GraphQLRequest {
        guard let query = parameters["query"] else {
            throw .badRequest("A GET on /graphql needs a `query` parameter holding the GraphQL document.")
        }
        var variables: [String: Map] = [:]
        if let text = parameters["variables"] {
            let value: Map
            do {
                value = try CheckedJSON.decode(Map.self, from: Data(text.utf8))
            } catch {
                throw .badRequest(
                    "The `variables` parameter is not valid JSON; send a JSON object such as {\"first\": 10}."
                )
            }
            variables = try Self.variables(value)
        }
        return GraphQLRequest(
            query: LexableText.lexable(String(query)),
            operationName: parameters["operationName"].map(String.init),
            variables: variables)
    }

    /// The `variables` member: an object, or absent or null.
    private static func variables(_ value: Map?) throws(HTTPProblem) -> [String: Map] {
        switch value {
        case nil, .null?, .undefined?:
            return [:]
        case .dictionary(let fields)?:
            return Dictionary(uniqueKeysWithValues: fields.map { ($0.key, $0.value) })
        default:
            throw .badRequest("`variables` must be a JSON object mapping variable names to values, or null.")
        }
    }

    /// Whether the operation a request would run is a mutation (false when it does not parse:
    /// execution then reports the syntax error).
    static func isMutation(_ request: GraphQLRequest) -> Bool {
        guard let document = try? GraphQL.parse(source: Source(body: request.query)) else { return false }
        let operations = document.definitions.compactMap { $0 as? OperationDefinition }
        let chosen =
            request.operationName.flatMap { name in operations.first { $0.name?.value == name } }
            ?? (operations.count == 1 ? operations.first : nil)
        return chosen?.operation == .mutation
    }
}
