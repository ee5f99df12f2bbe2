import GraphQL
import PagingGraphQLClient

/// Page sizes written as literals, as documents written for other tools give them (gh's
/// `repositories(first: 100, after: $endCursor)`): kept as given.
///
/// The library's connection analysis keeps a literal count of the connection it pages
/// (`PaginationVariables.fixedFirst`), so a one-level export needs nothing of this. A nested
/// export makes queries of its own for each level, which set the count as a variable: there a
/// literal count of a field that pages by cursor (it takes `after:` or `before:` as a
/// variable) becomes a variable of the operation whose default value is the literal,
/// `$paging_first_1: Int = 100`, and the export never sends that variable: the server applies
/// the default, so every request asks for the count the document gives. `--page-size` sets the
/// count only when the document's is a variable of its own.
enum LiteralPageSize {
    /// What the variables made from literals are called: this prefix, the argument, a number.
    static let prefix = "paging_"

    /// The document with each literal `first:` and `last:` of a cursor-paged field made a
    /// variable with the literal as its default; the text as it is when there is none or it does
    /// not parse (the analysis then says what is wrong).
    /// - Complexity: O(*n*) in the length of the document.
    static func rewrite(_ text: String) -> String {
        guard let document = try? GraphQL.parse(source: text) else { return text }
        var edits: [(offset: Int, removing: Int, inserting: String)] = []
        var number = 0
        for case let operation as OperationDefinition in document.definitions {
            var added: [String] = []
            for field in SelectionWalker.fields(in: operation.selectionSet) {
                literals(of: field, number: &number, edits: &edits, added: &added)
            }
            guard !added.isEmpty, let place = variablesPlace(of: operation) else { continue }
            edits.append((place.offset, 0, place.opening + added.joined(separator: ", ") + place.closing))
        }
        // A literal in a named fragment becomes a variable of the document's operation, when it
        // has one (a fragment shared by several operations is left as it is).
        let operations = document.definitions.compactMap { $0 as? OperationDefinition }
        if operations.count == 1, let operation = operations.first {
            var added: [String] = []
            for case let fragment as FragmentDefinition in document.definitions {
                for field in SelectionWalker.fields(in: fragment.selectionSet) {
                    literals(of: field, number: &number, edits: &edits, added: &added)
                }
            }
            if !added.isEmpty, let place = variablesPlace(of: operation) {
                // The operation may have had its own literals: its list is closed after them.
                if let index = edits.firstIndex(where: { $0.offset == place.offset && $0.removing == 0 }) {
                    let previous = edits[index].inserting
                    let closing = previous.hasSuffix(place.closing) ? place.closing : ""
                    edits[index].inserting =
                        String(previous.dropLast(closing.count)) + ", " + added.joined(separator: ", ")
                        + closing
                } else {
                    edits.append(
                        (place.offset, 0, place.opening + added.joined(separator: ", ") + place.closing))
                }
            }
        }
        guard !edits.isEmpty else { return text }
        var bytes = Array(text.utf8)
        for edit in edits.sorted(by: { $0.offset > $1.offset }) {
            guard edit.offset >= 0, edit.offset + edit.removing <= bytes.count else { return text }
            bytes.replaceSubrange(
                edit.offset..<(edit.offset + edit.removing), with: Array(edit.inserting.utf8))
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Makes each literal `first:` and `last:` of a field that pages by cursor a variable: the
    /// edit of the literal, and the variable's definition.
    private static func literals(
        of field: Field, number: inout Int, edits: inout [(offset: Int, removing: Int, inserting: String)],
        added: inout [String]
    ) {
        let pagesByCursor = field.arguments.contains { argument in
            ["after", "before"].contains(argument.name.value) && argument.value is Variable
        }
        guard pagesByCursor else { return }
        for argument in field.arguments where ["first", "last"].contains(argument.name.value) {
            guard let literal = argument.value as? IntValue, let location = argument.value.loc else {
                continue
            }
            number += 1
            let name = "\(prefix)\(argument.name.value)_\(number)"
            let token = location.startToken  // an integer is one token
            edits.append((token.start, token.end - token.start, "$\(name)"))
            added.append("$\(name): Int = \(literal.value)")
        }
    }

    /// The count a document fixes for the direction it is paged in: the default of a variable
    /// that ``rewrite(_:)`` made; `nil` when the count is the user's own variable (or absent).
    /// - Parameters:
    ///   - document: the analysed document.
    ///   - backward: whether it is paged backward (`last:`) rather than forward (`first:`).
    static func fixedCount(of document: ConnectionDocument, backward: Bool) -> Int? {
        guard let name = backward ? document.variables.last : document.variables.first,
            name.hasPrefix(prefix), let parsed = try? GraphQL.parse(source: document.text)
        else { return nil }
        for case let operation as OperationDefinition in parsed.definitions {
            for definition in operation.variableDefinitions where definition.variable.name.value == name {
                if let value = definition.defaultValue as? IntValue, let count = Int(value.value) {
                    return count
                }
            }
        }
        return nil
    }

    /// Where an operation's variable definitions go, and what to write around new ones: before
    /// the parenthesis that closes them (`, `), or in new parentheses after the name or the
    /// `query` keyword, or before the selection set of a query written as a bare `{ ... }`.
    ///
    /// Found by the tokens, not by the nodes' ends, which the parser does not always set to the
    /// end of the node (a variable definition's ends where it starts).
    private static func variablesPlace(of operation: OperationDefinition)
        -> (offset: Int, opening: String, closing: String)?
    {
        guard let first = operation.loc?.startToken else { return nil }
        if first.kind == .openingBrace { return (first.start, "query(", ") ") }
        if !operation.variableDefinitions.isEmpty {
            // The parenthesis that closes the definitions (a directive's arguments on a
            // definition nest their own).
            return first.closingParenthesis.map { ($0.start, ", ", "") }
        }
        // `query Name` or `query`: right after the last of them.
        let last = first.next.flatMap { $0.kind == .name ? $0 : nil } ?? first
        return (last.end, "(", ")")
    }
}

extension Token {
    /// The parenthesis that closes the first one at or after this token, counting those nested
    /// in it; `nil` when the document ends first. O(n) in the tokens passed.
    var closingParenthesis: Token? {
        var depth = 0
        var token: Token? = self
        while let current = token, current.kind != .eof {
            if current.kind == .openingParenthesis { depth += 1 }
            if current.kind == .closingParenthesis {
                depth -= 1
                if depth == 0 { return current }
            }
            token = current.next
        }
        return nil
    }
}
