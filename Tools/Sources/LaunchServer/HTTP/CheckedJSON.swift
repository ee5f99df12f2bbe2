import Foundation

/// Decodes JSON that a client sent (a request body, a query parameter).
///
/// Foundation's `JSONDecoder` traps, ending the process, on some text that is not JSON (513
/// unclosed brackets: one request would stop the server). `JSONSerialization` reads such text
/// to an error, so the text goes to the decoder only once it has read it as JSON; JSON nested
/// too deeply is then refused with an error.
enum CheckedJSON {
    /// The value of `data`, or an error when it is not JSON or does not decode as `type`.
    ///
    /// - Parameters:
    ///   - type: The type to decode.
    ///   - data: The text, UTF-8.
    /// - Returns: The decoded value.
    /// - Throws: `DecodingError.dataCorrupted` when the text is not JSON; the decoder's errors.
    /// - Complexity: O(*n*) for *n* bytes, read twice.
    static func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
        guard (try? JSONSerialization.jsonObject(with: data, options: .fragmentsAllowed)) != nil else {
            throw DecodingError.dataCorrupted(
                DecodingError.Context(codingPath: [], debugDescription: "The given data was not valid JSON."))
        }
        return try JSONDecoder().decode(type, from: data)
    }
}
