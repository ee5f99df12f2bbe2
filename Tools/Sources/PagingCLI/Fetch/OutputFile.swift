import Foundation
import PagingGraphQLClient
import ToolsLock

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where exported bytes go.
struct OutputDestination: Sendable {
    /// Writes bytes.
    let write: @Sendable (Data) throws -> Void
    /// Flushes and closes; for an array continued in a copy, puts the copy in the file's place.
    let close: @Sendable () throws -> Void
    /// Closes without finishing, when the output could not be completed: an array continued in
    /// a copy is thrown away, and the file keeps what it held.
    var discard: @Sendable () -> Void = {}
    /// The number of elements of the JSON array the output continues, whose bytes up to its
    /// last element are already written; `nil` unless a resumed `--slurp` export continues the
    /// array already in its file.
    var continuedElements: Int?
    /// Whether the file keeps what it held until ``close`` succeeds (a continued array is
    /// written to a copy beside it).
    var keepsFileUntilClosed = false
}

/// Opens the file an export writes to (`-o FILE`).
///
/// - A new export replaces the file.
/// - A resumed export of JSON Lines appends to it.
/// - A resumed `--slurp` export continues the JSON array the file holds: it writes a copy
///   beside the file, with the old elements and then the new ones, and renames it over the file
///   when the export ends, so an export that is killed or cannot finish leaves the file as it was.
///   The old array is read once, to check that it is one.
enum OutputFile {
    /// Opens the output.
    /// - Parameters:
    ///   - path: the file.
    ///   - resuming: whether the export continues one that stopped (`--resume`).
    ///   - slurp: whether the output is one JSON array (`--slurp`).
    /// - Returns: where to write.
    /// - Throws: ``CLIError`` (usage) when the file cannot be created or opened, or does not hold
    ///   what the resumed export continues; the message says what to do.
    static func open(path: String, resuming: Bool, slurp: Bool) throws(CLIError) -> OutputDestination {
        let exists = FileManager.default.fileExists(atPath: path)
        switch (resuming && exists, slurp) {
        case (true, true): return try continueArray(at: path)
        case (true, false): return try appendLines(to: path)
        case (false, _): return try create(path)
        }
    }

    /// A new, empty file in place of whatever was there.
    private static func create(_ path: String) throws(CLIError) -> OutputDestination {
        guard FileManager.default.createFile(atPath: path, contents: nil) else {
            throw .usage(
                "cannot create the output file '\(path)'; check that its folder exists and is writable.")
        }
        let handle = try openForWriting(path)
        return OutputDestination(
            write: { try handle.write(contentsOf: $0) }, close: { try handle.close() },
            discard: { try? handle.close() })
    }

    /// The file, written at its end; a last line without its newline gets one first.
    private static func appendLines(to path: String) throws(CLIError) -> OutputDestination {
        // JSON Lines never has a line that is only `[`, which --slurp writes first.
        let start = try leadingBytes(of: path, count: 8)
        let trimmed = start.filter { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }
        if start.starts(with: Array("[\n".utf8)) || start.starts(with: Array("[\r\n".utf8))
            || (start.count < 8 && trimmed == Array("[]".utf8))
        {
            throw .usage(
                "'\(path)' holds a JSON array (an export with --slurp), so JSON Lines cannot be appended to it; resume with --slurp to continue the array, or write to another file with -o."
            )
        }
        let handle = try openForWriting(path)
        do {
            let end = try handle.seekToEnd()
            if end > 0, try lastByte(of: path, size: end) != UInt8(ascii: "\n") {
                try handle.write(contentsOf: Data("\n".utf8))
            }
        } catch {
            try? handle.close()
            throw .usage("cannot append to the output file '\(path)': \(ConnectionOptions.describe(error)).")
        }
        return OutputDestination(
            write: { try handle.write(contentsOf: $0) }, close: { try handle.close() },
            discard: { try? handle.close() })
    }

