import Foundation
import HTTPTypes
import Hummingbird

/// Builds JSON responses.
enum JSONResponse {
    /// `application/json; charset=utf-8`.
    static let contentType = "application/json; charset=utf-8"

    /// A response with an already encoded body.
    static func make(
        status: HTTPResponse.Status = .ok, data: Data, contentType: String = contentType,
        headers: HTTPFields = [:]
    )
        -> Response
    {
        var fields = headers
        fields[.contentType] = contentType
        fields[.contentLength] = String(data.count)
        return Response(
            status: status, headers: fields, body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
    }

    /// A response whose body is `value` encoded as JSON with sorted keys.
    ///
    /// - Throws: The encoder's error (a bug: every value encoded here is encodable).
    static func make(
        status: HTTPResponse.Status = .ok, encoding value: some Encodable, headers: HTTPFields = [:]
    ) throws
        -> Response
    {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return make(status: status, data: try encoder.encode(value), headers: headers)
    }

    /// The response of a refused request: `{"error": "<message>"}`.
    static func problem(_ problem: HTTPProblem) -> Response {
        let body =
            (try? JSONEncoder().encode(["error": problem.message])) ?? Data(#"{"error":"unknown"}"#.utf8)
        return make(status: problem.status, data: body, headers: problem.headers)
    }
}
