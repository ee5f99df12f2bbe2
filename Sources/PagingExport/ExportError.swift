public import Foundation

/// Why an export could not go on, with what a person needs to fix it.
///
/// ``code`` tells the kind of failure to code (a command line adds the name
/// of its own option to the message); ``description`` says it in a sentence.
public struct ExportError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kinds of failure.
    public enum Code: Sendable, Hashable {
        /// A cursor given to resume from is not one the source printed.
        case malformedCursor
        /// A page answered an HTTP status that is not a success.
        case httpStatus(Int)
        /// A page's body is not JSON.
        case notJSON
        /// A page's JSON holds no list of items where the source looks.
        case noItems
        /// The field that names the next page holds something else than a
        /// URL or a token.
        case malformedNextPage
        /// The server answered a page with a cursor the export already
        /// followed for that connection (the outer one, or an inner one of a
        /// node): following it again would loop forever.
        case repeatedCursor
        /// The page could not be written.
        case writeFailed
        /// The settings cannot be used (a page size out of range).
        case invalidSettings
        /// The output file cannot be created, opened or read.
        case outputUnusable
        /// The output file holds the other format than the one a resumed
        /// export continues (an array where lines would be appended, or
        /// something else than an array where one would be continued).
        case outputInOtherFormat
        /// A GraphQL query cannot be exported: it does not parse, marks no
        /// connection the export can page, or its connection does not take
        /// the arguments to page in the direction asked.
        case unpageableQuery
        /// The query cannot be exported in the layout asked for (flattened
        /// without a single chain of connections inside connections), or
        /// with partial data accepted (connections inside connections), or
        /// the cursor to resume from was left by an export in the other layout.
        case unsupportedLayout
        /// A page lacks what paging on needs: the server says there is a next
        /// page but gives no cursor for it, or a node that holds a connection
        /// to page comes without its id or with a type name that is not one.
        case malformedPage
        /// A page of a connection inside another came with GraphQL errors
        /// next to its data (the outer pages report ``PartialDataError``).
        case innerPageErrors
    }

    /// The kind of failure.
    public let code: Code
    /// What went wrong, in a sentence or two.
    public let message: String
    /// The URL of the page concerned, when there is one.
    public let url: URL?

    /// Creates an error.
    /// - Parameters:
    ///   - code: the kind of failure.
    ///   - message: what went wrong.
    ///   - url: the URL of the page concerned.
    public init(_ code: Code, _ message: String, url: URL? = nil) {
        self.code = code
        self.message = message
        self.url = url
    }

    /// The message.
    public var description: String { message }

    /// An error in a message: an export error's message, a file system error
    /// as the system says it, any other as it describes itself.
    static func describe(_ error: any Error) -> String {
        if let error = error as? ExportError { return error.message }
        let system = error as NSError
        if system.domain == NSPOSIXErrorDomain || system.domain == NSCocoaErrorDomain {
            return system.localizedDescription
        }
        return String(describing: error)
    }
}
