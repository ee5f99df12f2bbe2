public import Foundation
import PagingLock

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A file an export writes, as JSON Lines or one JSON array, that a resumed
/// export continues without losing what it held.
///
/// - A new export replaces the file.
/// - A resumed export of JSON Lines appends to it (after a newline, if its
///   last line lacks one).
/// - A resumed export of an array continues the array the file holds: it
///   writes a copy beside the file, with the old elements and then the new
///   ones, and renames it over the file on ``close()``, so an export that is
///   killed or cannot finish leaves the file as it was
///   (``keepsFileUntilClosed``). The old array is read once, to check that
///   it is one.
///
/// A file that holds the other format is refused before anything is written.
public final class JSONExportFile: ExportWriter {
    /// What the export writes through: lines, or the array continued. End
    /// the file with ``close()``, which finishes the writer (once).
    public let writer: JSONExportWriter
    /// Whether the file keeps what it held until ``close()`` succeeds (a
    /// continued array is written to a copy beside it).
    public let keepsFileUntilClosed: Bool
    /// The number of elements of the array the file held, when the export
    /// continues it; `nil` otherwise.
    public let continuedElements: Int?

    private let finishFile: @Sendable () throws -> Void
    private let discardFile: @Sendable () -> Void

    private init(
        format: JSONExportWriter.Format, continuedElements: Int?, keepsFileUntilClosed: Bool,
        write: @escaping @Sendable (Data) throws -> Void, close: @escaping @Sendable () throws -> Void,
        discard: @escaping @Sendable () -> Void
    ) {
        self.writer = JSONExportWriter(format: format, continuedElements: continuedElements, output: write)
        self.continuedElements = continuedElements
        self.keepsFileUntilClosed = keepsFileUntilClosed
        self.finishFile = close
        self.discardFile = discard
    }

    /// Opens a file for an export.
    /// - Parameters:
    ///   - url: the file.
    ///   - format: JSON Lines or one array.
    ///   - continuing: whether the export resumes one that stopped: a file
    ///     that exists is continued rather than replaced.
    /// - Returns: the file, ready to write.
    /// - Throws: ``ExportError`` (``ExportError/Code/outputUnusable``,
    ///   ``ExportError/Code/outputInOtherFormat``) when it cannot be created
    ///   or opened, or does not hold what the export continues; the file is
    ///   left as it was.
    /// - Complexity: O(*n*) in the size of an array continued (read once),
    ///   O(1) otherwise.
    public static func open(_ url: URL, format: JSONExportWriter.Format, continuing: Bool) throws(ExportError)
        -> JSONExportFile
    {
        let path = url.path
        let exists = FileManager.default.fileExists(atPath: path)
        switch (continuing && exists, format) {
        case (true, .array): return try continueArray(at: url)
        case (true, .lines): return try appendLines(to: url)
        case (false, _): return try create(url, format: format)
        }
    }

    /// Writes a page of items (see ``JSONExportWriter/write(_:)``).
    /// - Throws: what writing the file throws.
    public func write(_ items: [JSONValue]) throws {
        try writer.write(items)
    }

    /// Ends the file: closes the array, and puts a continued array in the
    /// file's place.
    /// - Throws: when the file cannot be finished; a continued array's file
    ///   then keeps what it held.
    public func close() throws {
        do {
            try writer.finish()
        } catch {
            discardFile()
            throw error
        }
        try finishFile()
    }

    /// Closes without finishing, when the export could not be completed: a
    /// continued array's copy is thrown away, and the file keeps what it held.
    public func discard() {
        discardFile()
    }

    // MARK: Opening

