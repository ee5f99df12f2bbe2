extension JSONValue {
    /// The member of an object under a key; `nil` when the value is not an
    /// object or has no such member.
    ///
    /// ```swift
    /// let cursor = data["launches"]?["cursor"]?.stringValue
    /// ```
    /// - Complexity: O(1) on average.
    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members[key]
    }

    /// The element of an array at an index; `nil` when the value is not an
    /// array or the index is out of bounds.
    /// - Complexity: O(1).
    public subscript(index: Int) -> JSONValue? {
        guard case .array(let elements) = self, elements.indices.contains(index) else { return nil }
        return elements[index]
    }

    /// The value found by following a path of keys and indices; `nil` when
    /// any step of the path is missing.
    ///
    /// ```swift
    /// let site = data[path: ["launches", "launches", 0, "site"]]?.stringValue
    /// ```
    /// - Complexity: O(*n*), where *n* is the length of the path.
    public subscript(path path: [GraphQLPathSegment]) -> JSONValue? {
        var current = self
        for segment in path {
            switch segment {
            case .key(let key):
                guard let next = current[key] else { return nil }
                current = next
            case .index(let index):
                guard let next = current[index] else { return nil }
                current = next
            }
        }
        return current
    }

    /// Whether the value is `null`.
    public var isNull: Bool {
        if case .null = self { true } else { false }
    }

    /// The string, or `nil` when the value is not a string.
    public var stringValue: String? {
        if case .string(let value) = self { value } else { nil }
    }

    /// The boolean, or `nil` when the value is not a boolean.
    public var boolValue: Bool? {
        if case .bool(let value) = self { value } else { nil }
    }

    /// The integer, or `nil` when the value is not a number with an integral
    /// value that fits in `Int`.
    public var intValue: Int? {
        switch self {
        case .int(let value): value
        case .double(let value): Int(exactly: value)
        default: nil
        }
    }

    /// The number as a `Double`, whichever form it has; `nil` when the value
    /// is not a number.
    public var doubleValue: Double? {
        switch self {
        case .int(let value): Double(value)
        case .double(let value): value
        default: nil
        }
    }

    /// The elements, or `nil` when the value is not an array.
    public var arrayValue: [JSONValue]? {
        if case .array(let value) = self { value } else { nil }
    }

    /// The members, or `nil` when the value is not an object.
    public var objectValue: [String: JSONValue]? {
        if case .object(let value) = self { value } else { nil }
    }
}
