import Foundation
import PagingGraphQLClient
import Testing

/// Decodes a response's `data` into a generated type, as the client does.
private func decode<Value: Decodable>(_ type: Value.Type, _ json: String) throws -> Value {
    try JSONDecoder().decode(Value.self, from: Data(json.utf8))
}

/// Encodes a value, and decodes what it wrote.
private func roundTrip<Value: Swift.Codable>(_ value: Value) throws -> Value {
    try JSONDecoder().decode(Value.self, from: JSONEncoder().encode(value))
}

/// The JSON object of an encoded value, to read its keys.
private func object(_ value: some Encodable) throws -> [String: Any] {
    try JSONSerialization.jsonObject(with: JSONEncoder().encode(value)) as? [String: Any] ?? [:]
}

// The generated files beside this one (Generated/) are what the generator writes of
// Tests/PagingCodegenTests/Fixtures/Torture, checked by CodegenGoldenTests; that they compile, with
// no warning, is the first half of the suite. These tests are the second: the names that compile
// also read and write the JSON the server sends and expects.
@Suite("Codegen, names made to break it")
struct TortureDecodingTests {
    @Test("lowerCamelCase fragments become UpperCamelCase types, spread beside a field named like them")
    func lowerCamelCaseFragments() throws {
        let data = try decode(
            CommentThreadQuery.Data.self,
            """
            {"node": {"__typename": "IssueComment", "nodeFields": "alias of id", "id": "C1",
              "url": "https://example.com/c1", "body": "Hello", "createdAt": "2020-01-01",
              "author": {"__typename": "user", "login": "octo", "avatarUrl": "a.png", "kind": "user",
                         "bigAvatar": "b.png", "name": "Octo Cat"},
              "reactions": [{"content": "HEART", "user": {"login": "mona", "bio": null}}]}}
            """)
        let node = try #require(data.node)
        #expect(node.nodeFields == "alias of id")
        #expect(node.nodeFieldsFragment.id == "C1")
        #expect(node.nodeFieldsFragment.__typename == "IssueComment")
        #expect(node.asActor == nil, "an IssueComment is not an Actor")
        let comment = try #require(node.asIssueComment)
        #expect(comment.reactions.map(\.content) == ["HEART"])
        #expect(comment.reactionsFragment.reactions.first?.user?.userBits.login == "mona")
        let fields = try #require(comment.asComment?.commentFields)
        #expect(fields.body == "Hello")
        #expect(fields.asNode?.nodeFields.id == "C1")
        #expect(fields.author?.actorFields.login == "octo")
        #expect(comment.commentMeta.author?.kind == "user")
        // No round trip here: three parts of this selection select `author` differently, and
        // encoding writes the key once per part, the last one replacing the others.
    }

    @Test("fragments whose names differ only in case, and an alias named like one, are three properties")
    func fragmentsThatDifferInCase() throws {
        let data = try decode(
            ViewerInfoQuery.Data.self,
            """
            {"viewer": {"__typename": "user", "kind": "user", "id": "U1", "createdAt": "2019",
              "self": {"login": "octo", "bio": "hi"}, "login": "octo", "bio": "hi", "name": "Octo",
              "websiteUrl": null, "userBits": "Octo", "a": "octo", "A": "OCTO"}}
            """)
        #expect(data.viewer.userBits == "Octo")
        #expect(data.viewer.userBitsFragment.login == "octo")
        #expect(data.viewer.userBitsFragment_.name == "Octo")
        #expect(data.viewer.a == "octo")
        #expect(data.viewer.A == "OCTO")
        #expect(data.viewer.kind == "user")
        #expect(data.viewer.viewerInfo.`self`.userBits.bio == "hi")
        #expect(try roundTrip(data) == data)
    }

