import ArgumentParser
import Foundation
import PagingGraphQLClient

/// Where a connection lives and how to ask for it: shared by `fetch` and `browse`.
struct ConnectionOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("The GraphQL endpoint.", valueName: "url"))
    var endpoint: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            """
            The query: a file, - for standard input, or the document itself. Mark the connection with \
            @connection, or give it first/after (or last/before) variables and select pageInfo.
            """,
            valueName: "file"))
    var query: String?

    @Option(
        name: .long, help: ArgumentHelp("The query's other variables, as a JSON object.", valueName: "json"))
    var variables: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            """
            A header such as 'Authorization: Bearer TOKEN' (repeatable). It goes only to the endpoint's \
            origin (scheme, host and port; with fetch --rest, the first page's): a redirect or a next \
            page on another origin is asked for without it, unless fetch --send-headers-to-any-host.
            """,
            valueName: "name: value"))
    var header: [String] = []

    @Option(
        name: .customLong("connection-key"),
        help: ArgumentHelp("The @connection key to page, when the query has more than one.", valueName: "key")
    )
    var connectionKey: String?

    @Option(
        name: .customLong("operation-name"),
        help: ArgumentHelp("The operation to run, when the document has more than one.", valueName: "name"))
    var operationName: String?

    @Option(
        name: .long,
        help: ArgumentHelp("Seconds a request may take before it fails.", valueName: "seconds"))
    var timeout: Double = 30

    /// The endpoint URL, checked.
    /// - Throws: ``CLIError`` (usage) when it is missing or not an http(s) URL.
    func endpointURL(command: String) throws(CLIError) -> URL {
        guard let endpoint else {
            throw .usage(
                "\(command) needs --endpoint URL, the GraphQL endpoint (run `paging serve` for a local one at http://127.0.0.1:8080/graphql)."
            )
        }
        return try Self.httpURL(endpoint, option: "--endpoint")
    }

    /// Parses an absolute http or https URL.
    static func httpURL(_ text: String, option: String) throws(CLIError) -> URL {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(),
            scheme == "http" || scheme == "https",
            url.host != nil
        else {
            throw .usage(
                "\(option) '\(text)' is not an http or https URL; give one such as http://127.0.0.1:8080/graphql."
            )
        }
        return url
    }

    /// The header fields, parsed from `Name: value`.
    /// - Throws: ``CLIError`` (usage) for a header without a colon or a name.
    func headerFields() throws(CLIError) -> [String: String] {
        try Self.parseHeaders(header)
    }

    /// Parses `Name: value` header arguments.
    static func parseHeaders(_ arguments: [String]) throws(CLIError) -> [String: String] {
        var fields: [String: String] = [:]
        for argument in arguments {
            guard let colon = argument.firstIndex(of: ":") else {
                throw .usage(
                    "--header '\(argument)' has no colon; write it as 'Name: value', such as 'Authorization: Bearer TOKEN'."
                )
            }
            let name = argument[..<colon].trimmingCharacters(in: .whitespaces)
            let value = argument[argument.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            guard !name.isEmpty, !name.contains(where: { $0.isWhitespace }) else {
                throw .usage(
                    "--header '\(argument)' has no valid name before the colon; write it as 'Name: value'.")
            }
            fields[name] = value
        }
        return fields
    }

    /// The variables, parsed from JSON.
    /// - Throws: ``CLIError`` (usage) when they are not a JSON object.
    func variableValues() throws(CLIError) -> [String: JSONValue] {
        guard let variables else { return [:] }
        let value: JSONValue
        do {
            value = try JSONValue(json: Data(variables.utf8))
        } catch {
            throw .usage(
                "--variables is not valid JSON (\(Self.describe(error))); give an object such as '{\"owner\": \"apple\"}'."
            )
        }
        guard let object = value.objectValue else {
            throw .usage(
                "--variables must be a JSON object such as '{\"owner\": \"apple\"}'; it is \(value.compactJSON)."
            )
        }
        return object
    }

    /// The query text: read from the file, standard input, or given inline.
    /// - Throws: ``CLIError`` (usage) when it is missing or the file cannot be read.
    func queryText(command: String) throws(CLIError) -> String {
        guard let query else {
            throw .usage(
                "\(command) needs --query FILE, a GraphQL query whose connection has @connection or first/after variables and pageInfo."
            )
        }
        // The library reads it (its analysis makes any text safe for GraphQLSwift's lexer).
        return try Self.readQuery(query)
    }

    /// Reads `--query`'s value: `-` is standard input, text with a `{` is the document, anything
    /// else a file.
    static func readQuery(_ value: String) throws(CLIError) -> String {
        if value == "-" {
            let data = FileHandle.standardInput.readDataToEndOfFile()
            guard let text = String(data: data, encoding: .utf8) else {
                throw .usage("the query on standard input is not UTF-8 text.")
            }
            return text
        }
        if value.contains("{") { return value }
        let url = URL(fileURLWithPath: value)
        do {
            let data = try Data(contentsOf: url)
            guard let text = String(data: data, encoding: .utf8) else {
                throw CLIError.usage("the query file '\(value)' is not UTF-8 text.")
            }
            return text
        } catch let error as CLIError {
            throw error
        } catch {
            throw .usage(
                "cannot read the query file '\(value)': \(Self.describe(error)). Check the path, or pass the document itself."
            )
        }
    }

    /// The analysed document, ready to page: the connection marked with `@connection` (the one
    /// `--connection-key` names), or the only field that pages by cursor in a document that
    /// marks none.
    /// - Throws: ``CLIError`` (usage) saying why the document cannot be paged.
    func document(command: String) throws(CLIError) -> ConnectionDocument {
        let text = try queryText(command: command)
        do throws(GraphQLDocumentError) {
            if let connectionKey {
                return try ConnectionDocument(
                    text, connectionKey: connectionKey, operationName: operationName)
            }
            return try ConnectionDocument(inferringConnectionIn: text, operationName: operationName)
        } catch {
            throw .usage("the query cannot be paged: \(error.description)")
        }
    }

    /// A short description of an error, for messages.
    static func describe(_ error: any Error) -> String {
        if let error = error as? CLIError { return error.message }
        if let error = error as? DecodingError {
            switch error {
            case .dataCorrupted(let context): return context.debugDescription
            default: return String(describing: error)
            }
        }
        let text = (error as NSError).localizedDescription
        return text.isEmpty ? String(describing: error) : text
    }
}

extension JSONValue {
    /// The value as compact JSON with sorted keys.
    var compactJSON: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(self), let text = String(data: data, encoding: .utf8) else {
            return String(describing: self)
        }
        return text
    }
}
