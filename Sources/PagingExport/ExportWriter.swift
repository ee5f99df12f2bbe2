public import Foundation
public import PagingGraphQLCore
import PagingLock

/// Where an ``Exporter`` writes the items of each page: one call per page,
/// in order, each page written whole before the next is asked for.
public protocol ExportWriter: Sendable {
    /// Writes the items of a page.
    /// - Parameter items: the page's items, in export order.
    /// - Throws: when they cannot be written; the export stops, and its
    ///   resume cursor is the one before the page.
    func write(_ items: [JSONValue]) throws
}

/// Writes exported items as JSON Lines (one compact value a line, keys
/// sorted) or as one JSON array, keeping the array valid however the export
/// ends (``finish()`` closes it), and continuing an array a resumed export
/// adds to.
public final class JSONExportWriter: ExportWriter {
    /// The output format.
    public enum Format: Sendable {
        /// One JSON value a line (JSON Lines).
        case lines
        /// One JSON array of every value.
        case array
    }

    private struct State {
        var written = 0
        var opened = false
        var finished = false
    }

    private let format: Format
    private let output: @Sendable (Data) throws -> Void
    private let state = Lock(State())

    /// Creates a writer.
    /// - Parameters:
    ///   - format: lines or an array.
    ///   - continuedElements: for an array whose opening bracket and first
    ///     elements the destination already holds (a resumed export adding
    ///     to it, the closing bracket taken off), how many elements it holds;
    ///   `nil` to start a new array. Ignored for lines, which a resumed
    ///     export simply appends.
    ///   - output: where the bytes go, one call per page.
    public init(
        format: Format, continuedElements: Int? = nil, output: @escaping @Sendable (Data) throws -> Void
    ) {
        self.format = format
        self.output = output
        if format == .array, let continuedElements {
            state.withLock { state in
                state.opened = true
                state.written = continuedElements
            }
        }
    }

    /// The number of values written, those an array was continued from included.
    public var writtenCount: Int { state.withLock { $0.written } }

    /// Writes a page of values in one call of the output.
    /// - Throws: what the output throws.
    /// - Complexity: O(*n*) in the size of the values.
    public func write(_ items: [JSONValue]) throws {
        let data = state.withLock { state in
            var data = Data()
            if format == .array, !state.opened {
                data.append(UInt8(ascii: "["))
                state.opened = true
            }
            for value in items {
                if format == .array {
                    data.append(contentsOf: Array((state.written == 0 ? "\n" : ",\n").utf8))
                }
                data.append(value.jsonData(sortingKeys: true))
                if format == .lines { data.append(UInt8(ascii: "\n")) }
                state.written += 1
            }
            return data
        }
        if !data.isEmpty { try output(data) }
    }

    /// Ends the output: closes the array (an empty one if nothing was
    /// written); nothing for lines. Once: a second call writes nothing.
    /// - Throws: what the output throws.
    public func finish() throws {
        guard format == .array else { return }
        let closing: String? = state.withLock { state in
            guard !state.finished else { return nil }
            state.finished = true
            return state.opened ? (state.written == 0 ? "]\n" : "\n]\n") : "[]\n"
        }
        if let closing { try output(Data(closing.utf8)) }
    }
}
