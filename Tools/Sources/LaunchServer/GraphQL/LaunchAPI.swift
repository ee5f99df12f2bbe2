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
    ///
    /// - Returns: The result; never throws for bad documents.
    func run(_ request: GraphQLRequest, context: LaunchContext) async -> GraphQLResult {
        // A syntax error is left to `execute`, which reports it as it always has.
        if let document = try? parse(source: Source(body: request.query, name: "GraphQL request")) {
            let repeated = RepeatedDefinitions.errors(in: document)
            if !repeated.isEmpty { return GraphQLResult(errors: repeated) }
        }
        do {
            return try await execute(request: request, context: context)
        } catch let error as GraphQLError {
            return GraphQLResult(errors: [error])
        } catch {
            return GraphQLResult(errors: [
                GraphQLError(message: "The request could not be executed: \(error)")
            ])
        }
    }
}
