import Foundation
import Testing

@testable import LaunchServer

@Suite("Cursors")
struct LaunchCursorTests {
    @Test("round-trip every position, including ties and the head")
    func roundTrips() throws {
        for position in [
            KeysetPosition(date: 1_143_239_400, id: 1), KeysetPosition(date: 0, id: 0), KeysetPosition.head,
            KeysetPosition(date: -5, id: 7),
        ] {
            #expect(try LaunchCursor.decode(LaunchCursor.encode(position)) == position)
        }
        #expect(
            LaunchCursor.encode(KeysetPosition(date: 10, id: 1))
                != LaunchCursor.encode(KeysetPosition(date: 10, id: 2)),
            "launches of the same second get different cursors")
    }

    @Test("are opaque URL-safe text with a version")
    func areOpaque() throws {
        let cursor = LaunchCursor.encode(KeysetPosition(date: 1_143_239_400, id: 1))
        #expect(!cursor.contains("1143239400"))
        #expect(cursor.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" })
        let payload = try #require(
            Data(base64Encoded: cursor + String(repeating: "=", count: (4 - cursor.count % 4) % 4)))
        #expect(String(decoding: payload, as: UTF8.self).hasPrefix("v1:"))
    }

    static func base64url(_ text: String) -> String {
        Data(text.utf8).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    static let valid = LaunchCursor.encode(KeysetPosition(date: 1_597_761_060, id: 100))

    @Test(
        "reject malformed, forged, truncated and foreign cursors with a reason",
        arguments: [
            ("", "empty"),
            ("not a cursor!", "not base64url"),
            (String(valid.dropLast(3)), "truncated"),
            (String(valid.dropLast(1)), "integrity check"),
            (base64url("v1:1597761060:100:00000000"), "integrity check"),
            (base64url("v1:1597761060:101:" + "0"), "integrity check"),
            (base64url("v3:1597761060:100:abcdef01"), "version 'v3'"),
            (base64url("v2:1597761060:100:abcdef01"), "integrity check"),
            (base64url("hello"), "no version"),
            (base64url("v1:x:y:z"), "not a whole number"),
            ("1143239400", "not text"),
            (String(repeating: "A", count: LaunchCursor.maximumLength + 1), "too long"),
        ]
    )
    func rejectsBadCursors(cursor: String, reason: String) {
        #expect {
            try LaunchCursor.decode(cursor)
        } throws: { error in
            guard let error = error as? CursorError else { return false }
            return error.description.contains(reason)
        }
    }
}
