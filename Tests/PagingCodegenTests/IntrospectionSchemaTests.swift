import Foundation
import PagingCodegen
import Testing

/// A schema of every kind of definition, its types declared out of order.
let everyKindSDL = #"""
    type Rocket implements Node {
      id: ID!
      kind: RocketKind
    }

    """
    A launch of a rocket.
    It may be booked.
    """
    type Launch implements Node {
      id: ID!
      "The mission's name."
      name: String @deprecated(reason: "Use mission.")
      site: String @deprecated
    }

    union SearchResult = Launch | Rocket

    type Query {
      launches(first: Int = 20, after: String): [Launch!]!
      search(
        "What to look for."
        text: String!
      ): [SearchResult]
    }

    enum RocketKind {
      FALCON
      STARSHIP @deprecated(reason: "Not yet.")
    }

    interface Node {
      id: ID!
    }

    input LaunchFilter {
      kinds: [RocketKind!]
      site: String
    }

    directive @cached(seconds: Int) repeatable on FIELD | QUERY
    """#

@Suite("IntrospectionSchema, as SDL")
struct IntrospectionSchemaTests {
    static func introspection(of sdl: String) async throws -> IntrospectionSchema {
        try await CodegenSchema(text: sdl, file: "schema.graphqls").introspection()
    }

    @Test("a schema of every kind prints as written, directives and types in order of name")
    func everyKind() async throws {
        let expected = #"""
            directive @cached(seconds: Int) repeatable on FIELD | QUERY

            """
            A launch of a rocket.
            It may be booked.
            """
            type Launch implements Node {
              id: ID!
              "The mission's name."
              name: String @deprecated(reason: "Use mission.")
              site: String @deprecated
            }

            input LaunchFilter {
              kinds: [RocketKind!]
              site: String
            }

            interface Node {
              id: ID!
            }

            type Query {
              launches(first: Int = 20, after: String): [Launch!]!
              search(
                "What to look for."
                text: String!
              ): [SearchResult]
            }

            type Rocket implements Node {
              id: ID!
              kind: RocketKind
            }

            enum RocketKind {
              FALCON
              STARSHIP @deprecated(reason: "Not yet.")
            }

            union SearchResult = Launch | Rocket

            """#
        #expect(try await Self.introspection(of: everyKindSDL).sdl == expected)
    }

    // GraphQLSwift's introspection lists input fields by name and leaves out their defaults; a
    // server's keeps both, and so does the SDL.
    @Test("input fields keep the server's order, their defaults and descriptions; scalars their URL")
    func inputFields() async throws {
        var schema = try await Self.introspection(of: "type Query { a: Int }")
        schema.types.append(
            IntrospectionSchema.NamedType(
                kind: .inputObject, name: "LaunchFilter",
                inputFields: [
                    .init(name: "site", type: .named("String"), defaultValue: #""KSC""#),
                    .init(
                        name: "kinds", description: "Any of these.",
                        type: .list(.nonNull(.named("RocketKind"))), defaultValue: "[FALCON]"),
                ]))
        schema.types.append(
            IntrospectionSchema.NamedType(
                kind: .scalar, name: "Date", specifiedByURL: "https://example.com/date"))
        let expected = #"""
            scalar Date @specifiedBy(url: "https://example.com/date")

            input LaunchFilter {
              site: String = "KSC"
              "Any of these."
              kinds: [RocketKind!] = [FALCON]
            }

            type Query {
              a: Int
            }

            """#
        #expect(schema.sdl == expected)
    }

    @Test("the same schema gives the same bytes whatever order a server lists its types in")
    func orderOfTypes() async throws {
        let schema = try await Self.introspection(of: everyKindSDL)
        var seed =
            UInt64(ProcessInfo.processInfo.environment["PAGING_SEED"] ?? "")
            ?? UInt64.random(in: 1...1_000_000)
        print("orderOfTypes seed: \(seed) (replay with PAGING_SEED=\(seed))")
        for _ in 0..<20 {
            var shuffled = schema
            // Fisher-Yates over a linear congruential generator, so that the seed replays.
            for index in shuffled.types.indices.reversed() where index > 0 {
                seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                shuffled.types.swapAt(index, Int((seed >> 33) % UInt64(index + 1)))
            }
            shuffled.directives.reverse()
            #expect(shuffled.sdl == schema.sdl, "seed \(seed)")
        }
    }

    @Test("SDL printed from an introspection result builds a schema that prints the same")
    func fixedPoint() async throws {
        let first = try await Self.introspection(of: everyKindSDL).sdl
        let second = try await Self.introspection(of: first).sdl
        #expect(second == first)
    }

    @Test("descriptions with quotes, backslashes, indentation and line breaks read back as they were")
    func descriptions() async throws {
        let texts = [
            #"Says "hi" \ and """ once."#, "  indented\nlines", "ends with a quote\"", "one\n\ntwo",
            "trailing line\n", "tab\tand\u{1}control", "plain",
        ]
        var schema = try await Self.introspection(of: "type Query { a: Int }")
        let query = try #require(schema.types.firstIndex { $0.name == "Query" })
        schema.types[query].fields = texts.enumerated().map { index, text in
            IntrospectionSchema.Field(
                name: "f\(index)", description: text, arguments: [], type: .named("Int"),
                deprecationReason: nil)
        }
        let read = try await Self.introspection(of: schema.sdl)
        let fields = try #require(read.types.first { $0.name == "Query" }).fields
        #expect(fields.map(\.description) == texts)
    }

    @Test("an introspection result reads from the response, its data, or its __schema object")
    func threeShapes() async throws {
        let schema = try await Self.introspection(of: everyKindSDL)
        let response = try await CodegenSchema(text: everyKindSDL, file: "s").introspectionJSON()
        let object = try #require(try JSONSerialization.jsonObject(with: response) as? [String: Any])
        let data = try #require(object["data"] as? [String: Any])
        let shapes = [object, data, try #require(data["__schema"] as? [String: Any])]
        for shape in shapes {
            let json = try JSONSerialization.data(withJSONObject: shape)
            #expect(try IntrospectionSchema(json: json) == schema)
            // And the generator reads the file as a schema.
            let read = try CodegenSchema(text: String(decoding: json, as: UTF8.self), file: "schema.json")
            #expect(read.schema.getType(name: "RocketKind") != nil)
        }
    }
}

