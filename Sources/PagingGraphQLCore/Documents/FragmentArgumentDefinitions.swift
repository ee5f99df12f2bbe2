package import GraphQL

/// The variables a Relay fragment declares with `@argumentDefinitions`
/// (`count: {type: "Int", defaultValue: 10}`): read by the pagination
/// fragment's document at run time and by the generator.
package enum FragmentArgumentDefinitions {
    /// The fragment's argument definitions: each variable's name, GraphQL
    /// type and default value as GraphQL text.
    /// - Throws: ``GraphQLDocumentError`` with code `refetchable` when the
    ///   fragment has no `@argumentDefinitions`, or an argument has no type
    ///   or one that is not a GraphQL type; the message gives its place.
    package static func parse(_ fragment: FragmentDefinition) throws(GraphQLDocumentError)
        -> [(name: String, type: String, defaultValue: String?)]
    {
        let name = fragment.name.value
        let place = DocumentAnalysis.place(of: fragment)
        guard let directive = fragment.directives.first(where: { $0.name.value == "argumentDefinitions" })
        else {
            throw GraphQLDocumentError(
                .refetchable,
                "The fragment \"\(name)\"\(DocumentAnalysis.placeText(place)) has no @argumentDefinitions; declare its paging variables, "
                    + "for example @argumentDefinitions(count: {type: \"Int\", defaultValue: 10}, cursor: {type: \"String\"}).",
                line: place?.line,
                column: place?.column
            )
        }
        var definitions: [(name: String, type: String, defaultValue: String?)] = []
        for argument in directive.arguments {
            let argumentName = argument.name.value
            let fields = (argument.value as? ObjectValue)?.fields ?? []
            guard let type = (fields.first { $0.name.value == "type" }?.value as? StringValue)?.value else {
                throw GraphQLDocumentError(
                    .refetchable,
                    "The argument \"\(argumentName)\" of @argumentDefinitions on fragment \"\(name)\" has no type; "
                        + "write \(argumentName): {type: \"Int\"} (or the argument's GraphQL type).",
                    line: place?.line,
                    column: place?.column
                )
            }
            do {
                _ = try LexableText.parse("query($x: \(type)) { __typename }")
            } catch {
                throw GraphQLDocumentError(
                    .refetchable,
                    "The argument \"\(argumentName)\" of @argumentDefinitions on fragment \"\(name)\" has the type \"\(type)\", "
                        + "which is not a GraphQL type such as Int, String! or [ID!].",
                    line: place?.line,
                    column: place?.column
                )
            }
            let defaultValue = fields.first { $0.name.value == "defaultValue" }.map {
                GraphQL.print(ast: $0.value)
            }
            definitions.append((argumentName, type, defaultValue))
        }
        return definitions
    }

}
