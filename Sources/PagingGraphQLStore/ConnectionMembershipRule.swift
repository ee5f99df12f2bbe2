/// Which records belong in the lists of a connection, and in what order: a
/// filter over a record's fields and a sort order, declared once for a
/// connection, so that a record the store writes (from a mutation, a
/// subscription or another query) lands in every held list it belongs in,
/// at its place, and leaves those it no longer belongs in, with no refetch.
///
/// A list of the connection (a `ConnectionSource` whose `@connection` key,
/// or field name without a key, is ``connection``) follows the rule when
/// every filter argument it is sent with (every argument of the connection
/// field but `first`, `after`, `last` and `before`, with its variables'
/// values; a `null` one counts as absent) is one the rule covers: named in
/// ``arguments``, or read by the ``filter``. An argument the rule does not
/// cover filters in a way it cannot tell (a search, say), so such a list
/// follows no rule and behaves as a list without one. Of several rules that
/// apply, the one that names the most ``arguments`` is used; between equals,
/// the first declared.
///
/// When the store writes a record of type ``typename``, every list that
/// follows a rule, once the rule's fields are in the store:
/// - inserts the record's node when it matches and is not held, at its
///   place in the ``order``, if that place is within the items held: before
///   the first only when the list's start is reached, after the last only
///   when its end is reached (a later page brings it otherwise, once);
/// - removes its item when it no longer matches;
/// - moves its item when its sort fields changed its place: to the new
///   place, or out of the list when that place is beyond what is held.
///
/// Each is one edit of one batch (`Pager.apply(_:)`), one snapshot for the
/// change: a move is one removal and one insertion in the same change. A
/// record whose rule fields the store does not hold is left alone. While
/// the list refreshes, nothing is inserted (the refresh's pages are the
/// server's word, and replace rule-inserted items); a page that brings a
/// rule-inserted item again shows it once (repeats are dropped by id).
///
/// ```swift
/// var configuration = GraphQLStore.Configuration()
/// configuration.membershipRules = [
///     ConnectionMembershipRule(
///         connection: "launchConnection", typename: "Launch",
///         arguments: ["orderBy": .null],
///         filter: .field("isBooked", equalsArgument: "booked"),
///         order: [.descending("launchDate"), .descending("id", comparison: .numericText)])
/// ]
/// ```
public struct ConnectionMembershipRule: Sendable {
    /// The connection's key: the `@connection(key:)` of its lists'
    /// documents, or the connection field's name when they have none.
    public let connection: String
    /// The type of the records the rule places: the node's `__typename`.
    public let typename: String
    /// The argument values a list must be sent with for the rule to apply:
    /// `.null` for an argument left out or `null` (a default order, say).
    public let arguments: [String: JSONValue]
    /// Which records belong in a list, given its arguments.
    public let filter: MembershipFilter
    /// The order of a list's items, most significant first; it should end
    /// with a key that tells every two records apart (an id), as the
    /// server's order does. Empty when the order is unknown: records that
    /// stop matching are then removed, and none are inserted or moved.
    public let order: [MembershipSortKey]

    /// Creates a rule.
    /// - Parameters:
    ///   - connection: the connection's key, or its field's name.
    ///   - typename: the type of the records it places.
    ///   - arguments: the argument values a list must be sent with for the
    ///     rule to apply; `.null` for an argument absent or `null`.
    ///   - filter: which records belong in a list; every record of the type
    ///     by default.
    ///   - order: the order of a list's items, most significant first.
    public init(
        connection: String, typename: String, arguments: [String: JSONValue] = [:],
        filter: MembershipFilter = .all, order: [MembershipSortKey]
    ) {
        self.connection = connection
        self.typename = typename
        self.arguments = arguments
        self.filter = filter
        self.order = order
    }

    /// Whether the rule applies to a list of its connection sent with some
    /// filter arguments: the arguments it names have its values, and it
    /// covers every other argument that is not `null`.
    /// - Complexity: O(*a*) for *a* arguments.
    func applies(to listArguments: [String: JSONValue]) -> Bool {
        for (name, value) in arguments where (listArguments[name] ?? .null) != value { return false }
        let read = filter.argumentNames
        return listArguments.allSatisfy { name, value in
            value == .null || arguments[name] != nil || read.contains(name)
        }
    }

