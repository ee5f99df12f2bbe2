import GraphQL

/// The launch server's check for repeated definitions, made before GraphQLSwift validates a
/// document.
///
/// GraphQLSwift (4.3) hashes an operation definition by its identity but compares two by their
/// content, and its validation keeps dictionaries keyed by operations. Two operations with equal
/// content (two `{ rockets { id } }`) break Dictionary's contract, and depending on the process's
/// hash seed it stops the process ("Duplicate keys of type 'OperationDefinition'"). One request
/// could stop `paging serve`; `FuzzRequestBody` found it (RELIABILITY.md).
///
/// Equal operations always share a name, or are all anonymous, so such a document breaks one of
/// GraphQL's rules (Operation Name Uniqueness, Lone Anonymous Operation) anyway. This check
/// reports those rules' errors, with the same messages as GraphQLSwift's validation, and the
/// server answers with them without validating further. Fragments are keyed by name where the
/// validation keeps them, so repeated fragments cannot trap; the check reports Fragment Name
/// Uniqueness too, so that a document's repeated names all get the same answer.
enum RepeatedDefinitions {
    /// The errors of a document's repeated definition names; empty when every name is unique
    /// and an anonymous operation is the only operation.
    ///
    /// - Parameter document: a parsed document.
    /// - Returns: one error for each anonymous operation beside another operation, then one for
    ///   each repeat of an operation's name, then one for each repeat of a fragment's name; each
    ///   kind in the document's order. (GraphQLSwift's validation gives the same errors, with
    ///   the kinds interleaved in the document's order.)
    /// - Complexity: O(*n*) in the number of definitions.
    static func errors(in document: Document) -> [GraphQLError] {
        let operations = document.definitions.compactMap { $0 as? OperationDefinition }
        let fragments = document.definitions.compactMap { $0 as? FragmentDefinition }
        var errors: [GraphQLError] = []
        if operations.count > 1 {
            for operation in operations where operation.name == nil {
                errors.append(
                    GraphQLError(
                        message: "This anonymous operation must be the only defined operation.",
                        nodes: [operation]))
            }
        }
        errors += repeats(of: operations.compactMap(\.name), kind: "operation")
        errors += repeats(of: fragments.map(\.name), kind: "fragment")
        return errors
    }

    /// One error for every name after the first of its value, pointing at both.
    private static func repeats(of names: [Name], kind: String) -> [GraphQLError] {
        var first: [String: Name] = [:]
        var errors: [GraphQLError] = []
        for name in names {
            if let earlier = first[name.value] {
                errors.append(
                    GraphQLError(
                        message: "There can be only one \(kind) named \"\(name.value)\".",
                        nodes: [earlier, name]))
            } else {
                first[name.value] = name
            }
        }
        return errors
    }
}