    /// A new, empty file in place of whatever was there.
    private static func create(_ url: URL, format: JSONExportWriter.Format) throws(ExportError)
        -> JSONExportFile
    {
        guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
            throw ExportError(
                .outputUnusable,
                "cannot create the output file '\(url.relativePath)'; check that its folder exists and is writable.",
                url: url)
        }
        let handle = try openForWriting(url)
        return JSONExportFile(
            format: format, continuedElements: nil, keepsFileUntilClosed: false,
            write: { try handle.write(contentsOf: $0) }, close: { try handle.close() },
            discard: { try? handle.close() })
    }

    /// The file, written at its end; a last line without its newline gets one first.
    private static func appendLines(to url: URL) throws(ExportError) -> JSONExportFile {
        // JSON Lines never has a line that is only `[`, which an array starts with.
        let start = try leadingBytes(of: url, count: 8)
        let trimmed = start.filter { !isSpace($0) }
        if start.starts(with: Array("[\n".utf8)) || start.starts(with: Array("[\r\n".utf8))
            || (start.count < 8 && trimmed == Array("[]".utf8))
        {
            throw ExportError(
                .outputInOtherFormat,
                "'\(url.relativePath)' holds a JSON array, so JSON Lines cannot be appended to it; it was left as it was.",
                url: url)
        }
        let handle = try openForWriting(url)
        do {
            let end = try handle.seekToEnd()
            if end > 0, try lastByte(of: url, size: end) != UInt8(ascii: "\n") {
                try handle.write(contentsOf: Data("\n".utf8))
            }
        } catch {
            try? handle.close()
            throw ExportError(
                .outputUnusable,
                "cannot append to the output file '\(url.relativePath)': \(ExportError.describe(error)).",
                url: url)
        }
        return JSONExportFile(
            format: .lines, continuedElements: nil, keepsFileUntilClosed: false,
            write: { try handle.write(contentsOf: $0) }, close: { try handle.close() },
            discard: { try? handle.close() })
    }

    /// A copy of the file's array without its closing bracket, written beside it and renamed
    /// over it on close.
    private static func continueArray(at url: URL) throws(ExportError) -> JSONExportFile {
        let target = url.resolvingSymlinksInPath()
        let old: Data
        do {
            old = try Data(contentsOf: target)
        } catch {
            throw ExportError(
                .outputUnusable,
                "cannot read the output file '\(url.relativePath)': \(ExportError.describe(error)).",
                url: url)
        }
        let (prefix, elements) = try arrayPrefix(of: old, url: url)
        let copy = target.deletingLastPathComponent().appendingPathComponent(
            ".\(target.lastPathComponent).paging-\(UUID().uuidString).partial")
        let permissions = try? FileManager.default.attributesOfItem(atPath: target.path)[.posixPermissions]
        guard
            FileManager.default.createFile(
                atPath: copy.path, contents: nil, attributes: permissions.map { [.posixPermissions: $0] })
        else {
            throw ExportError(
                .outputUnusable,
                "cannot create a file beside '\(url.relativePath)' to continue its array in; check that its folder is writable.",
                url: url)
        }
        let handle: FileHandle
        do {
            handle = try FileHandle(forWritingTo: copy)
        } catch {
            try? FileManager.default.removeItem(at: copy)
            throw ExportError(
                .outputUnusable,
                "cannot write beside the output file '\(url.relativePath)': \(ExportError.describe(error)).",
                url: url)
        }
        let discard: @Sendable () -> Void = {
            try? handle.close()
            try? FileManager.default.removeItem(at: copy)
        }
        do {
            try handle.write(contentsOf: prefix)
        } catch {
            discard()
            throw ExportError(
                .outputUnusable,
                "cannot write beside the output file '\(url.relativePath)': \(ExportError.describe(error)).",
                url: url)
        }
        // A copy with a write that failed may end inside an element: it never replaces the file.
        let writeFailed = Lock(false)
        return JSONExportFile(
            format: .array, continuedElements: elements, keepsFileUntilClosed: true,
            write: { data in
                do {
                    try handle.write(contentsOf: data)
                } catch {
                    writeFailed.withLock { $0 = true }
                    throw error
                }
            },
            close: {
                guard !writeFailed.withLock({ $0 }) else {
                    discard()
                    throw ExportError(
                        .writeFailed, "a write to the copy of '\(url.relativePath)' failed", url: url)
                }
                do {
                    try handle.close()
                } catch {
                    discard()
                    throw error
                }
                guard rename(copy.path, target.path) == 0 else {
                    let reason = String(cString: strerror(errno))
                    discard()
                    throw ExportError(
                        .writeFailed,
                        "cannot put the continued array in place of '\(url.relativePath)': \(reason)",
                        url: url)
                }
            },
            discard: discard)
    }

    /// The bytes of a JSON array up to its last element (without the closing bracket and the
    /// white space before it), and its number of elements. White space alone counts as an empty
    /// array.
    /// - Throws: ``ExportError`` (``ExportError/Code/outputInOtherFormat``) when the text is
    ///   not one JSON array.
    /// - Complexity: O(*n*) in the size of the data.
    static func arrayPrefix(of data: Data, url: URL) throws(ExportError) -> (Data, Int) {
        guard data.contains(where: { !isSpace($0) }) else { return (Data("[".utf8), 0) }
        let value: JSONValue
        do {
            value = try JSONValue(json: data)
        } catch {
            throw notAnArray(url, "it is not JSON (\(ExportError.describe(error)))")
        }
        guard let elements = value.arrayValue else {
            let text = String(decoding: value.jsonData(sortingKeys: true), as: UTF8.self)
            throw notAnArray(url, "it holds \(text.prefix(40)), not an array")
        }
        // A JSON array ends with `]`, after which there can only be white space.
        var end = data.endIndex
        while end > data.startIndex, isSpace(data[end - 1]) { end -= 1 }
        end -= 1
        while end > data.startIndex, isSpace(data[end - 1]) { end -= 1 }
        return (Data(data[data.startIndex..<end]), elements.count)
    }

    private static func notAnArray(_ url: URL, _ reason: String) -> ExportError {
        ExportError(
            .outputInOtherFormat,
            "cannot continue the JSON array in '\(url.relativePath)': \(reason); it was left as it was.",
            url: url)
    }

    private static func isSpace(_ byte: UInt8) -> Bool { [0x20, 0x09, 0x0A, 0x0D].contains(byte) }

    private static func openForWriting(_ url: URL) throws(ExportError) -> FileHandle {
        do {
            return try FileHandle(forWritingTo: url)
        } catch {
            throw ExportError(
                .outputUnusable,
                "cannot open the output file '\(url.relativePath)': \(ExportError.describe(error)).",
                url: url)
        }
    }

    /// The first bytes of a file (fewer when it is shorter).
    private static func leadingBytes(of url: URL, count: Int) throws(ExportError) -> [UInt8] {
        do {
            let handle = try FileHandle(forReadingFrom: url)
            defer { try? handle.close() }
            return Array(try handle.read(upToCount: count) ?? Data())
        } catch {
            throw ExportError(
                .outputUnusable,
                "cannot read the output file '\(url.relativePath)': \(ExportError.describe(error)).",
                url: url)
        }
    }

    private static func lastByte(of url: URL, size: UInt64) throws -> UInt8? {
        let handle = try FileHandle(forReadingFrom: url)
        defer { try? handle.close() }
        try handle.seek(toOffset: size - 1)
        return try handle.read(upToCount: 1)?.first
    }
}
