import Foundation

/// A way a ``HostileServer`` misbehaves in answer to one request.
enum HostileFault: Sendable, Hashable, CustomStringConvertible {
    /// The status line, the headers (with the true `Content-Length`) and half of the body, then
    /// a reset (`SO_LINGER` 0): the client sees the connection torn down mid-body.
    case resetMidBody
    /// A 200 whose body, `Content-Length` and all, is the start of a JSON response cut off:
    /// `{"data":{"launches":{"edges":[`.
    case truncatedJSON
    /// The request is read and never answered; the connection stays open until the client gives
    /// up on it.
    case stall
    /// The request is read and the connection closed at once, without a byte of answer: what a
    /// server (or a load balancer) does to a kept-alive connection it has dropped, the launch
    /// server's `droppedConnection` fault.
    case closedUnanswered
    /// HTTP 429 with `Retry-After` (in seconds) and a JSON body that is not a GraphQL response.
    case tooManyRequests(retryAfterSeconds: Int)
    /// A 5xx with a body that is not a GraphQL response, such as a proxy's HTML error page.
    case serverError(status: Int, contentType: String, body: String)
    /// A 200 `application/json` page, well formed but for one byte that is not UTF-8 inside a
    /// node's name.
    case invalidUTF8
    /// A 200 that announces a body of 1 GiB and writes it lazily (the start of a JSON response,
    /// then spaces) for as long as the client reads, up to ``endlessBodyCap``; then a reset.
    /// After the head it waits up to ten seconds for the client to hang up first.
    case endlessBody
    /// A 200 `text/html` with a body that is not a GraphQL response (an HTML page, or a JSON
    /// object of another API).
    case wrongContentType(body: String)

    /// What the body of ``endlessBody`` announces: 1 GiB.
    static let endlessBodyAnnouncedLength = 1 << 30
    /// How much of ``endlessBody``'s body the server writes at most before it resets the
    /// connection: 64 MiB, far beyond any GraphQL page and far beyond what the kernel's socket
    /// buffers on loopback hold (a few MiB), so that a client that got this far read it.
    static let endlessBodyCap = 64 << 20

    /// An HTML page of the kind a captive portal or a misrouted proxy serves.
    static let htmlPage = """
        <!DOCTYPE html>
        <html><head><title>Sign in to the network</title></head>
        <body><h1>Sign in</h1><form method="post" action="/login"><input name="user"></form></body></html>
        """

    /// The fault's name, for test output.
    var description: String {
        switch self {
        case .resetMidBody: "connection reset mid-body"
        case .truncatedJSON: "truncated JSON"
        case .stall: "a stall"
        case .closedUnanswered: "the connection closed unanswered"
        case .tooManyRequests(let seconds): "HTTP 429 with Retry-After: \(seconds)"
        case .serverError(let status, let contentType, _): "HTTP \(status) (\(contentType))"
        case .invalidUTF8: "invalid UTF-8 in the body"
        case .endlessBody: "a 1 GiB body"
        case .wrongContentType(let body):
            body.hasPrefix("{") ? "text/html with a JSON body" : "text/html with an HTML page"
        }
    }

    /// How a connection goes on after a fault.
    enum Ending: Sendable, Hashable {
        /// It serves the next request.
        case keepAlive
        /// The server closes it gracefully.
        case close
        /// The server resets it.
        case reset
    }

    /// What answering with a fault did.
    struct Outcome: Sendable, Hashable {
        /// How the connection goes on.
        var ending: Ending
        /// The body bytes written (for ``HostileFault/endlessBody``: before the client stopped
        /// reading or the cap was reached).
        var bodyBytesSent = 0
        /// Whether the client closed or reset the connection while the server was still writing.
        var clientHungUp = false
    }

