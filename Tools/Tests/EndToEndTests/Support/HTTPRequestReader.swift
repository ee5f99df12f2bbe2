import Foundation

/// An HTTP/1.1 request as ``HTTPRequestReader`` reads it.
struct HTTPRequest: Sendable {
    /// The request line, such as `POST /graphql HTTP/1.1`.
    var requestLine: String
    /// The header fields, by lowercased name.
    var headers: [String: String]
    /// The body (`Content-Length` bytes).
    var body: [UInt8]
}

/// Reads HTTP/1.1 requests one after another from a connection: the head up to the empty line,
/// then `Content-Length` bytes of body. It keeps the bytes that arrived past one request for
/// the next.
struct HTTPRequestReader {
    private var buffer: [UInt8] = []
    private static let endOfHead: [UInt8] = Array("\r\n\r\n".utf8)

    /// Reads the next request.
    /// - Parameter connection: the connection.
    /// - Returns: the request, or `nil` when the connection ended first or the head is not HTTP.
    mutating func next(from connection: LoopbackSocket) -> HTTPRequest? {
        var headEnd: Range<Int>?
        while true {
            headEnd = buffer.firstRange(of: Self.endOfHead)
            if headEnd != nil { break }
            let bytes = connection.receive()
            if bytes.isEmpty { return nil }
            buffer += bytes
        }
        guard let headEnd else { return nil }
        let head = String(decoding: buffer[..<headEnd.lowerBound], as: UTF8.self)
        var lines = head.components(separatedBy: "\r\n")
        let requestLine = lines.removeFirst()
        var headers: [String: String] = [:]
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
            headers[name] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        buffer.removeSubrange(..<headEnd.upperBound)
        let length = headers["content-length"].flatMap { Int($0) } ?? 0
        if headers["expect"]?.lowercased() == "100-continue", buffer.count < length {
            guard connection.sendAll("HTTP/1.1 100 Continue\r\n\r\n") else { return nil }
        }
        while buffer.count < length {
            let bytes = connection.receive()
            if bytes.isEmpty { return nil }
            buffer += bytes
        }
        let body = Array(buffer.prefix(length))
        buffer.removeFirst(length)
        return HTTPRequest(requestLine: requestLine, headers: headers, body: body)
    }
}
