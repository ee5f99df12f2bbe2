import Foundation
import GraphQL
import HTTPTypes
import Hummingbird
import Logging

/// Routes every request, after injecting the configured latency and faults.
///
/// | route | what |
/// | --- | --- |
/// | `GET`, `POST /graphql` | GraphQL over HTTP (``GraphQLEndpoint``) |
/// | `GET /timeline.json` | Firebase-style timeline (``TimelineEndpoint``) |
/// | `GET /api/launches` | GitHub-style list with `Link` headers (``LaunchListEndpoint``) |
/// | `GET /` | a JSON index of the routes |
///
/// Any other path gets 404 and a wrong method 405, both with a JSON body `{"error": "..."}`.
/// No request can stop the server: every error becomes a response.
struct LaunchResponder: HTTPResponder {
    typealias Context = LaunchRequestContext

    let graphQL: GraphQLEndpoint
    let timeline: TimelineEndpoint
    let list: LaunchListEndpoint
    let faults: FaultInjector
    /// Counts requests against the configured rate limit; `nil` for none.
    let rateLimiter: RateLimiter?
    let sleep: @Sendable (Duration) async throws -> Void
    let logger: Logger

    func respond(to request: Request, context: LaunchRequestContext) async throws -> Response {
        guard let rateLimiter else { return try await answer(request, context: context) }
        let verdict = rateLimiter.admit()
        var fields: HTTPFields = [:]
        for (name, value) in [
            ("X-RateLimit-Limit", verdict.limit), ("X-RateLimit-Remaining", verdict.remaining),
            ("X-RateLimit-Used", verdict.used), ("X-RateLimit-Reset", verdict.reset),
        ] {
            if let name = HTTPField.Name(name) { fields[name] = String(value) }
        }
        guard verdict.allowed else {
            // GitHub's answer to a request over its primary rate limit.
            return JSONResponse.problem(
                HTTPProblem(
                    status: .forbidden,
                    message:
                        "API rate limit exceeded: \(verdict.limit) requests per window; the window resets at \(verdict.reset) (X-RateLimit-Reset, seconds since 1970).",
                    headers: fields))
        }
        var response = try await answer(request, context: context)
        response.headers.append(contentsOf: fields)
        return response
    }

    /// Answers a request the rate limit allows.
    private func answer(_ request: Request, context: LaunchRequestContext) async throws -> Response {
        let decision = faults.next()
        if decision.delay > .zero {
            try await sleep(decision.delay)
        }
        let path = request.uri.path
        logger.info(
            "\(request.method) \(request.uri)",
            metadata: ["fault": "\(decision.fault.map { "\($0)" } ?? "none")"])
        if let fault = decision.fault {
            return try await inject(fault, path: path, context: context)
        }
        do {
            switch path {
            case "/graphql":
                return try await graphQL.respond(to: request)
            case "/timeline.json":
                try Self.require(.get, request)
                return try await timeline.respond(to: request)
            case "/api/launches":
                try Self.require(.get, request)
                return try await list.respond(to: request)
            case "/":
                try Self.require(.get, request)
                return try JSONResponse.make(encoding: [
                    "graphql": "/graphql",
                    "timeline": "/timeline.json?orderBy=\"$key\"&limitToLast=10",
                    "launches": "/api/launches?per_page=30&page=1",
                ])
            default:
                throw HTTPProblem(
                    status: .notFound,
                    message: "No route for \(path). Routes: /graphql, /timeline.json, /api/launches.")
            }
        } catch let problem as HTTPProblem {
            return JSONResponse.problem(problem)
        } catch {
            logger.error("Request failed: \(error)")
            return JSONResponse.problem(
                HTTPProblem(
                    status: .internalServerError, message: "The server failed to handle the request: \(error)"
                ))
        }
    }

    /// Refuses methods other than `method`.
    private static func require(_ method: HTTPRequest.Method, _ request: Request) throws(HTTPProblem) {
        guard request.method == method else {
            var problem = HTTPProblem(
                status: .methodNotAllowed,
                message: "\(request.uri.path) accepts \(method) only; \(request.method) is not supported.")
            problem.headers[.allow] = method.rawValue
            throw problem
        }
    }

    /// The error a dropped connection throws, to end the request without a response.
    private struct DroppedConnection: Error {}

    /// Serves an injected fault.
    private func inject(_ fault: FaultKind, path: String, context: LaunchRequestContext) async throws
        -> Response
    {
        switch fault {
        case .graphQLError where path == "/graphql":
            let result = GraphQLResult(
                data: .null,
                errors: [
                    GraphQLError(
                        message: "Injected fault: the server was configured to fail this request. Retry it.",
                        extensions: ["code": .string("INJECTED_FAULT")])
                ])
            return JSONResponse.make(data: try GraphQLJSONEncoder().encode(result))
        case .httpError, .graphQLError:
            return JSONResponse.problem(
                HTTPProblem(
                    status: .internalServerError,
                    message: "Injected fault: the server was configured to fail this request. Retry it."))
        case .droppedConnection:
            try? await context.channel.close().get()
            throw DroppedConnection()
        }
    }
}
