/// Why a ``GraphQLStore`` cannot use a document, a schema or data.
///
/// ```swift
/// do {
///     try store.write(data: ["launch": "oops"], for: operation)
/// } catch {
///     print(error)
///     // The data does not match the document at launch: the field selects
///     // subfields, so its value must be an object, a list or null, not the string "oops".
/// }
/// ```
public struct GraphQLStoreError: Error, Hashable, Sendable {
    /// The code of a ``GraphQLStoreError``: what kind of problem it is; compare with `==`.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private let name: String
        private init(_ name: String) { self.name = name }

        /// The document does not parse, names an operation or fragment it
        /// lacks, or spreads its fragments in a cycle.
        public static var document: Self { Self("document") }
        /// The data does not have the shape the document selects.
        public static var data: Self { Self("data") }
        /// The schema (SDL) does not parse or is not valid.
        public static var schema: Self { Self("schema") }
        /// The variables cannot be encoded as a JSON object.
        public static var variables: Self { Self("variables") }

        /// The name of the code, such as `data`.
        public var description: String { name }
    }

    /// What kind of problem this is, for code to branch on.
    public let code: Code
    /// The problem, as a sentence a person can act on.
    public let message: String
    /// Where in the data the problem lies, for ``Code/data``; empty otherwise.
    public let path: [GraphQLPathSegment]

    package init(_ code: Code, _ message: String, path: [GraphQLPathSegment] = []) {
        self.code = code
        self.message = message
        self.path = path
    }

    package init(document error: GraphQLDocumentError) {
        self.init(.document, error.message)
    }
}

extension GraphQLStoreError: CustomStringConvertible {
    /// The message.
    public var description: String { message }
}
