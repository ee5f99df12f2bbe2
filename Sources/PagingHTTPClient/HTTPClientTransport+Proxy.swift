public import AsyncHTTPClient
public import Foundation

extension HTTPClientTransport {
    /// The proxy for requests to `url` that the environment names, as curl reads it: `https_proxy`
    /// (or `HTTPS_PROXY`) for an `https` URL, `http_proxy` for an `http` one (not `HTTP_PROXY`,
    /// which a CGI request can set), `all_proxy` (or `ALL_PROXY`) for either; `nil` when none is
    /// set, or when `no_proxy` (or `NO_PROXY`) names the URL's host, one of its parent domains
    /// (`example.com` and `.example.com` cover `api.example.com`), or is `*`.
    ///
    /// The proxy is an HTTP one (`http://[user:password@]host[:port]`, the port 1080 unless
    /// given, as curl's) or a SOCKS5 one (`socks5://` or `socks5h://`, without credentials).
    ///
    /// Ask once, for the URL a program starts from, and give the proxy to
    /// ``init(idleTimeout:maximumResponseSize:maximumRedirects:maximumConnectionsPerHost:proxy:userAgent:permits:)``:
    /// its requests to other hosts (a redirect, a next page elsewhere) go through the same proxy,
    /// or none.
    ///
    /// ```swift
    /// let proxy = try HTTPClientTransport.proxy(for: endpoint, environment: ProcessInfo.processInfo.environment)
    /// let transport = HTTPClientTransport(proxy: proxy)
    /// ```
    /// - Parameters:
    ///   - url: the URL requests start from.
    ///   - environment: the process's environment variables.
    /// - Returns: the proxy, or `nil` for none.
    /// - Throws: ``UnusableProxy`` for a proxy of another kind, or one that cannot be read, rather
    ///   than connecting without it.
    /// - Complexity: O(*n*) in the length of `no_proxy`.
    public static func proxy(for url: URL, environment: [String: String]) throws(UnusableProxy)
        -> HTTPClient.Configuration.Proxy?
    {
        func variable(_ names: String...) -> (name: String, value: String)? {
            names.lazy.compactMap { name in environment[name].map { (name, $0) } }.first { !$0.1.isEmpty }
        }
        guard let scheme = url.scheme?.lowercased(), let host = url.host?.lowercased() else { return nil }
        let found =
            scheme == "https"
            ? variable("https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY")
            : variable("http_proxy", "all_proxy", "ALL_PROXY")
        guard let (name, named) = found else { return nil }
        let exempt = (variable("no_proxy", "NO_PROXY")?.value ?? "").split(separator: ",").map {
            $0.trimmingCharacters(in: .whitespaces).lowercased()
        }
        for entry in exempt where !entry.isEmpty {
            if entry == "*" { return nil }
            let domain = entry.hasPrefix(".") ? String(entry.dropFirst()) : entry
            if host == domain || host.hasSuffix("." + domain) { return nil }
        }
        guard let proxyURL = URL(string: named.contains("://") ? named : "http://" + named),
            let proxyHost = proxyURL.host, !proxyHost.isEmpty
        else { throw UnusableProxy(variable: name, proxy: nil) }
        let port = proxyURL.port ?? 1080
        let shown = "\(proxyURL.scheme ?? "")://\(proxyHost):\(port)"  // never the credentials
        switch proxyURL.scheme?.lowercased() {
        case "http":
            let authorization = proxyURL.user(percentEncoded: false).map { user in
                HTTPClient.Authorization.basic(
                    username: user, password: proxyURL.password(percentEncoded: false) ?? "")
            }
            return .server(host: proxyHost, port: port, authorization: authorization)
        case "socks5", "socks5h":
            guard proxyURL.user == nil else {
                throw UnusableProxy(variable: name, proxy: shown + " with credentials")
            }
            return .socksServer(host: proxyHost, port: port)
        default: throw UnusableProxy(variable: name, proxy: shown)
        }
    }

    /// A proxy named in the environment that the transport cannot use.
    public struct UnusableProxy: Error, Equatable, CustomStringConvertible {
        /// The environment variable that names it.
        public var variable: String
        /// The proxy, without credentials; `nil` when it could not be read.
        public var proxy: String?

        /// Creates the error.
        /// - Parameters:
        ///   - variable: the environment variable that names the proxy.
        ///   - proxy: the proxy, without credentials, or `nil` when it could not be read.
        public init(variable: String, proxy: String?) {
            self.variable = variable
            self.proxy = proxy
        }

        /// What is wrong, and what to change: never the proxy's credentials.
        public var description: String {
            let what = proxy.map { "names \($0)" } ?? "is not a proxy URL"
            return
                "\(variable) \(what): the transport goes through an http:// proxy, or a socks5:// one without credentials. Change \(variable), or add the host to no_proxy."
        }
    }
}