    /// The rule, of several, that applies to a list of a connection sent
    /// with some filter arguments: the one naming the most arguments, the
    /// first declared between equals; `nil` when none applies.
    /// - Parameters:
    ///   - rules: the rules.
    ///   - connections: the names the list's connection goes by.
    ///   - arguments: the list's filter arguments.
    /// - Returns: the rule, if any.
    /// - Complexity: O(*r* *a*) for *r* rules.
    package static func rule(
        among rules: [ConnectionMembershipRule], for connections: Set<String>, arguments: [String: JSONValue]
    ) -> ConnectionMembershipRule? {
        var best: ConnectionMembershipRule?
        for rule in rules where connections.contains(rule.connection) && rule.applies(to: arguments) {
            if best.map({ rule.arguments.count > $0.arguments.count }) ?? true { best = rule }
        }
        return best
    }

    /// The field paths the rule reads of a record: `__typename`, the
    /// filter's, then the order's.
    package var paths: [[String]] {
        var paths: [[String]] = [["__typename"]]
        for path in filter.paths + order.map(\.path) where !paths.contains(path) { paths.append(path) }
        return paths
    }

    /// What the rule says of a record, given the values of its ``paths``
    /// (a missing one is absent from `values`) and a list's arguments:
    /// `nil` when the record is not of the rule's type or a field the rule
    /// reads is missing, else whether it belongs in the list.
    /// - Complexity: O(*f*) for the filter's size.
    package func matches(_ values: [[String]: JSONValue], arguments listArguments: [String: JSONValue])
        -> Bool?
    {
        guard values[["__typename"]] == .string(typename) else { return nil }
        return filter.evaluate(values, arguments: listArguments)
    }

    /// The order of two records by their values: `nil` when a sort field of
    /// either is missing or the rule has no order.
    /// - Complexity: O(*k*) for *k* sort keys.
    package func areInIncreasingOrder(_ lhs: [[String]: JSONValue], _ rhs: [[String]: JSONValue]) -> Bool? {
        guard !order.isEmpty else { return nil }
        for key in order {
            guard let left = lhs[key.path], let right = rhs[key.path] else { return nil }
            let ordered = key.comparison.compare(left, right)
            if ordered == 0 { continue }
            return (ordered < 0) != key.isDescending
        }
        return false
    }
}

/// Which records belong in the lists of a connection: a predicate over a
/// record's fields and the list's filter arguments, built from comparisons
/// of fields (followed through references and nested objects, such as
/// `mission.name`) and combined with ``allOf(_:)``, ``anyOf(_:)`` and
/// ``not(_:)``.
///
/// A field the store does not hold makes the predicate undecided, and the
/// record is left alone.
public struct MembershipFilter: Sendable {
    /// A node of the predicate: a struct of plain fields, not an enum with payloads. A
    /// multi-payload enum keeps its case in the spare bits of a payload's pointer, which
    /// LeakSanitizer does not take for a pointer: a rule held in a global was reported as leaked.
    struct Node: Sendable {
        enum Kind: Sendable {
            case all, equals, equalsArgument, containsArgument, allOf, anyOf, not, custom
        }

        var kind: Kind
        var path: [String] = []
        var value: JSONValue = .null
        var argument = ""
        var children: [Node] = []
        var paths: [[String]] = []
        var arguments: Set<String> = []
        var predicate: (@Sendable (_ values: [JSONValue], _ arguments: [String: JSONValue]) -> Bool)?

        static var all: Node { Node(kind: .all) }
        static func equals(_ path: [String], _ value: JSONValue) -> Node {
            Node(kind: .equals, path: path, value: value)
        }
        static func equalsArgument(_ path: [String], _ argument: String) -> Node {
            Node(kind: .equalsArgument, path: path, argument: argument)
        }
        static func containsArgument(_ path: [String], _ argument: String) -> Node {
            Node(kind: .containsArgument, path: path, argument: argument)
        }
        static func allOf(_ children: [Node]) -> Node { Node(kind: .allOf, children: children) }
        static func anyOf(_ children: [Node]) -> Node { Node(kind: .anyOf, children: children) }
        static func not(_ children: [Node]) -> Node { Node(kind: .not, children: children) }
        static func custom(
            paths: [[String]], arguments: Set<String>,
            _ predicate: @escaping @Sendable ([JSONValue], [String: JSONValue]) -> Bool
        ) -> Node {
            Node(kind: .custom, paths: paths, arguments: arguments, predicate: predicate)
        }
    }

    let node: Node

