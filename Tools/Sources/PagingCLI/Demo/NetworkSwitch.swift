import Foundation
import PagingGraphQLClient
import PagingHTTPClient
import ToolsLock

/// The demo's network, which the `o` key cuts and brings back: while it is off, every request
/// fails at once, as without a network, and the server goes on running.
///
/// It also keeps what the list's title line says: the list is offline while the network is off,
/// and, once it is on, when the last request for a page of the list since then failed.
final class NetworkSwitch: GraphQLTransport, Sendable {
    private struct State {
        var on: Bool
        /// Whether the last request for a page of the list since the network came on failed.
        var listFailed = false
    }

    private let base: any GraphQLTransport
    private let state: Locked<State>

    /// The error of a request sent while the network is off.
    struct Off: Error, CustomStringConvertible {
        var description: String { "the network is off (o brings it back)" }
    }

    /// Creates a switch over a transport.
    /// - Parameters:
    ///   - base: what carries the requests while the network is on.
    ///   - on: whether it starts on.
    init(
        over base: any GraphQLTransport = HTTPClientTransport(
            idleTimeout: .seconds(15), userAgent: HTTPClientTransport.commandLineUserAgent), on: Bool
    ) {
        self.base = base
        self.state = Locked(State(on: on))
    }

    /// Whether requests go through.
    var isOn: Bool { state.withLock { $0.on } }

    /// Whether the list is offline: the network is off, or the last request for a page of the
    /// list since it came on failed.
    var isListOffline: Bool { state.withLock { !$0.on || $0.listFailed } }

    /// Notes how a request for a page of the list ended.
    /// - Parameter failed: whether it failed.
    func listRequestEnded(failed: Bool) {
        state.withLock { $0.listFailed = failed }
    }

    /// Turns the network off when it is on, and on when it is off; turned on, the list is no
    /// longer offline until one of its requests fails.
    /// - Returns: whether it is on now.
    @discardableResult
    func toggle() -> Bool {
        state.withLock { state in
            state.on.toggle()
            if state.on { state.listFailed = false }
            return state.on
        }
    }

    /// Whether `error` is that of a request sent while the network was off, as it is or as the
    /// client wraps it.
    static func isOff(_ error: any Error) -> Bool {
        if error is Off { return true }
        guard let error = error as? GraphQLClientError, let underlying = error.underlyingError else {
            return false
        }
        return isOff(underlying)
    }

    func send(_ request: GraphQLHTTPRequest) async throws -> GraphQLHTTPResponse {
        guard isOn else { throw Off() }
        return try await base.send(request)
    }
}
