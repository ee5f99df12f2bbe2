import Foundation
import GraphQL
import LaunchServer
import PagingCodegen
import Testing

@testable import PagingCLI

@Suite("paging schema")
struct SchemaCommandTests {
    @Test("downloads the launch server's schema as SDL that builds, the same bytes each time")
    func launchServer() async throws {
        let folder = try makeScratchFolder("paging-schema")
        defer { removeScratchFolder(folder) }
        try await withLaunchServer { server in
            let file = folder.appendingPathComponent("launches.graphqls").path
            let endpoint = server.graphQLURL.absoluteString
            let run = await Command.run(["schema", "--endpoint", endpoint, "-o", file])
            #expect(run.status == 0, "\(run.standardError)")
            #expect(run.standardOutput.isEmpty)
            #expect(run.standardError.contains("wrote \(file)"))
            let schema = try CodegenSchema(contentsOf: file)
            // The tutorial's query and the Relay connection are there, as the server declares them.
            let query = try #require(schema.schema.queryType)
            let fields = try query.fields()
            #expect(fields["launches"] != nil)
            #expect(fields["launchConnection"] != nil)
            #expect(schema.schema.getType(name: "Launch") != nil)
            let sdl = try String(contentsOfFile: file, encoding: .utf8)
            #expect(!sdl.contains("__Schema"), "introspection types are left out")

            let again = await Command.run(["schema", "--endpoint", endpoint])
            #expect(again.status == 0, "\(again.standardError)")
            #expect(again.standardOutput == sdl)
        }
    }

    @Test("a server that predates isRepeatable and specifiedByURL is asked again without them")
    func olderServer() async throws {
        let sdl = "type Query { launches: [Launch] }\ntype Launch { id: ID! }\n"
        let response = try await CodegenSchema(text: sdl, file: "old").introspectionJSON()
        try await ScriptedHTTPServer.withRunning(answer: { request, _ in
            let query = String(decoding: request.body, as: UTF8.self)
            if query.contains("isRepeatable") {
                return .json(
                    #"{"errors":[{"message":"Cannot query field \"isRepeatable\" on type \"__Directive\"."}]}"#
                )
            }
            return .json(String(decoding: response, as: UTF8.self))
        }) { server in
            let run = await Command.run([
                "schema", "--endpoint", server.baseURL.absoluteString + "/graphql",
                "--header", "Authorization: Bearer s3cret",
            ])
            #expect(run.status == 0, "\(run.standardError)")
            #expect(
                run.standardOutput == "type Launch {\n  id: ID!\n}\n\ntype Query {\n  launches: [Launch]\n}\n"
            )
            let requests = server.requests
            try #require(requests.count == 2)
            #expect(!String(decoding: requests[1].body, as: UTF8.self).contains("specifiedByURL"))
            #expect(requests.allSatisfy { $0.headers["authorization"] == "Bearer s3cret" })
        }
    }

    @Test("a server that refuses introspection: a clear error, exit 1, and the file as it was")
    func refused() async throws {
        let folder = try makeScratchFolder("paging-schema")
        defer { removeScratchFolder(folder) }
        try await ScriptedHTTPServer.withRunning(answer: { _, _ in
            .json(#"{"errors":[{"message":"GraphQL introspection is not allowed"}]}"#)
        }) { server in
            let file = folder.appendingPathComponent("kept.graphqls").path
            try Data("type Query { kept: Int }\n".utf8).write(to: URL(fileURLWithPath: file))
            let run = await Command.run(["schema", "--endpoint", server.baseURL.absoluteString, "-o", file])
            #expect(run.status == 1)
            #expect(run.standardError.contains("refused the introspection query"), "\(run.standardError)")
            #expect(run.standardError.contains("introspection is not allowed"), "\(run.standardError)")
            #expect(try String(contentsOfFile: file, encoding: .utf8) == "type Query { kept: Int }\n")
        }
    }

    @Test("an answer that is not a schema, and a missing endpoint, are errors that say so")
    func badAnswers() async throws {
        try await ScriptedHTTPServer.withRunning(answer: { _, _ in
            .json(#"{"data":{"__schema":{"types":[]}}}"#)
        }) { server in
            let run = await Command.run(["schema", "--endpoint", server.baseURL.absoluteString])
            #expect(run.status == 1)
            #expect(
                run.standardError.contains("not a schema: __schema.queryType is missing"),
                "\(run.standardError)")
        }
        let missing = await Command.run(["schema"])
        #expect(missing.status == 2)
        #expect(missing.standardError.contains("needs --endpoint"))
    }
}
