public import Foundation

extension JSONValue: Codable {
    /// Decodes any JSON value.
    /// - Parameter decoder: the decoder to read from.
    /// - Throws: `DecodingError.dataCorrupted` when the value is not JSON
    ///   (possible only with a decoder of another format).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int.self) {
            self = .int(value)
        } else if let value = try? container.decode(Double.self) {
            self = .double(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else if let value = try? container.decode([String: JSONValue].self) {
            self = .object(value)
        } else {
            throw DecodingError.dataCorruptedError(
                in: container,
                debugDescription:
                    "The value is neither null, a boolean, a number, a string, an array nor an object."
            )
        }
    }

    /// Encodes the value as JSON.
    /// - Parameter encoder: the encoder to write to.
    /// - Throws: `EncodingError.invalidValue` for a non-finite ``double(_:)``.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .int(let value): try container.encode(value)
        case .double(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }
}

extension JSONValue {
    /// Creates the JSON value that a value encodes to.
    ///
    /// ```swift
    /// struct Variables: Encodable { var first: Int; var after: String? }
    /// let json = try JSONValue(encoding: Variables(first: 10, after: nil))
    /// // ["first": 10]
    /// ```
    /// - Parameter value: any `Encodable` value.
    /// - Throws: the `EncodingError` of the value's encoding.
    public init(encoding value: some Encodable) throws {
        let data = try JSONEncoder().encode(value)
        self = try JSONValue(json: data)
    }

    /// Creates a JSON value from JSON text.
    /// - Parameter data: UTF-8 JSON.
    /// - Throws: a `DecodingError` when the data is not JSON, naming the
    ///   byte where reading stopped.
    /// - Complexity: O(*n*) for *n* bytes, in one pass (no `Decodable`
    ///   containers), nesting at most 512 levels deep.
    public init(json data: Data) throws {
        do {
            self = try JSONReader.read(data)
        } catch {
            throw DecodingError.dataCorrupted(
                DecodingError.Context(
                    codingPath: [], debugDescription: error.description, underlyingError: error))
        }
    }

    /// The value as compact JSON text (members in no set order).
    /// - Complexity: O(*n*) for *n* bytes of text.
    var jsonData: Data { Data(JSONWriter.write(self)) }

    /// The value as compact UTF-8 JSON text, written in one pass (no
    /// `Encodable` containers): for tools that write many values, such as an
    /// export.
    /// - Parameter sortingKeys: whether object members are written in key
    ///   order, for stable text; otherwise in no set order.
    /// - Returns: the JSON text.
    /// - Complexity: O(*n*) for *n* bytes of text; O(*n* log *n*) sorted.
    public func jsonData(sortingKeys: Bool) -> Data {
        Data(JSONWriter.write(self, sortingKeys: sortingKeys))
    }

    /// Decodes the value into a `Decodable` type.
    ///
    /// ```swift
    /// struct Launch: Decodable { var id: String; var site: String? }
    /// let launch = try response.data?[path: ["launch"]]?.decode(Launch.self)
    /// ```
    /// - Parameters:
    ///   - type: the type to decode.
    ///   - decoder: the decoder to use, for its strategies (dates, keys).
    /// - Returns: the decoded value.
    /// - Throws: the `DecodingError` of the type's decoding, whose coding path
    ///   is relative to this value.
    public func decode<T: Decodable>(_ type: T.Type, using decoder: JSONDecoder = JSONDecoder()) throws -> T {
        try decoder.decode(T.self, from: jsonData)
    }

    /// The value as compact JSON text, keys sorted.
    public var jsonString: String {
        String(decoding: JSONWriter.write(self, sortingKeys: true), as: UTF8.self)
    }
}

extension JSONValue: CustomStringConvertible {
    /// The value as compact JSON text, keys sorted, for example
    /// `{"cursor":"abc","hasMore":true}`.
    public var description: String { jsonString }
}
