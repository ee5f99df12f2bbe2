import HTTPTypes

/// A request the server refuses: an HTTP status and a message for the JSON body
/// `{"error": "<message>"}` (the shape Firebase's REST API uses too).
struct HTTPProblem: Error, Sendable {
    /// The response status.
    let status: HTTPResponse.Status
    /// What was wrong and how to fix it.
    let message: String
    /// Extra response headers, such as `Allow` for a 405.
    var headers: HTTPFields = [:]

    /// A 400 Bad Request.
    static func badRequest(_ message: String) -> Self {
        Self(status: .badRequest, message: message)
    }
}