    /// A copy of the file's array without its closing bracket, written beside it and renamed
    /// over it on close.
    private static func continueArray(at path: String) throws(CLIError) -> OutputDestination {
        let target = URL(fileURLWithPath: path).resolvingSymlinksInPath()
        let old: Data
        do {
            old = try Data(contentsOf: target)
        } catch {
            throw .usage("cannot read the output file '\(path)': \(ConnectionOptions.describe(error)).")
        }
        let (prefix, elements) = try arrayPrefix(of: old, path: path)
        let copy = target.deletingLastPathComponent().appendingPathComponent(
            ".\(target.lastPathComponent).paging-\(UUID().uuidString).partial")
        let permissions = try? FileManager.default.attributesOfItem(atPath: target.path)[.posixPermissions]
        guard
            FileManager.default.createFile(
                atPath: copy.path, contents: nil,
                attributes: permissions.map { [.posixPermissions: $0] })
        else {
            throw .usage(
                "cannot create a file beside '\(path)' to continue its array in; check that its folder is writable."
            )
        }
        let handle: FileHandle
        do {
            handle = try FileHandle(forWritingTo: copy)
        } catch {
            try? FileManager.default.removeItem(at: copy)
            throw .usage(
                "cannot write beside the output file '\(path)': \(ConnectionOptions.describe(error)).")
        }
        let discard: @Sendable () -> Void = {
            try? handle.close()
            try? FileManager.default.removeItem(at: copy)
        }
        do {
            try handle.write(contentsOf: prefix)
        } catch {
            discard()
            throw .usage(
                "cannot write beside the output file '\(path)': \(ConnectionOptions.describe(error)).")
        }
        // A copy with a write that failed may end inside an element: it never replaces the file.
        let writeFailed = Flag()
        return OutputDestination(
            write: { data in
                do {
                    try handle.write(contentsOf: data)
                } catch {
                    writeFailed.set()
                    throw error
                }
            },
            close: {
                guard !writeFailed.isSet else {
                    discard()
                    throw CLIError.failed("a write to the copy of '\(path)' failed")
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
                    throw CLIError.failed("cannot put the continued array in place of '\(path)': \(reason)")
                }
            },
            discard: discard,
            continuedElements: elements, keepsFileUntilClosed: true)
    }

    /// The bytes of a JSON array up to its last element (without the closing bracket and the
    /// white space before it), and its number of elements. White space alone counts as an empty
    /// array.
    /// - Throws: ``CLIError`` (usage) when the text is not one JSON array.
    static func arrayPrefix(of data: Data, path: String) throws(CLIError) -> (Data, Int) {
        let isSpace: (UInt8) -> Bool = { [0x20, 0x09, 0x0A, 0x0D].contains($0) }
        guard data.contains(where: { !isSpace($0) }) else { return (Data("[".utf8), 0) }
        let value: JSONValue
        do {
            value = try JSONValue(json: data)
        } catch {
            throw notAnArray(path, "it is not JSON (\(ConnectionOptions.describe(error)))")
        }
        guard let elements = value.arrayValue else {
            throw notAnArray(path, "it holds \(value.compactJSON.prefix(40)), not an array")
        }
        // A JSON array ends with `]`, after which there can only be white space.
        var end = data.endIndex
        while end > data.startIndex, isSpace(data[end - 1]) { end -= 1 }
        end -= 1
        while end > data.startIndex, isSpace(data[end - 1]) { end -= 1 }
        return (Data(data[data.startIndex..<end]), elements.count)
    }

    private static func notAnArray(_ path: String, _ reason: String) -> CLIError {
        .usage(
            "--slurp --resume continues the JSON array in '\(path)', but \(reason). Resume without --slurp if the file holds JSON Lines, or write to another file with -o; '\(path)' was left as it was."
        )
    }

    private static func openForWriting(_ path: String) throws(CLIError) -> FileHandle {
        do {
            return try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        } catch {
            throw .usage("cannot open the output file '\(path)': \(ConnectionOptions.describe(error)).")
        }
    }

    /// The first bytes of a file (fewer when it is shorter).
    private static func leadingBytes(of path: String, count: Int) throws(CLIError) -> [UInt8] {
        do {
            let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
            defer { try? handle.close() }
            return Array(try handle.read(upToCount: count) ?? Data())
        } catch {
            throw .usage("cannot read the output file '\(path)': \(ConnectionOptions.describe(error)).")
        }
    }

    private static func lastByte(of path: String, size: UInt64) throws -> UInt8? {
        let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
        defer { try? handle.close() }
        try handle.seek(toOffset: size - 1)
        return try handle.read(upToCount: 1)?.first
    }
}

/// A flag set once, from any thread.
private final class Flag: Sendable {
    private let value = Locked(false)

    /// Whether ``set()`` was called.
    var isSet: Bool { value.withLock { $0 } }

    /// Sets the flag.
    func set() { value.withLock { $0 = true } }
}
