import Foundation
import PagingGraphQLCore
import PagingGraphQLStore

/// How a field's value is written to the file: as JSON, where a list is an
/// array and every other value that JSON would spell as an object or array
/// is tagged, so that reading it back is unambiguous:
///
/// - a scalar string, number, boolean or null: itself;
/// - a scalar object or array (a custom JSON scalar): `{"s": value}`;
/// - a reference: `{"r": "Launch:109"}`;
/// - an object without identity: `{"o": {"name": value, ...}}`;
/// - a list: `[value, ...]`.
enum StoreFileValue {
    /// The JSON of a value.
    /// - Complexity: O(*n*) for a value of *n* nested values.
    static func json(of value: StoreValue) -> JSONValue {
        switch value {
        case .scalar(let scalar):
            switch scalar {
            case .array, .object: return .object(["s": scalar])
            default: return scalar
            }
        case .reference(let key):
            return .object(["r": .string(key.rawValue)])
        case .object(let object):
            return .object(["o": .object(object.fields.mapValues(json(of:)))])
        case .list(let elements):
            return .array(elements.map(json(of:)))
        }
    }

    /// The bytes written for a value.
    static func data(of value: StoreValue) -> Data {
        json(of: value).jsonData(sortingKeys: false)
    }

    /// The value a JSON stands for, or `nil` when it is not one this type
    /// writes.
    /// - Complexity: O(*n*) for *n* nested values.
    static func value(of json: JSONValue) -> StoreValue? {
        switch json {
        case .array(let elements):
            var values: [StoreValue] = []
            values.reserveCapacity(elements.count)
            for element in elements {
                guard let value = value(of: element) else { return nil }
                values.append(value)
            }
            return .list(values)
        case .object(let tagged):
            guard tagged.count == 1, let (tag, body) = tagged.first else { return nil }
            switch (tag, body) {
            case ("s", .array), ("s", .object):
                return .scalar(body)
            case ("r", .string(let key)):
                return .reference(CacheKey(key))
            case ("o", .object(let fields)):
                var object: [String: StoreValue] = [:]
                for (name, field) in fields {
                    guard let value = value(of: field) else { return nil }
                    object[name] = value
                }
                return .object(StoreObject(object))
            default:
                return nil
            }
        default:
            return .scalar(json)
        }
    }

    /// The value of bytes read from the file, or `nil` when they are not a
    /// value this type writes.
    static func value(of data: Data) -> StoreValue? {
        guard let json = try? JSONValue(json: data) else { return nil }
        return value(of: json)
    }
}
