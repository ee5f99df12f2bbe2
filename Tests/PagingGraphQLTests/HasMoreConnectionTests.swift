import Foundation
import PagingGraphQL
import Testing

@Suite("HasMoreConnection")
struct HasMoreConnectionTests {
    struct Launch: Codable, Hashable, Sendable { var id: String; var site: String? }

    @Test("decodes the tutorial's LaunchConnection, finding the list by itself")
    func decodesTheTutorialShape() throws {
        let json =
            #"{"__typename":"LaunchConnection","cursor":"1583556631","hasMore":true,"launches":[{"id":"109","site":"CCAFS SLC 40"},null]}"#
        let page = try JSONDecoder().decode(HasMoreConnection<Launch>.self, from: Data(json.utf8))
        #expect(page.cursor == "1583556631")
        #expect(page.hasMore)
        #expect(page.listField == "launches")
        #expect(Array(page) == [Launch(id: "109", site: "CCAFS SLC 40")])
        let encoded = try JSONValue(encoding: page)
        #expect(encoded["launches"]?.arrayValue?.count == 1)
    }

    @Test("refuses a page with two lists unless the list is named")
    func namesTheList() throws {
        let json: JSONValue = ["cursor": "c", "hasMore": false, "launches": [["id": "1"]], "tags": []]
        #expect(throws: DecodingError.self) { try json.decode(HasMoreConnection<Launch>.self) }
        let page = try HasMoreConnection<Launch>(json: json, listField: "launches")
        #expect(page.items.map(\.id) == ["1"])
        #expect(!page.hasMore)
        #expect(throws: DecodingError.self) {
            try HasMoreConnection<Launch>(json: json, listField: "rockets")
        }
    }

    @Test("refuses a page without a list")
    func refusesNoList() {
        let json: JSONValue = ["cursor": "c", "hasMore": false]
        #expect(throws: DecodingError.self) { try json.decode(HasMoreConnection<Launch>.self) }
    }
}
