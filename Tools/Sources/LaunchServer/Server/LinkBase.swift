import ToolsLock

/// The server's base address for absolute links, known once the port is bound.
final class LinkBase: Sendable {
    /// The configured host.
    let host: String
    private let port = Locked<Int?>(nil)

    init(host: String) {
        self.host = host
    }

    /// Records the bound port.
    func bind(port: Int) {
        self.port.withLock { $0 = port }
    }

    /// The base address, such as `http://127.0.0.1:52117`.
    var text: String {
        "http://\(Self.hostText(host)):\(port.withLock { $0 } ?? 0)"
    }

    /// The host as it appears in a URL: IPv6 addresses in brackets.
    static func hostText(_ host: String) -> String {
        host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
    }
}
