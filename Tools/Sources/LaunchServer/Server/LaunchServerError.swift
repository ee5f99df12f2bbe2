/// Why the launch server could not start or serve.
///
/// ```swift
/// do {
///     let server = try await LaunchServer.start()
/// } catch let error as LaunchServerError {
///     print(error)  // "The launch server could not bind to 127.0.0.1:80: …"
/// }
/// ```
public struct LaunchServerError: Error, Hashable, CustomStringConvertible {
    private enum Kind: Hashable {
        case datasetUnreadable(String)
        case database(String)
        case startFailed(String)
        case invalidConfiguration(String)
    }

    private let kind: Kind

    private init(_ kind: Kind) {
        self.kind = kind
    }

    /// The bundled dataset could not be read.
    static func datasetUnreadable(_ detail: String) -> Self { Self(.datasetUnreadable(detail)) }
    /// SQLite failed, or a database file is not a launch database.
    static func database(_ detail: String) -> Self { Self(.database(detail)) }
    /// The HTTP server did not start.
    static func startFailed(_ detail: String) -> Self { Self(.startFailed(detail)) }
    /// A configuration value is out of range.
    static func invalidConfiguration(_ detail: String) -> Self { Self(.invalidConfiguration(detail)) }

    /// A message a person can act on.
    public var description: String {
        switch kind {
        case .datasetUnreadable(let detail):
            "The launch dataset could not be read: \(detail). Rebuild the package so its resources are bundled."
        case .database(let detail):
            "The launch database failed: \(detail)."
        case .startFailed(let detail):
            "The launch server could not start: \(detail). Check that the host and port are free and allowed."
        case .invalidConfiguration(let detail):
            "The launch server configuration is not valid: \(detail)."
        }
    }
}
