import Foundation
import Testing

@testable import PagingGraphQLCore

@Suite("JSONValue")
struct JSONValueTests {
    @Test("decodes every kind of JSON value and keeps integers apart from fractions")
    func decodesEveryKind() throws {
        let value = try JSONValue(
            json: Data(#"{"a":null,"b":true,"c":3,"d":2.5,"e":"x","f":[1,"y"],"g":{"h":false}}"#.utf8))
        #expect(value["a"] == .null)
        #expect(value["b"] == .bool(true))
        #expect(value["c"] == .int(3))
        #expect(value["d"] == .double(2.5))
        #expect(value["e"] == .string("x"))
        #expect(value["f"] == [1, "y"])
        #expect(value["g"]?["h"]?.boolValue == false)
    }

    @Test("round-trips through JSON text")
    func roundTrips() throws {
        let value: JSONValue = ["list": [1, 2.5, nil, true], "name": "Falcon", "nested": ["x": [:]]]
        let data = try JSONEncoder().encode(value)
        #expect(try JSONValue(json: data) == value)
        #expect(value.description == #"{"list":[1,2.5,null,true],"name":"Falcon","nested":{"x":{}}}"#)
    }

    @Test("subscripts by key, index and path return nil for anything missing")
    func subscripts() {
        let value: JSONValue = ["launches": ["launches": [["site": "KSC"], nil]]]
        #expect(value[path: ["launches", "launches", 0, "site"]]?.stringValue == "KSC")
        #expect(value[path: ["launches", "launches", 1]] == .null)
        #expect(value[path: ["launches", "launches", 2]] == nil)
        #expect(value[path: ["launches", "missing"]] == nil)
        #expect(value[0] == nil)
        #expect(value["launches"]?["launches"]?[5] == nil)
        #expect(value[path: []] == value)
    }

    @Test("accessors read numbers in either form")
    func accessors() {
        #expect(JSONValue.int(4).doubleValue == 4)
        #expect(JSONValue.double(4).intValue == 4)
        #expect(JSONValue.double(4.5).intValue == nil)
        #expect(JSONValue.string("4").intValue == nil)
        #expect(JSONValue.null.isNull)
        #expect(JSONValue.array([1]).arrayValue == [1])
        #expect(JSONValue.object(["a": 1]).objectValue == ["a": 1])
    }

    @Test("encodes a Swift value and decodes into one")
    func bridgesCodable() throws {
        struct Launch: Codable, Equatable { var id: String; var site: String? }
        let json = try JSONValue(encoding: Launch(id: "1", site: nil))
        #expect(json == ["id": "1"])
        #expect(try json.decode(Launch.self) == Launch(id: "1", site: nil))
        #expect(throws: DecodingError.self) { try JSONValue.int(1).decode(Launch.self) }
    }

    @Test("path segments decode from strings and integers and print as a path")
    func pathSegments() throws {
        let path = try JSONDecoder().decode(
            [GraphQLPathSegment].self, from: Data(#"["launches", 3, "site"]"#.utf8))
        #expect(path == ["launches", 3, "site"])
        #expect(GraphQLPathSegment.describe(path) == "launches[3].site")
        #expect(GraphQLPathSegment.describe([]) == "(root)")
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode([GraphQLPathSegment].self, from: Data("[true]".utf8))
        }
    }
}
