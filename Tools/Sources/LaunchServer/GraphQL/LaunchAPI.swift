import GraphQL
import Graphiti

/// The schema with its resolver: what the HTTP layer and the tests execute requests against.
struct LaunchAPI: API {
    let resolver = LaunchResolver()
    let schema: Schema<LaunchResolver, LaunchContext>

    /// Builds the API.
    ///
    /// - Throws: Graphiti's error if the schema is inconsistent.
    init() throws {
        schema = try LaunchSchema.make()
    }

    /// Executes one request, turning a syntax error into a result with that error.
    ///
    /// A document with repeated definition names gets their errors without being validated
    /// further (``RepeatedDefinitions``: GraphQLSwift's validation can stop the process on them).
    /// So the document is parsed twice, once here and once by `execute`.
    ///
    /// - Returns: The result; never throws for bad documents.
    /// - Complexity: O(*n*) in the document's length, besides what executing it costs.
    func run(_ request: GraphQLRequest, context: LaunchContext) async -> GraphQLResult {
        let safe: GraphQLRequest
        switch Self.prepared(request) {
        case .success(let prepared): safe = prepared
        case .failure(let errors): return GraphQLResult(errors: errors.errors)
        }
        do {
            return try await execute(request: safe, context: context)
        } catch let error as GraphQLError {
            return GraphQLResult(errors: [error])
        } catch {
            return GraphQLResult(errors: [
                GraphQLError(message: "The request could not be executed: \(error)")
            ])
        }
    }

    /// Starts a subscription: its results, one per event, or the errors that prevent it (a
    /// document that does not parse or validate, or that is not a subscription).
    ///
    /// - Complexity: O(*n*) in the document's length to start; each event costs what executing
    ///   the selection on it costs.
    func subscribe(_ request: GraphQLRequest, context: LaunchContext) async -> Result<
        AsyncThrowingStream<GraphQLResult, any Error>, GraphQLErrors
    > {
        let safe: GraphQLRequest
        switch Self.prepared(request) {
        case .success(let prepared): safe = prepared
        case .failure(let errors): return .failure(errors)
        }
        do {
            return try await subscribe(request: safe, context: context)
        } catch let error as GraphQLError {
            return .failure(GraphQLErrors([error]))
        } catch {
            return .failure(
                GraphQLErrors([GraphQLError(message: "The subscription could not be started: \(error)")]))
        }
    }

    /// Whether a request asks for a subscription: the operation it names (or its only one) is
    /// a `subscription`. `false` for a document that does not parse.
    ///
    /// - Complexity: O(*n*) in the document's length.
    static func isSubscription(_ request: GraphQLRequest) -> Bool {
        guard let document = try? parse(source: LexableText.lexable(request.query)) else { return false }
        let operations = document.definitions.compactMap { $0 as? OperationDefinition }
        let operation =
            request.operationName.map { name in operations.first { $0.name?.value == name } }
            ?? (operations.count == 1 ? operations.first : nil)
        return operation?.operation == .subscription
    }

    /// A request made safe to execute: its text lexable (``LexableText``; the HTTP layer has
    /// done it already, and again costs nothing), and refused with the errors of repeated
    /// definitions (``RepeatedDefinitions``). A syntax error is left to `execute`, which
    /// reports it as it always has.
    private static func prepared(_ request: GraphQLRequest) -> Result<GraphQLRequest, GraphQLErrors> {
        var request = request
        request.query = LexableText.lexable(request.query)
        if let document = try? parse(source: request.query) {
            let repeated = RepeatedDefinitions.errors(in: document)
            if !repeated.isEmpty { return .failure(GraphQLErrors(repeated)) }
        }
        return .success(request)
    }
}
