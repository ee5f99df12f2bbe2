public import Foundation

/// The origin of a URL (RFC 6454): its scheme, host and port, the unit that browsers, curl and
/// gh scope credentials to, and that `PagingGraphQL`'s `RedirectHeaderGuard` keeps header fields to.
///
/// A URL without a port has its scheme's default one, and scheme and host are compared without
/// case, so `https://API.example.com/a` and `https://api.example.com:443/b` are the same origin,
/// while `http://127.0.0.1:8080` and `http://localhost:8080` are not.
///
/// ```swift
/// HTTPOrigin(URL(string: "https://api.example.com/graphql")!)?.description
/// // "https://api.example.com"
/// ```
public struct HTTPOrigin: Hashable, Sendable, CustomStringConvertible {
    /// The scheme, lowercased: `https`.
    public let scheme: String
    /// The host, lowercased: `api.example.com`, `127.0.0.1`, `::1`.
    public let host: String
    /// The port, explicit or the scheme's default; `nil` for a scheme without a known default.
    public let port: Int?

    /// The origin of a URL; `nil` for a URL without a scheme or a host.
    /// - Parameter url: the URL.
    public init?(_ url: URL) {
        guard let scheme = url.scheme?.lowercased(), let host = url.host?.lowercased(), !host.isEmpty
        else { return nil }
        self.scheme = scheme
        self.host = host
        self.port = url.port ?? Self.defaultPorts[scheme]
    }

    private static let defaultPorts = ["http": 80, "https": 443]

    /// `https://api.example.com`, `http://localhost:8080`, `http://[::1]:8080`: the port only
    /// when it is not the scheme's default.
    public var description: String {
        let hostText = host.contains(":") ? "[\(host)]" : host
        guard let port, port != Self.defaultPorts[scheme] else { return "\(scheme)://\(hostText)" }
        return "\(scheme)://\(hostText):\(port)"
    }
}
