import ArgumentParser
import Foundation
import PagingCodegen
import PagingGraphQLClient

/// `paging schema`: downloads a server's schema by introspection and writes it as SDL, in an
/// order that depends on the schema alone (``IntrospectionSchema/sdl``), for `paging codegen`
/// and the build plugin.
struct SchemaCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "schema",
        abstract: "Download a GraphQL schema by introspection and write it as SDL.",
        discussion: """
            The SDL lists directives and types in order of name, and fields, arguments and enum \
            values in the server's order, so the same schema always gives the same file. With -o \
            the file is replaced only once the whole schema is read; without it the SDL goes to \
            standard output. A server that predates the October 2021 spec (no isRepeatable or \
            specifiedByURL) is asked again without those fields.

            Examples:
              paging schema --endpoint http://127.0.0.1:8080/graphql -o schema.graphqls
              paging schema --endpoint https://api.github.com/graphql \\
                  --header "Authorization: Bearer $TOKEN" -o github.graphqls
            """)

    @Option(name: .long, help: ArgumentHelp("The GraphQL endpoint.", valueName: "url"))
    var endpoint: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            """
            A header such as 'Authorization: Bearer TOKEN' (repeatable). It goes only to the endpoint's \
            origin: a redirect to another origin is followed without it.
            """,
            valueName: "name: value"))
    var header: [String] = []

    @Option(
        name: [.short, .long],
        help: ArgumentHelp("The file to write (standard output if none).", valueName: "file"))
    var output: String?

    @Option(
        name: .long, help: ArgumentHelp("Seconds the request may take before it fails.", valueName: "seconds")
    )
    var timeout: Double = 30

    func run() async throws {
        let io = CommandIO.current
        guard let endpoint else {
            throw CLIError.usage(
                "schema needs --endpoint URL, the GraphQL endpoint (run `paging serve` for a local one at http://127.0.0.1:8080/graphql)."
            )
        }
        let url = try ConnectionOptions.httpURL(endpoint, option: "--endpoint")
        guard timeout > 0, timeout.isFinite else {
            throw CLIError.usage("--timeout must be a number of seconds above 0, such as 30.")
        }
        let headers = HeaderScope(
            start: url, fields: try ConnectionOptions.parseHeaders(header), notice: io.standardError.line)
        let limit = Duration.milliseconds(Int(timeout * 1000))
        let client = GraphQLClient(
            endpoint: url, headers: headers.fields, timeout: limit,
            transport: try headers.makeTransport(idleTimeout: limit))
        let schema = try await Self.download(client: client)
        let sdl = Data(schema.sdl.utf8)  // written whole, or not at all
        if let output {
            do {
                try sdl.write(to: URL(fileURLWithPath: output), options: .atomic)
            } catch {
                throw CLIError.failed(
                    "cannot write \(output): \((error as NSError).localizedDescription). Check that its directory exists and is writable."
                )
            }
            io.standardError.line(
                "paging: wrote \(output): \(schema.types.filter { !$0.name.hasPrefix("__") }.count) types.")
        } else {
            io.standardOutput.write(schema.sdl)
        }
    }

    /// Asks the server for its schema: the full query first, then, if the server refuses a field
    /// of it, the compatible one.
    static func download(client: GraphQLClient) async throws -> IntrospectionSchema {
        do {
            return try await introspect(client: client, query: IntrospectionQuery.full)
        } catch let error as GraphQLClientError where error.code == .graphQLErrors {
            // A server that knows no isRepeatable or specifiedByURL refuses the whole query.
            let unknown = ["isRepeatable", "specifiedByURL"].filter { error.description.contains($0) }
            guard !unknown.isEmpty else { throw Self.failure(error) }
            do {
                return try await introspect(client: client, query: IntrospectionQuery.compatible)
            } catch {
                throw Self.failure(error)
            }
        } catch {
            throw Self.failure(error)
        }
    }

    private static func introspect(client: GraphQLClient, query: String) async throws -> IntrospectionSchema {
        let response = try await client.send(InlineOperation(document: query, as: JSONValue.self))
        guard let data = response.data else { throw CLIError.failed("the server sent no schema.") }
        do {
            return try IntrospectionSchema(json: try JSONEncoder().encode(data))
        } catch let error as IntrospectionSchema.ReadError {
            throw CLIError.failed("the server's answer is not a schema: \(error.message).")
        }
    }

    private static func failure(_ error: any Error) -> any Error {
        switch error {
        case let error as CLIError: error
        case let error as GraphQLClientError where error.code == .graphQLErrors:
            CLIError.failed(
                "the server refused the introspection query: \(error.description). Some servers turn introspection off; ask its owners for the schema file."
            )
        default: CLIError.failed("downloading the schema failed: \(FetchCommand.describe(error))")
        }
    }
}
