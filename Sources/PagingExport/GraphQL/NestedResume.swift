import Foundation

/// Where a nested export stands, as ``Exporter/Settings/resume`` takes it back: the next outer node to start, and
/// (with `--flatten`) how far the inner connections of the node before it went.
///
/// Printed as `nested1.` and the base64url text of its JSON, so that it passes through a shell
/// as one word (``Exporter/Result/resumeCursor``). A plain cursor, as a one-level export
/// prints, is read as the outer position.
struct NestedResume: Codable, Equatable, Sendable {
    /// An inner connection in progress.
    struct Frame: Codable, Equatable, Sendable {
        /// The id of the node whose connection it is.
        var id: String
        /// That node's type, for its `node(id:)` query.
        var type: String
        /// The cursor its current page was asked for with; `nil` for its first page.
        var after: String?
        /// How many nodes of that page are done (the last of them, when a frame follows this
        /// one, is the node that frame belongs to).
        var skip: Int
    }

    /// The cursor to ask the outer connection's page for with; `nil` for its first page.
    var after: String?
    /// How many nodes of that page are done.
    var skip = 0
    /// The inner connections in progress, outermost first: those of the outer node just done
    /// (``skip`` and ``after`` already count it), and of its node in progress at each level.
    var open: [Frame] = []

    /// What every token starts with.
    static let prefix = "nested1."

    /// The text a resumed export takes: a plain cursor when that is all there is, a token otherwise.
    var token: String {
        if skip == 0, open.isEmpty, let after, !after.hasPrefix(Self.prefix) { return after }
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let data = (try? encoder.encode(self)) ?? Data()
        return Self.prefix
            + data.base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// Reads a cursor to resume from.
    /// - Throws: ``ExportError`` (``ExportError/Code/malformedCursor``) when a token does not
    ///   decode.
    init(resuming text: String) throws(ExportError) {
        guard text.hasPrefix(Self.prefix) else {
            self.init(after: text)
            return
        }
        var base64 = String(text.dropFirst(Self.prefix.count))
            .replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        if base64.utf8.count % 4 != 0 { base64 += String(repeating: "=", count: 4 - base64.utf8.count % 4) }
        guard let data = Data(base64Encoded: base64),
            let decoded = try? JSONDecoder().decode(NestedResume.self, from: data), decoded.skip >= 0,
            decoded.open.allSatisfy({ $0.skip >= 0 })
        else {
            throw ExportError(
                .malformedCursor,
                "the cursor to resume from, \(text.prefix(40))…, is not a position this export printed (it does not decode); copy it whole from where the export reported it."
            )
        }
        self = decoded
    }

    /// A position.
    init(after: String?, skip: Int = 0, open: [Frame] = []) {
        self.after = after
        self.skip = skip
        self.open = open
    }
}