    @Test("fields named like Swift keywords and standard types decode under their own names")
    func keywordFields() throws {
        let data = try decode(
            ThingQuery.Data.self,
            """
            {"thing": {"id": "T1", "self": "https://example.com/t1", "Type": "Self", "type": "kind",
              "default": true, "class": "A", "in": ["x"], "operator": "+", "Self": "me", "init": "i",
              "rawValue": "r", "String": "s", "Int": 7, "Bool": "FILE_NOT_FOUND", "Any": "any",
              "some": "s", "none": "n", "unknown": false, "Optional": "none", "Decoder": "JSON",
              "Codable": "NO", "Swift": "TAYLOR", "CodingKeys": ["k"], "codingKeys": "k",
              "Variables": "v", "variables": ["v"], "Data": {"id": "D1", "bytes": 3},
              "data": {"encoding": "utf8"}, "Error": {"message": "m"},
              "Result": {"__typename": "Error", "code": 404}, "updatedAt": "2020", "homepage": null}}
            """)
        let thing = try #require(data.thing)
        #expect(thing.`self` == .string("https://example.com/t1"))
        #expect(thing.`Type` == .self__ && thing.`Type`.rawValue == "Self")
        #expect(Type_(rawValue: "self") == .self_ && Type_(rawValue: "Type") == .type)
        #expect(thing.`default` && thing.`class` == "A" && thing.`in` == ["x"])
        #expect(thing.`Self` == "me" && thing.`init` == "i" && thing.rawValue == "r")
        #expect(thing.String == "s" && thing.Int == 7 && thing.`Any` == "any")
        #expect(thing.Bool == .fileNotFound)
        #expect(thing.none == "n" && thing.some == "s" && thing.unknown == false)
        #expect(thing.CodingKeys == ["k"] && thing.codingKeys == "k")
        #expect(thing.Data?.bytes == 3 && thing.data?.encoding == "utf8")
        #expect(thing.Result?.asError?.code == 404)
        #expect(try roundTrip(data) == data)
        // Written back under the GraphQL names, not the Swift ones.
        let written = try object(try #require(data.thing))
        #expect(Set(written.keys).isSuperset(of: ["self", "Type", "default", "CodingKeys", "Self", "init"]))
    }

    @Test("variables and input fields named like keywords are sent under their GraphQL names")
    func keywordVariables() throws {
        let thing = ThingQuery(Type: .type, class: "A", operator: "+", self: "T1")
        let variables = try object(thing.variables)
        #expect(variables["Type"] as? String == "Type")
        #expect(variables["class"] as? String == "A")
        #expect(variables["self"] as? String == "T1")
        #expect(variables["operator"] as? String == "+")
        let search = try object(SearchQuery(filter: Filter(), in: [], default: 3).variables)
        #expect(Set(search.keys) == ["filter", "in", "default"])
    }

    @Test(
        "names Swift gives a meaning to (_, ID, StringLiteralType, hashValue, a mapped String) decode under their keys"
    )
    func reservedNames() throws {
        // $x false: what @include(if: $x) asks for is not there.
        let data = try decode(
            ReservedQuery.Data.self,
            """
            {"_": true, "viewer": {"id": "U1", "iD": {"id": "U2"}, "string": {"id": "U3", "login": "s"},
              "stamp": "2026-11-26", "hashValue": 42, "name": "Octo", "login": "octo", "bio": null,
              "__typename": "user", "self": {"id": "U1"}},
             "search": [{"__typename": "Thing"}]}
            """)
        #expect(data.`_` == true)
        #expect(data.viewer.iD.id == "U2" && data.viewer.string.login == "s")
        #expect(data.viewer.stamp == "2026-11-26")
        #expect(data.viewer.hashValue_ == 42)
        #expect(data.viewer.`_`.name == "Octo" && data.viewer.stringLiteralType.login == "octo")
        #expect(data.viewer.asNode?.id == "U1", "a user is a Node: its case decodes by __typename")
        #expect(data.viewer.asActor?.avatarUrl == nil, "asked for only under @include(if: $x)")
        #expect(data.viewer.`self`.id == "U1" && data.viewer.`self`.login == nil)
        let written = try object(data.viewer)
        #expect(written["hashValue"] as? Int == 42 && written["hashValue_"] == nil)
        #expect(try roundTrip(data) == data)
    }
}
