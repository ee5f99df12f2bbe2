import Hummingbird
import NIOCore

/// Reads a request body up to a size limit.
enum RequestBodyReader {
    /// Collects the whole body.
    ///
    /// - Parameters:
    ///   - request: The request.
    ///   - limit: The largest body accepted, in bytes.
    /// - Returns: The body.
    /// - Throws: ``HTTPProblem`` with status 413 when the body (or its announced length) is over
    ///   the limit; the connection's error when it fails.
    static func collect(_ request: Request, limit: Int) async throws -> ByteBuffer {
        let tooLarge = HTTPProblem(
            status: .contentTooLarge,
            message:
                "The request body is larger than this server accepts (\(limit) bytes). Send a smaller body."
        )
        if let announced = request.headers[.contentLength].flatMap({ Int($0) }), announced > limit {
            throw tooLarge
        }
        var collected = ByteBuffer()
        for try await part in request.body {
            guard collected.readableBytes + part.readableBytes <= limit else { throw tooLarge }
            var part = part
            collected.writeBuffer(&part)
        }
        return collected
    }
}
