import Foundation
import PagingGraphQLClient
import ToolsLock

/// The demo's network, which the `o` key cuts and brings back: while it is off, every request
/// fails at once, as without a network, and the server goes on running.
final class NetworkSwitch: GraphQLTransport, Sendable {
    private let base: any GraphQLTransport
    private let on: Locked<Bool>

    /// The error of a request sent while the network is off.
    struct Off: Error, CustomStringConvertible {
        var description: String { "the network is off (o brings it back)" }
    }

    /// Creates a switch over a transport.
    /// - Parameters:
    ///   - base: what carries the requests while the network is on.
    ///   - on: whether it starts on.
    init(over base: any GraphQLTransport = HTTPClientTransport(idleTimeout: .seconds(15)), on: Bool) {
        self.base = base
        self.on = Locked(on)
    }

    /// Whether requests go through.
    var isOn: Bool { on.withLock { $0 } }

    /// Turns the network off when it is on, and on when it is off.
    /// - Returns: whether it is on now.
    @discardableResult
    func toggle() -> Bool {
        on.withLock { on in
            on.toggle()
            return on
        }
    }

    func send(_ request: GraphQLHTTPRequest) async throws -> GraphQLHTTPResponse {
        guard isOn else { throw Off() }
        return try await base.send(request)
    }
}
