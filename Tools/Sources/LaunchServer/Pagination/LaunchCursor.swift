import Foundation

/// Encodes and decodes the opaque cursors of every launch list.
///
/// A cursor is the base64url text (without padding) of `v1:<date>:<id>:<check>`, where
/// `<check>` is a checksum of the rest. It names a *position*, not a row, so a cursor whose
/// launch was deleted keeps working; the version lets a later format coexist; and the checksum
/// turns an altered or truncated cursor into a clear error instead of a silently wrong page.
/// The checksum detects mistakes, it is not a signature: this is a test server.
enum LaunchCursor {
    /// The version this server writes and reads.
    static let version = "v1"

    /// The cursor of `position`.
    static func encode(_ position: KeysetPosition) -> String {
        let body = "\(version):\(position.date):\(position.id)"
        let payload = "\(body):\(checksum(body))"
        return Data(payload.utf8).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// The position a cursor names.
    ///
    /// - Parameter cursor: Text that a client got from this server.
    /// - Returns: The position the cursor names.
    /// - Throws: ``CursorError`` saying what is wrong with the cursor.
    static func decode(_ cursor: String) throws(CursorError) -> KeysetPosition {
        guard !cursor.isEmpty else { throw CursorError("it is empty") }
        guard cursor.utf8.count <= 200 else {
            throw CursorError("it is too long to be a cursor of this server")
        }
        var base64 = cursor.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        if base64.utf8.count % 4 != 0 {
            base64 += String(repeating: "=", count: 4 - base64.utf8.count % 4)
        }
        guard let data = Data(base64Encoded: base64) else {
            throw CursorError("it is not base64url text (was it truncated or typed by hand?)")
        }
        guard let payload = String(data: data, encoding: .utf8) else {
            throw CursorError("its content is not text")
        }
        let fields = payload.split(separator: ":", omittingEmptySubsequences: false)
        guard let first = fields.first, first.hasPrefix("v") else {
            throw CursorError("it has no version prefix")
        }
        guard first == version else {
            throw CursorError("it has version '\(first)', and this server reads \(version) cursors only")
        }
        guard fields.count == 4 else {
            throw CursorError(
                "it has \(fields.count) fields where a \(version) cursor has 4 (was it truncated?)")
        }
        guard let date = Int64(fields[1]), let id = Int64(fields[2]) else {
            throw CursorError("its date or id is not a whole number")
        }
        let body = "\(version):\(fields[1]):\(fields[2])"
        guard fields[3] == checksum(body) else {
            throw CursorError("it failed its integrity check (it was altered or truncated)")
        }
        return KeysetPosition(date: date, id: id)
    }

    /// FNV-1a (32 bits) of `text`, as 8 lowercase hexadecimal digits.
    private static func checksum(_ text: String) -> String {
        var hash: UInt32 = 0x811C_9DC5
        for byte in text.utf8 {
            hash ^= UInt32(byte)
            hash = hash &* 0x0100_0193
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 8 - hex.count) + hex
    }
}

/// Why a cursor could not be decoded; its description completes the sentence
/// "The cursor is not valid: …".
struct CursorError: Error, Hashable, CustomStringConvertible {
    /// What is wrong, such as "it failed its integrity check".
    let reason: String

    init(_ reason: String) {
        self.reason = reason
    }

    var description: String { "The cursor is not valid: \(reason)." }
}
