/// The introspection query that `paging schema` sends, and that the
/// generator runs against a schema given as SDL: everything the generator
/// and the SDL printer need, type references seven lists or non-nulls deep.
///
/// ``full`` asks for what the October 2021 spec added (`isRepeatable` of a
/// directive, `specifiedByURL` of a scalar); ``compatible`` leaves them out
/// for servers that predate it, which refuse the whole query over an
/// unknown field.
public enum IntrospectionQuery {
    /// The query, with the fields of the October 2021 spec.
    public static let full = text(modern: true)

    /// The query without `isRepeatable` and `specifiedByURL`, for servers
    /// that do not know them.
    public static let compatible = text(modern: false)

    private static func text(modern: Bool) -> String {
        let repeatable = modern ? " isRepeatable" : ""
        let specifiedBy = modern ? " specifiedByURL" : ""
        // Seven levels of ofType: [[Int!]!]! needs six.
        var reference = "kind name"
        for _ in 0..<7 { reference = "kind name ofType { \(reference) }" }
        return """
            query PagingIntrospection {
              __schema {
                description
                queryType { name }
                mutationType { name }
                subscriptionType { name }
                types { ...PagingType }
                directives { name description locations\(repeatable) args { ...PagingInput } }
              }
            }
            fragment PagingType on __Type {
              kind name description\(specifiedBy)
              fields(includeDeprecated: true) {
                name description args { ...PagingInput } type { ...PagingTypeReference }
                isDeprecated deprecationReason
              }
              inputFields { ...PagingInput }
              interfaces { ...PagingTypeReference }
              enumValues(includeDeprecated: true) { name description isDeprecated deprecationReason }
              possibleTypes { ...PagingTypeReference }
            }
            fragment PagingInput on __InputValue {
              name description type { ...PagingTypeReference } defaultValue
            }
            fragment PagingTypeReference on __Type { \(reference) }
            """
    }
}
