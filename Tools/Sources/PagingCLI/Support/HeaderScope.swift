import AsyncHTTPClient
import Foundation
import PagingGraphQLClient
import PagingHTTPClient
import ToolsLock

/// Keeps the `--header` fields to the origin a command was pointed at, as curl and gh do with
/// credentials: a request to another origin (a redirect there, or for `fetch` a next page a
/// `Link` header or a body field names on another host) goes without any of them, unless the
/// command's override (`fetch --send-headers-to-any-host`) says they may go anywhere. The first
/// request withheld from each origin is told once, naming the origin and the fields, never
/// their values.
///
/// Redirects: every command that sends the fields (`fetch`, `browse`, `schema`) sends them
/// through a transport made by ``makeTransport(idleTimeout:maximumConnectionsPerHost:)``, which
/// asks ``permits(_:)`` about each redirect.
final class HeaderScope: Sendable {
    /// The header fields given with `--header`.
    let fields: [String: String]
    /// The URL the command was pointed at.
    let start: URL
    /// The origin the command was pointed at; `nil` only for a start URL without one.
    let origin: HTTPOrigin?
    /// Whether the fields go to every origin (`--send-headers-to-any-host`).
    let sendsToAnyHost: Bool
    /// The option that sends the fields to every origin, suggested in the notice; `nil` for a
    /// command that has none.
    let anyHostOption: String?
    private let notice: @Sendable (String) -> Void
    private let withheld = Locked<Set<String>>([])

    /// Creates a scope.
    /// - Parameters:
    ///   - start: the URL the command is pointed at (the GraphQL endpoint, or the REST list's
    ///     first page): its origin is the one that gets the fields.
    ///   - fields: the header fields given with `--header`.
    ///   - sendsToAnyHost: whether they go to every origin.
    ///   - anyHostOption: the option that makes them go to every origin, named in the notice;
    ///     `nil` when the command has none.
    ///   - notice: told, once per origin, that the fields were not sent there.
    init(
        start: URL, fields: [String: String], sendsToAnyHost: Bool = false, anyHostOption: String? = nil,
        notice: @escaping @Sendable (String) -> Void = { _ in }
    ) {
        self.fields = fields
        self.start = start
        self.origin = HTTPOrigin(start)
        self.sendsToAnyHost = sendsToAnyHost
        self.anyHostOption = anyHostOption
        self.notice = notice
    }

    /// Whether the fields go with a request to a URL: when it is on the command's origin, or
    /// every origin is allowed. The first time they do not go to an origin, ``notice`` hears why.
    /// - Complexity: O(1), plus the notice.
    func permits(_ url: URL) -> Bool {
        guard !fields.isEmpty, !sendsToAnyHost else { return true }
        let target = HTTPOrigin(url)
        if let target, target == origin { return true }
        let name = target?.description ?? url.absoluteString
        let first = withheld.withLock { $0.insert(name).inserted }
        if first {
            let names = fields.keys.sorted().joined(separator: ", ")
            let only = origin.map { " (they go only to \($0))" } ?? ""
            let override = anyHostOption.map { "; pass \($0) to send them there too" } ?? ""
            notice("paging: the --header fields (\(names)) are not sent to \(name)\(only)\(override).")
        }
        return false
    }

    /// The fields for a request to a URL: all of them when ``permits(_:)``, none otherwise.
    func fields(for url: URL) -> [String: String] {
        permits(url) ? fields : [:]
    }

    /// A transport whose redirects keep the fields to the origins the scope permits: a redirect
    /// that ``permits(_:)`` refuses goes on without them (see ``HTTPClientTransport``). It keeps
    /// no cookies or cache; its connections close when its last reference goes. Its requests go
    /// through the proxy the environment names for the start URL (see
    /// ``HTTPClientTransport/proxy(for:environment:)``).
    /// - Parameters:
    ///   - idleTimeout: how long a request waits for its next byte (the command's `--timeout`).
    ///   - maximumConnectionsPerHost: how many connections to one host are open at once.
    /// - Throws: `CLIError.usage` when the environment names a proxy the transport cannot use.
    func makeTransport(idleTimeout: Duration, maximumConnectionsPerHost: Int = 8) throws(CLIError)
        -> HTTPClientTransport
    {
        let proxy: HTTPClient.Configuration.Proxy?
        do {
            proxy = try HTTPClientTransport.proxy(
                for: start, environment: ProcessInfo.processInfo.environment)
        } catch {
            throw CLIError.usage(error.description)
        }
        return HTTPClientTransport(
            idleTimeout: idleTimeout, maximumConnectionsPerHost: maximumConnectionsPerHost, proxy: proxy,
            userAgent: HTTPClientTransport.commandLineUserAgent, permits: { [self] url in permits(url) })
    }
}

extension HTTPClientTransport {
    /// The `User-Agent` of the commands' requests that do not set their own.
    static let commandLineUserAgent = "paging"
}