    /// Every record of the rule's type.
    public static var all: Self { Self(node: .all) }

    /// A field (a path of field names, `"mission", "name"`) equals a value.
    /// - Parameters:
    ///   - path: the field's path from the record.
    ///   - value: the value.
    /// - Returns: the filter.
    public static func field(_ path: String..., equals value: JSONValue) -> Self {
        Self(node: .equals(path, value))
    }

    /// A field equals the list's argument of a name; every record passes
    /// when the list is sent without it or with `null` (`booked: $booked`
    /// left unset lists every launch).
    /// - Parameters:
    ///   - path: the field's path from the record.
    ///   - argument: the argument's name.
    /// - Returns: the filter.
    public static func field(_ path: String..., equalsArgument argument: String) -> Self {
        Self(node: .equalsArgument(path, argument))
    }

    /// A text field contains the list's text argument of a name, ignoring
    /// the case of ASCII letters (as SQL's `LIKE '%text%'`); every record
    /// passes when the argument is absent, `null` or empty.
    /// - Parameters:
    ///   - path: the field's path from the record.
    ///   - argument: the argument's name.
    /// - Returns: the filter.
    public static func field(_ path: String..., containsArgument argument: String) -> Self {
        Self(node: .containsArgument(path, argument))
    }

    /// Every filter passes.
    /// - Parameter filters: the filters.
    /// - Returns: the filter.
    public static func allOf(_ filters: [MembershipFilter]) -> Self {
        Self(node: .allOf(filters.map(\.node)))
    }

    /// At least one filter passes.
    /// - Parameter filters: the filters.
    /// - Returns: the filter.
    public static func anyOf(_ filters: [MembershipFilter]) -> Self {
        Self(node: .anyOf(filters.map(\.node)))
    }

    /// A filter does not pass.
    /// - Parameter filter: the filter.
    /// - Returns: the filter.
    public static func not(_ filter: MembershipFilter) -> Self { Self(node: .not([filter.node])) }

    /// A predicate of your own over some fields and the list's arguments,
    /// for what the comparisons cannot say. It is called with no lock held.
    /// - Parameters:
    ///   - paths: the fields it reads, each a path from the record.
    ///   - arguments: the list's arguments it reads: the rule covers them.
    ///   - predicate: whether a record belongs, given the fields' values in
    ///     the order of `paths` and the list's filter arguments.
    /// - Returns: the filter.
    public static func custom(
        fields paths: [[String]], arguments: Set<String> = [],
        _ predicate: @escaping @Sendable (_ values: [JSONValue], _ arguments: [String: JSONValue]) -> Bool
    ) -> Self {
        Self(node: .custom(paths: paths, arguments: arguments, predicate))
    }

    /// The field paths the filter reads.
    var paths: [[String]] {
        var paths: [[String]] = []
        func visit(_ node: Node) {
            switch node.kind {
            case .all: break
            case .equals, .equalsArgument, .containsArgument: paths.append(node.path)
            case .allOf, .anyOf, .not: node.children.forEach(visit)
            case .custom: paths += node.paths
            }
        }
        visit(node)
        return paths
    }

    /// The list arguments the filter reads.
    var argumentNames: Set<String> {
        var names: Set<String> = []
        func visit(_ node: Node) {
            switch node.kind {
            case .all, .equals: break
            case .equalsArgument, .containsArgument: names.insert(node.argument)
            case .allOf, .anyOf, .not: node.children.forEach(visit)
            case .custom: names.formUnion(node.arguments)
            }
        }
        visit(node)
        return names
    }

    /// Whether a record passes, given its fields' values by path; `nil`
    /// when a field it reads is missing.
    func evaluate(_ values: [[String]: JSONValue], arguments: [String: JSONValue]) -> Bool? {
        Self.evaluate(node, values, arguments)
    }