@Suite("CodegenSchema, bad input")
struct CodegenSchemaErrorTests {
    @Test("a missing file: unreadable, naming the file")
    func missingFile() {
        #expect {
            try CodegenSchema(contentsOf: "/nonexistent/schema.graphqls")
        } throws: { error in
            let error = error as? CodegenError
            return error?.code == .unreadable
                && error?.description == "/nonexistent/schema.graphqls: error: no such file."
        }
    }

    @Test("SDL with a syntax error: the file, line and column of it")
    func syntaxError() {
        let sdl = "type Query {\n  a: Int\n  b:\n}\n"
        #expect {
            try CodegenSchema(text: sdl, file: "broken.graphqls")
        } throws: { error in
            let error = error as? CodegenError
            return error?.code == .invalidSchema && error?.line == 4 && error?.column == 1
                && error?.description.hasPrefix("broken.graphqls:4:1: error: Syntax Error") == true
        }
    }

    @Test("SDL that ends inside a \\u escape of a description is a syntax error, not a stopped process")
    func cutOffEscape() {
        #expect {
            try CodegenSchema(text: #"type Query { "\u1"#, file: "cut.graphqls")
        } throws: { error in
            let error = error as? CodegenError
            return error?.code == .invalidSchema
                && error?.description.hasPrefix("cut.graphqls:1:") == true
        }
    }

    @Test("SDL that parses but is not a valid schema: the place of the problem")
    func invalidSchema() {
        let sdl = "type Query {\n  a: Missing\n}\n"
        #expect {
            try CodegenSchema(text: sdl, file: "unknown.graphqls")
        } throws: { error in
            let error = error as? CodegenError
            return error?.code == .invalidSchema && error?.message.contains("Missing") == true
        }
    }

    @Test("JSON that is not an introspection result says what is missing, and where")
    func notIntrospection() {
        let cases: [(String, String)] = [
            (#"{"data": {"__schema": {"types": []}}}"#, "__schema.queryType is missing"),
            (
                #"{"__schema": {"queryType": {"name": "Q"}, "types": [{"kind": "WIDGET", "name": "X"}]}}"#,
                "__schema.types[0].kind is WIDGET"
            ),
            (
                #"{"data": null, "errors": [{"message": "Not authorized"}]}"#,
                "an error response: Not authorized"
            ),
            ("{ not json", "not JSON"),
        ]
        for (json, expected) in cases {
            #expect {
                try CodegenSchema(text: json, file: "schema.json")
            } throws: { error in
                let error = error as? CodegenError
                return error?.code == .invalidSchema && error?.message.contains(expected) == true
                    && error?.description.hasPrefix("schema.json: error:") == true
            }
        }
    }
}
