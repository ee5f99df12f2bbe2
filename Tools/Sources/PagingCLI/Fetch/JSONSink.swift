import Foundation
import PagingGraphQLClient
import ToolsLock

/// Writes exported nodes as JSON Lines (one compact object a line) or as one JSON array,
/// keeping the array valid however the export ends.
final class JSONSink: Sendable {
    /// The output format.
    enum Format: Sendable {
        /// One JSON value a line.
        case lines
        /// One JSON array of every value.
        case array
    }

    private struct State {
        var written = 0
        var opened = false
    }

    private let format: Format
    private let write: @Sendable (Data) throws -> Void
    private let state = Locked(State())

    /// Creates a sink.
    /// - Parameters:
    ///   - format: lines or an array.
    ///   - continuedElements: for an array whose opening bracket and first elements the
    ///     destination already holds (a resumed `--slurp` export), how many elements it holds;
    ///     `nil` to start a new array.
    ///   - write: where bytes go.
    init(
        format: Format, continuedElements: Int? = nil, write: @escaping @Sendable (Data) throws -> Void
    ) {
        self.format = format
        self.write = write
        if format == .array, let continuedElements {
            state.withLock { state in
                state.opened = true
                state.written = continuedElements
            }
        }
    }

    /// Writes a page of values in one write.
    /// - Throws: what the destination throws.
    func write(_ values: [JSONValue]) throws {
        let data = state.withLock { state in
            var data = Data()
            if format == .array, !state.opened {
                data.append(contentsOf: Array("[".utf8))
                state.opened = true
            }
            for value in values {
                if format == .array {
                    data.append(contentsOf: Array((state.written == 0 ? "\n" : ",\n").utf8))
                }
                data.append(value.jsonData(sortingKeys: true))
                if format == .lines { data.append(UInt8(ascii: "\n")) }
                state.written += 1
            }
            return data
        }
        if !data.isEmpty { try write(data) }
    }

    /// Ends the output: closes the array.
    /// - Throws: what the destination throws.
    func finish() throws {
        guard format == .array else { return }
        let (opened, written) = state.withLock { ($0.opened, $0.written) }
        try write(Data((opened ? (written == 0 ? "]\n" : "\n]\n") : "[]\n").utf8))
    }
}
