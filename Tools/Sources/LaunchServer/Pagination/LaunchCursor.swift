import Foundation

/// Encodes and decodes the opaque cursors of every launch list.
///
/// A cursor is base64url text (without padding) of one of two versions:
///
/// - `v1:<date>:<id>:<check>`: a place in the newest-first list without filter arguments
///   (`launchConnection` with none, the tutorial's `launches`, `Rocket.launches`).
/// - `v2:<order>:<filters>:<key>:<check>`: a place in the list of another order or with
///   filters, where `<order>` is `n` (newest first, key `<date>:<id>`) or `m` (mission name, key
///   `<id>:<name>`), and `<filters>` is the ``LaunchScope/filterFingerprint`` of the list's
///   `search`, `booked` and `site`.
///
/// `<check>` is a checksum of the rest. A cursor names a *position*, not a row, so a cursor
/// whose launch was deleted keeps working; the version lets formats coexist; the order and the
/// filters let a list refuse a cursor of another list (``ConnectionRequest`` does) instead of
/// answering pages of the wrong list; and the checksum turns an altered or truncated cursor into
/// a clear error. The checksum detects mistakes, it is not a signature: this is a test server.
enum LaunchCursor {
    /// The version of the newest-first list without filters.
    static let version = "v1"
    /// The version of every other list.
    static let listVersion = "v2"
    /// The longest cursor this server reads: room for a ``LaunchListPosition/missionName(_:id:)``
    /// cursor of the longest mission name `addLaunch` takes (200 characters).
    static let maximumLength = 2_048

    /// What a cursor says: the list it belongs to and its place in it.
    struct Content: Hashable, Sendable {
        /// The place, which also tells the list's order.
        var position: LaunchListPosition
        /// The ``LaunchScope/filterFingerprint`` of the list's filter arguments.
        var filters: String
    }

    /// The `v1` cursor of `position` in the newest-first list without filters.
    static func encode(_ position: KeysetPosition) -> String {
        encode(.newestFirst(position), filters: LaunchScope.unfilteredFingerprint)
    }

    /// The cursor of `position` in the list of its order whose filter arguments have the
    /// fingerprint `filters`: `v1` for the newest-first list without filters, `v2` otherwise.
    static func encode(_ position: LaunchListPosition, filters: String) -> String {
        let body: String
        switch position {
        case .newestFirst(let keyset) where filters == LaunchScope.unfilteredFingerprint:
            body = "\(version):\(keyset.date):\(keyset.id)"
        case .newestFirst(let keyset):
            body =
                "\(listVersion):\(LaunchOrder.newestFirst.cursorCode):\(filters):\(keyset.date):\(keyset.id)"
        case .missionName(let name, let id):
            body = "\(listVersion):\(LaunchOrder.missionName.cursorCode):\(filters):\(id):\(name)"
        }
        let payload = "\(body):\(checksum(body))"
        return Data(payload.utf8).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// The position a `v1` cursor names in the newest-first list without filters.
    ///
    /// - Parameter cursor: Text that a client got from this server.
    /// - Returns: The position the cursor names.
    /// - Throws: ``CursorError`` saying what is wrong with the cursor, or that it is a cursor of
    ///   another order or with filters.
    static func decode(_ cursor: String) throws(CursorError) -> KeysetPosition {
        let content = try decodeContent(cursor)
        guard case .newestFirst(let position) = content.position,
            content.filters == LaunchScope.unfilteredFingerprint
        else {
            throw CursorError("it belongs to a list of another order or with filters")
        }
        return position
    }

    /// What a cursor of any version says.
    ///
    /// - Parameter cursor: Text that a client got from this server.
    /// - Returns: The list the cursor belongs to and its place in it.
    /// - Throws: ``CursorError`` saying what is wrong with the cursor.
    static func decodeContent(_ cursor: String) throws(CursorError) -> Content {
        guard !cursor.isEmpty else { throw CursorError("it is empty") }
        guard cursor.utf8.count <= maximumLength else {
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
        guard payload.hasPrefix("v") else {
            throw CursorError("it has no version prefix")
        }
        let versionEnd = payload.firstIndex(of: ":") ?? payload.endIndex
        let cursorVersion = payload[..<versionEnd]
        switch cursorVersion {
        case Substring(version): return try decodeV1(payload)
        case Substring(listVersion): return try decodeV2(payload)
        default:
            throw CursorError(
                "it has version '\(cursorVersion)', and this server reads \(version) and \(listVersion) cursors only"
            )
        }
    }

    /// Decodes `v1:<date>:<id>:<check>`.
    private static func decodeV1(_ payload: String) throws(CursorError) -> Content {
        let fields = payload.split(separator: ":", omittingEmptySubsequences: false)
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
        return Content(
            position: .newestFirst(KeysetPosition(date: date, id: id)),
            filters: LaunchScope.unfilteredFingerprint)
    }

    /// Decodes `v2:<order>:<filters>:<key>:<check>`; a mission name in the key may hold `:`.
    private static func decodeV2(_ payload: String) throws(CursorError) -> Content {
        guard let checkStart = payload.lastIndex(of: ":") else {
            throw CursorError("it has no integrity check (was it truncated?)")
        }
        let body = String(payload[..<checkStart])
        guard payload[payload.index(after: checkStart)...] == checksum(body) else {
            throw CursorError("it failed its integrity check (it was altered or truncated)")
        }
        let fields = body.split(separator: ":", maxSplits: 4, omittingEmptySubsequences: false)
        guard fields.count == 5 else {
            throw CursorError("it has \(fields.count + 1) fields where a \(listVersion) cursor has 6")
        }
        let filters = String(fields[2])
        guard let order = LaunchOrder(cursorCode: fields[1]) else {
            throw CursorError("its order '\(fields[1])' is not one this server knows")
        }
        switch order {
        case .newestFirst:
            guard let date = Int64(fields[3]), let id = Int64(fields[4]) else {
                throw CursorError("its date or id is not a whole number")
            }
            return Content(position: .newestFirst(KeysetPosition(date: date, id: id)), filters: filters)
        case .missionName:
            guard let id = Int64(fields[3]) else {
                throw CursorError("its id is not a whole number")
            }
            return Content(position: .missionName(String(fields[4]), id: id), filters: filters)
        }
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
