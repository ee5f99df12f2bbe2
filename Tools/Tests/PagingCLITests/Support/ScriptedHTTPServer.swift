import Foundation
import HTTPTypes
import Hummingbird
import LaunchServer
import Logging
import NIOCore
import ServiceLifecycle
import ToolsLock

/// A request a ``ScriptedHTTPServer`` received.
struct ReceivedRequest: Sendable {
    /// `GET`, `POST`, ...
    var method: String
    /// The host and port the client asked for (the `Host` header), such as `localhost:41234`.
    var authority: String
    /// The path, such as `/items`.
    var path: String
    /// The query, without `?`; `nil` when there is none.
    var query: String?
    /// The header fields, by lowercased name.
    var headers: [String: String]
    /// The body.
    var body: Data

    /// The body's JSON `variables` member, for a GraphQL POST.
    var graphQLVariables: [String: Any] {
        let object = (try? JSONSerialization.jsonObject(with: body)) as? [String: Any]
        return object?["variables"] as? [String: Any] ?? [:]
    }
}

/// What a ``ScriptedHTTPServer`` answers.
struct CannedResponse: Sendable {
    /// The status.
    var status = 200
    /// Header fields.
    var headers: [String: String] = [:]
    /// The body.
    var body: Data
    /// Whether the head announces the body's length (`Content-Length`); without it, the body
    /// goes in chunks (`Transfer-Encoding: chunked`).
    var announcesLength = true

    /// A JSON body.
    static func json(_ text: String, status: Int = 200, headers: [String: String] = [:]) -> CannedResponse {
        var fields = headers
        fields["Content-Type"] = "application/json"
        return CannedResponse(status: status, headers: fields, body: Data(text.utf8))
    }
}

/// A real HTTP server on 127.0.0.1 that answers from a test's closure and records every request:
/// for the hostile or unusual answers the launch server never gives (errors next to data, links
/// and redirects to another origin).
final class ScriptedHTTPServer: Sendable {
    /// The port it listens on.
    let port: Int
    private let log: RequestLog

    private init(port: Int, log: RequestLog) {
        self.port = port
        self.log = log
    }

    /// `http://127.0.0.1:<port>`.
    var baseURL: URL { loopback(host: "127.0.0.1") }

    /// The server's address under another host name of the loopback interface, which a client
    /// treats as another origin: `http://localhost:<port>`.
    var otherOriginURL: URL { loopback(host: "localhost") }

    private func loopback(host: String) -> URL {
        var components = URLComponents()
        components.scheme = "http"
        components.host = host
        components.port = port
        return components.url ?? URL(fileURLWithPath: "/")
    }

    /// The requests received so far, in order.
    var requests: [ReceivedRequest] { log.requests }

    /// Runs a server for the duration of `body`.
    /// - Parameters:
    ///   - answer: what to answer a request; the server's port is given for absolute links.
    ///   - body: the test.
    static func withRunning<T>(
        answer: @escaping @Sendable (ReceivedRequest, _ port: Int) -> CannedResponse,
        _ body: (ScriptedHTTPServer) async throws -> T
    ) async throws -> T {
        let log = RequestLog()
        let boundPort = Locked(0)
        var logger = Logger(label: "ScriptedHTTPServer")
        logger.logLevel = .error
        let (listening, continuation) = AsyncStream<Int>.makeStream()
        let application = Application(
            responder: ScriptedResponder(answer: answer, log: log, port: { boundPort.withLock { $0 } }),
            configuration: ApplicationConfiguration(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { channel in
                let port = channel.localAddress?.port ?? 0
                boundPort.withLock { $0 = port }
                continuation.yield(port)
                continuation.finish()
            },
            logger: logger)
        let group = ServiceGroup(services: [application], logger: logger)
        // On the launch servers' threads, not the pool the tests share (ServerThreads).
        let running = Task(executorPreference: ServerThreads.shared) {
            defer { continuation.finish() }
            try await group.run()
        }
        var iterator = listening.makeAsyncIterator()
        guard let port = await iterator.next() else {
            _ = await running.result
            throw TestFailure("the scripted server did not start")
        }
        let server = ScriptedHTTPServer(port: port, log: log)
        do {
            let result = try await body(server)
            await group.triggerGracefulShutdown()
            _ = await running.result
            return result
        } catch {
            await group.triggerGracefulShutdown()
            _ = await running.result
            throw error
        }
    }
}

/// The requests a server received.
private final class RequestLog: Sendable {
    private let storage = Locked<[ReceivedRequest]>([])
    var requests: [ReceivedRequest] { storage.withLock { $0 } }
    func append(_ request: ReceivedRequest) { storage.withLock { $0.append(request) } }
}

private struct ScriptedResponder: HTTPResponder {
    typealias Context = BasicRequestContext

    let answer: @Sendable (ReceivedRequest, Int) -> CannedResponse
    let log: RequestLog
    let port: @Sendable () -> Int

    func respond(to request: Request, context: BasicRequestContext) async throws -> Response {
        let buffer = try await request.body.collect(upTo: 1 << 20)
        var headers: [String: String] = [:]
        for field in request.headers {
            headers[field.name.canonicalName] = field.value
        }
        let received = ReceivedRequest(
            method: request.method.rawValue, authority: request.head.authority ?? "",
            path: request.uri.path, query: request.uri.query, headers: headers,
            body: Data(buffer.readableBytesView))
        log.append(received)
        let canned = answer(received, port())
        var fields = HTTPFields()
        for (name, value) in canned.headers {
            if let name = HTTPField.Name(name) { fields[name] = value }
        }
        let status = HTTPResponse.Status(code: canned.status)
        guard canned.announcesLength else {
            let body = canned.body
            return Response(
                status: status, headers: fields,
                body: ResponseBody { writer in
                    // Two chunks, so that a reader meets the body in parts.
                    let half = body.count / 2
                    try await writer.write(ByteBuffer(bytes: body.prefix(half)))
                    try await writer.write(ByteBuffer(bytes: body.dropFirst(half)))
                    try await writer.finish(nil)
                })
        }
        fields[.contentLength] = String(canned.body.count)
        return Response(
            status: status, headers: fields, body: ResponseBody(byteBuffer: ByteBuffer(bytes: canned.body)))
    }
}
