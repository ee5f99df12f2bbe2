/// A value of the GraphQL `ID` scalar: text on the wire; integer literals are accepted as input.
struct GraphID: Codable, Hashable, Sendable, CustomStringConvertible {
    /// The id as text.
    let rawValue: String

    init(_ rawValue: String) {
        self.rawValue = rawValue
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let text = try? container.decode(String.self) {
            rawValue = text
        } else {
            rawValue = String(try container.decode(Int.self))
        }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    var description: String { rawValue }

    /// The launch number this id names, if it is one: digits only, no sign, no spaces.
    var launchNumber: Int64? {
        guard !rawValue.isEmpty,
            rawValue.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") })
        else {
            return nil
        }
        return Int64(rawValue)
    }
}