    private static func evaluate(
        _ node: Node, _ values: [[String]: JSONValue], _ arguments: [String: JSONValue]
    )
        -> Bool?
    {
        switch node.kind {
        case .all:
            return true
        case .equals:
            return values[node.path].map { $0 == node.value }
        case .equalsArgument:
            guard let argument = arguments[node.argument], argument != .null else { return true }
            return values[node.path].map { $0 == argument }
        case .containsArgument:
            guard case .string(let text) = arguments[node.argument], !text.isEmpty else { return true }
            guard let value = values[node.path] else { return nil }
            guard case .string(let field) = value else { return false }
            return asciiLowercased(field).contains(asciiLowercased(text))
        case .allOf:
            var undecided = false
            for child in node.children {
                switch evaluate(child, values, arguments) {
                case false?: return false
                case nil: undecided = true
                case true?: break
                }
            }
            return undecided ? nil : true
        case .anyOf:
            var undecided = false
            for child in node.children {
                switch evaluate(child, values, arguments) {
                case true?: return true
                case nil: undecided = true
                case false?: break
                }
            }
            return undecided ? nil : false
        case .not:
            guard let child = node.children.first else { return true }
            return evaluate(child, values, arguments).map { !$0 }
        case .custom:
            var read: [JSONValue] = []
            for path in node.paths {
                guard let value = values[path] else { return nil }
                read.append(value)
            }
            return node.predicate?(read, arguments) ?? true
        }
    }

    /// Lowercases ASCII letters only, as SQLite's `LIKE` compares them.
    private static func asciiLowercased(_ text: String) -> String {
        String(decoding: text.utf8.map { (65...90).contains($0) ? $0 + 32 : $0 }, as: UTF8.self)
    }
}

/// One key of a membership rule's order: a field and its direction.
public struct MembershipSortKey: Sendable, Hashable {
    /// How two values of a sort field compare.
    public enum Comparison: Sendable, Hashable {
        /// `null` first, then `false` before `true`, numbers by value,
        /// strings by their UTF-8 bytes (SQL's `BINARY` collation; ISO 8601
        /// dates of one form sort as time does).
        case natural
        /// Strings that hold integers (ids such as `"109"`) by their value;
        /// other values as ``natural``.
        case numericText
    }

    /// The field's path from the record.
    public let path: [String]
    /// Whether greater values come first.
    public let isDescending: Bool
    /// How values compare.
    public let comparison: Comparison

    /// Creates a key.
    /// - Parameters:
    ///   - path: the field's path from the record.
    ///   - isDescending: whether greater values come first.
    ///   - comparison: how values compare.
    public init(path: [String], isDescending: Bool = false, comparison: Comparison = .natural) {
        self.path = path
        self.isDescending = isDescending
        self.comparison = comparison
    }

    /// Smaller values first.
    /// - Parameters:
    ///   - path: the field's path from the record.
    ///   - comparison: how values compare.
    /// - Returns: the key.
    public static func ascending(_ path: String..., comparison: Comparison = .natural) -> Self {
        Self(path: path, comparison: comparison)
    }

    /// Greater values first.
    /// - Parameters:
    ///   - path: the field's path from the record.
    ///   - comparison: how values compare.
    /// - Returns: the key.
    public static func descending(_ path: String..., comparison: Comparison = .natural) -> Self {
        Self(path: path, isDescending: true, comparison: comparison)
    }
}

extension MembershipSortKey.Comparison {
    /// How two values compare: negative when `lhs` comes first, zero when
    /// they are equal, positive when `rhs` comes first.
    func compare(_ lhs: JSONValue, _ rhs: JSONValue) -> Int {
        if self == .numericText, case .string(let left) = lhs, case .string(let right) = rhs,
            let a = Int(left), let b = Int(right)
        {
            return a < b ? -1 : a > b ? 1 : 0
        }
        return Self.natural(lhs, rhs)
    }

    private static func rank(_ value: JSONValue) -> Int {
        switch value {
        case .null: 0
        case .bool: 1
        case .int, .double: 2
        case .string: 3
        case .array: 4
        case .object: 5
        }
    }

    private static func natural(_ lhs: JSONValue, _ rhs: JSONValue) -> Int {
        func order<T: Comparable>(_ a: T, _ b: T) -> Int {
            a < b ? -1 : a > b ? 1 : 0
        }
        switch (lhs, rhs) {
        case (.bool(let a), .bool(let b)): return order(a ? 1 : 0, b ? 1 : 0)
        case (.int(let a), .int(let b)): return order(a, b)
        case (.int(let a), .double(let b)): return order(Double(a), b)
        case (.double(let a), .int(let b)): return order(a, Double(b))
        case (.double(let a), .double(let b)): return order(a, b)
        case (.string(let a), .string(let b)):
            return a.utf8.lexicographicallyPrecedes(b.utf8)
                ? -1 : b.utf8.lexicographicallyPrecedes(a.utf8) ? 1 : 0
        default: return order(rank(lhs), rank(rhs))
        }
    }
}