    /// Answers a request with the fault.
    /// - Parameters:
    ///   - socket: the connection.
    ///   - goodBody: the body of the answer the server would have given.
    /// - Returns: what it did, and how the connection goes on.
    func answer(on socket: LoopbackSocket, goodBody: Data) -> Outcome {
        switch self {
        case .resetMidBody:
            let head = Self.head(status: 200, contentType: "application/json", length: goodBody.count)
            let half = goodBody.prefix(goodBody.count / 2)
            let sent = socket.sendAll(Array(head.utf8) + half)
            return Outcome(ending: .reset, bodyBytesSent: sent ? half.count : 0, clientHungUp: !sent)
        case .truncatedJSON:
            return Self.send(
                status: 200, contentType: "application/json", body: #"{"data":{"launches":{"edges":["#,
                on: socket)
        case .stall:
            // Never answer: wait until the client hangs up (or the server stops).
            while !socket.receive().isEmpty {}
            return Outcome(ending: .close, clientHungUp: true)
        case .closedUnanswered:
            return Outcome(ending: .close)
        case .tooManyRequests(let seconds):
            return Self.send(
                status: 429, contentType: "application/json",
                body: #"{"message":"API rate limit exceeded; retry later"}"#,
                extraHeaders: ["Retry-After: \(seconds)"], on: socket)
        case .serverError(let status, let contentType, let body):
            return Self.send(status: status, contentType: contentType, body: body, on: socket)
        case .invalidUTF8:
            var body = [UInt8](goodBody)
            // "Item 1…" becomes "It\u{FF}em 1…": 0xFF is never part of UTF-8.
            if let range = body.firstRange(of: Array(#""name":"It"#.utf8)) {
                body.insert(0xFF, at: range.upperBound)
            }
            return Self.send(status: 200, contentType: "application/json", body: body, on: socket)
        case .endlessBody:
            return Self.sendEndlessBody(on: socket)
        case .wrongContentType(let body):
            return Self.send(status: 200, contentType: "text/html; charset=utf-8", body: body, on: socket)
        }
    }

    /// The status line and headers of a response.
    /// - Parameters:
    ///   - status: the status code.
    ///   - contentType: the `Content-Type`.
    ///   - length: the `Content-Length`.
    ///   - extraHeaders: more header lines, `Name: value`.
    /// - Returns: the head, ending with the empty line.
    static func head(status: Int, contentType: String, length: Int, extraHeaders: [String] = []) -> String {
        let lines =
            [
                "HTTP/1.1 \(status) \(reasonPhrase(status))", "Content-Type: \(contentType)",
                "Content-Length: \(length)",
            ]
            + extraHeaders
        return lines.joined(separator: "\r\n") + "\r\n\r\n"
    }

    private static func reasonPhrase(_ status: Int) -> String {
        switch status {
        case 200: "OK"
        case 429: "Too Many Requests"
        case 500: "Internal Server Error"
        case 502: "Bad Gateway"
        case 503: "Service Unavailable"
        default: "Status \(status)"
        }
    }

    private static func send(
        status: Int, contentType: String, body: String, extraHeaders: [String] = [], on socket: LoopbackSocket
    ) -> Outcome {
        send(
            status: status, contentType: contentType, body: Array(body.utf8), extraHeaders: extraHeaders,
            on: socket)
    }

    private static func send(
        status: Int, contentType: String, body: [UInt8], extraHeaders: [String] = [],
        on socket: LoopbackSocket
    ) -> Outcome {
        let head = head(
            status: status, contentType: contentType, length: body.count, extraHeaders: extraHeaders)
        let sent = socket.sendAll(Array(head.utf8) + body)
        return Outcome(
            ending: sent ? .keepAlive : .close, bodyBytesSent: sent ? body.count : 0, clientHungUp: !sent)
    }

    private static func sendEndlessBody(on socket: LoopbackSocket) -> Outcome {
        let head = head(status: 200, contentType: "application/json", length: endlessBodyAnnouncedLength)
        let opening = Array(#"{"data":{"items":{"edges":["#.utf8)
        guard socket.sendAll(Array(head.utf8) + opening) else {
            return Outcome(ending: .close, clientHungUp: true)
        }
        // A client that refuses the announced length hangs up now. Waiting for that (ten seconds
        // at most) before writing on makes the test tell it from one that reads on: while bytes
        // flow, FoundationNetworking's cancellation can land after the whole body was read.
        if socket.hangsUp(within: .seconds(10)) {
            return Outcome(ending: .close, bodyBytesSent: opening.count, clientHungUp: true)
        }
        // Whitespace: valid JSON between tokens, so no reader can reject the body before its end.
        let chunk = [UInt8](repeating: UInt8(ascii: " "), count: 64 << 10)
        var sent = opening.count
        while sent < endlessBodyCap {
            guard socket.sendAll(chunk) else {
                return Outcome(ending: .close, bodyBytesSent: sent, clientHungUp: true)
            }
            sent += chunk.count
        }
        return Outcome(ending: .reset, bodyBytesSent: sent, clientHungUp: false)
    }
}
