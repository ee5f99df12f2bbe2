/// A problem the generator found in its input: a schema or document it
/// cannot read or that is not valid, with the file and the place in it.
///
/// Its ``description`` is the form compilers print and editors link to:
/// `Queries/LaunchList.graphql:3:5: error: Cannot query field "nme" on type "Launch".`
///
/// ```swift
/// do {
///     let schema = try CodegenSchema(contentsOf: "schema.graphqls")
/// } catch {
///     print(error)  // schema.graphqls:12:3: error: Syntax Error: Expected Name, found "}".
/// }
/// ```
public struct CodegenError: Error, Hashable, Sendable {
    /// The code of a ``CodegenError``: what kind of problem it is; compare
    /// with `==`.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private let name: String
        private init(_ name: String) { self.name = name }

        /// A file cannot be read: it is missing, or not readable, or not
        /// UTF-8 text.
        public static var unreadable: Self { Self("unreadable") }
        /// The schema is neither valid SDL nor an introspection result, or
        /// does not make a valid schema.
        public static var invalidSchema: Self { Self("invalidSchema") }

        /// A document does not parse, or is not valid against the schema.
        public static var invalidDocument: Self { Self("invalidDocument") }
        /// Two operations, or two fragments, have one name.
        public static var duplicateName: Self { Self("duplicateName") }
        /// The configuration file is not JSON, or names a type the schema
        /// does not have as a custom scalar.
        public static var invalidConfiguration: Self { Self("invalidConfiguration") }
        /// A document uses something the generator does not turn into
        /// Swift yet; the message says what.
        public static var unsupported: Self { Self("unsupported") }

        /// The name of the code, such as `invalidSchema`.
        public var description: String { name }
    }

    /// What kind of problem this is, for code to branch on.
    public let code: Code
    /// The file the problem is in, as it was named to the generator.
    public let file: String
    /// The line of the problem, from 1, when it has one.
    public let line: Int?
    /// The column of the problem, from 1, when it has one.
    public let column: Int?
    /// The problem, as a sentence a person can act on.
    public let message: String

    init(_ code: Code, file: String, line: Int? = nil, column: Int? = nil, _ message: String) {
        self.code = code
        self.file = file
        self.line = line
        self.column = column
        self.message = message
    }
}

extension CodegenError: CustomStringConvertible {
    /// `file:line:column: error: message`, the line and column left out
    /// when the problem has none.
    public var description: String {
        let place = [line, column].compactMap { $0 }.map { ":\($0)" }.joined()
        return "\(file)\(place): error: \(message)"
    }
}
