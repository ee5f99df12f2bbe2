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
        // The HTTP layer has made the text lexable already (``LexableText``); again costs nothing
        // and keeps every caller safe. A syntax error is left to `execute`, which reports it as it
        // always has.
        var request = request
        request.query = LexableText.lexable(request.query)
        if let document = try? parse(source: request.query) {
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
