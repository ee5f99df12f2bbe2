public import Foundation
import HTTPTypes
import Logging
import NIOCore
import NIOPosix
public import NIOSSL
import NIOWebSocket
public import PagingGraphQLClient
import PagingLock
import WSClient

/// A `WebSocketTransport` (`PagingGraphQLClient`) over SwiftNIO (swift-websocket's client): the
/// one to use on Linux and in command-line tools, where `URLSessionWebSocketTask` is not
/// available. It speaks `ws:` and `wss:` (TLS through NIOSSL), sends the subprotocol and
/// headers with the opening handshake, and keeps nothing of a connection once it closes. Each
/// connection runs on an event loop thread of its own, which ends with it: a handshake given
/// up (``connectTimeout``, or the task connecting cancelled) closes its socket at once.
///
/// ```swift
/// let client = GraphQLClient(
///     endpoint: url, transport: HTTPClientTransport(),
///     webSocket: GraphQLWebSocketClient(url: liveURL, transport: NIOWebSocketTransport()))
/// for try await response in client.subscribe(LaunchAdded()) { … }
/// ```
public struct NIOWebSocketTransport: WebSocketTransport {
    /// The largest message received or sent, in bytes; a larger one from the server closes
    /// the connection with 1009. 1 MiB by default.
    public var maximumMessageSize: Int
    /// The TLS configuration of `wss:` connections; the system's trust roots by default.
    public var tlsConfiguration: TLSConfiguration?
    /// How long the opening handshake may take before ``connect(to:subprotocol:headers:)``
    /// gives up (a peer that takes the TCP connection and never answers the upgrade).
    public var connectTimeout: Duration
    /// How long the server has to answer the client's close frame before the connection is
    /// dropped.
    public var closeTimeout: Duration
    /// How often a WebSocket ping goes out while the connection is quiet; a connection whose
    /// pong does not come back within the interval is dropped, so that a half-open socket is
    /// noticed (and the client reconnects). `nil` for none.
    public var pingInterval: Duration?

    /// Creates the transport.
    ///
    /// - Parameters:
    ///   - maximumMessageSize: The largest message received or sent, in bytes.
    ///   - tlsConfiguration: The TLS configuration of `wss:` connections.
    ///   - connectTimeout: How long the opening handshake may take; 30 seconds by default.
    ///   - closeTimeout: How long the server has to answer a close; 10 seconds by default.
    ///   - pingInterval: How often to ping a quiet connection; 30 seconds by default.
    public init(
        maximumMessageSize: Int = 1 << 20, tlsConfiguration: TLSConfiguration? = nil,
        connectTimeout: Duration = .seconds(30), closeTimeout: Duration = .seconds(10),
        pingInterval: Duration? = .seconds(30)
    ) {
        self.maximumMessageSize = maximumMessageSize
        self.tlsConfiguration = tlsConfiguration
        self.connectTimeout = connectTimeout
        self.closeTimeout = closeTimeout
        self.pingInterval = pingInterval
    }

    /// Opens a connection and returns once the server accepted the upgrade.
    ///
    /// - Throws: The client's error when the server cannot be reached or refuses the upgrade.
    public func connect(to url: URL, subprotocol: String, headers: [String: String]) async throws
        -> any WebSocketConnection
    {
        var fields = HTTPFields()
        fields[.secWebSocketProtocol] = subprotocol
        for (name, value) in headers {
            guard let name = HTTPField.Name(name) else {
                throw NIOWebSocketTransportError(message: "'\(name)' is not a valid header field name")
            }
            fields.append(HTTPField(name: name, value: value))
        }
        let configuration = WebSocketClientConfiguration(
            maxFrameSize: maximumMessageSize, additionalHeaders: fields,
            autoPing: pingInterval.map { .enabled(timePeriod: $0) } ?? .disabled, validateUTF8: true)
        // An event loop of the connection's own, which ends with it: swift-websocket's client
        // keeps waiting for the upgrade when its task is cancelled, and gives out no channel to
        // close, so giving up the handshake shuts the loop down, which closes the socket.
        let eventLoopGroup = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let connection = NIOWebSocketConnection(closeTimeout: closeTimeout, eventLoopGroup: eventLoopGroup)
        let maximumMessageSize = self.maximumMessageSize
        let tlsConfiguration = self.tlsConfiguration
        let address = url.absoluteString
        let task = Task {
            do {
                let closeFrame = try await WebSocketClient.connect(
                    url: address, configuration: configuration, tlsConfiguration: tlsConfiguration,
                    eventLoopGroup: eventLoopGroup,
                    logger: Logger(label: "PagingHTTPClient.NIOWebSocketTransport")
                ) { inbound, outbound, _ in
                    connection.opened(outbound)
                    for try await message in inbound.messages(maxSize: maximumMessageSize) {
                        switch message {
                        case .text(let text): connection.deliver(.text(text))
                        case .binary(let buffer): connection.deliver(.binary(Data(buffer.readableBytesView)))
                        }
                    }
                }
                connection.ended(
                    closeFrame.map { frame in
                        PagingGraphQLClient.WebSocketFrame.closed(
                            code: WebSocketCloseCode(rawValue: UInt16(webSocketErrorCode: frame.closeCode)),
                            reason: frame.reason ?? "")
                    })
            } catch {
                connection.failed(error)
            }
            // Shut down already when the handshake was given up.
            try? await eventLoopGroup.shutdownGracefully()
        }
        connection.task = task
        let connectTimeout = self.connectTimeout
        let deadline = Task {
            try await Task.sleep(for: connectTimeout)
            connection.failOpening(
                NIOWebSocketTransportError(message: "no answer to the opening handshake in \(connectTimeout)")
            )
        }
        defer { deadline.cancel() }
        try await withTaskCancellationHandler {
            try await connection.waitUntilOpen()
        } onCancel: {
            connection.failOpening(CancellationError())
        }
        return connection
    }
}

/// What ``NIOWebSocketTransport`` throws when a connection cannot be opened as asked.
public struct NIOWebSocketTransportError: Error, CustomStringConvertible {
    /// What went wrong.
    public let message: String

    /// The message.
    public var description: String { message }
}

/// One connection of ``NIOWebSocketTransport``: the writer of the client's handler, and the
/// frames it received, queued until ``receive()`` takes them.
final class NIOWebSocketConnection: WebSocketConnection {
    private typealias Frame = PagingGraphQLClient.WebSocketFrame

    private enum Phase {
        case opening([CheckedContinuation<Void, any Error>])
        case open(WebSocketOutboundWriter)
        case ended
    }

    private struct State {
        var phase = Phase.opening([])
        var frames: [Result<PagingGraphQLClient.WebSocketFrame, any Error>] = []
        var receivers: [CheckedContinuation<PagingGraphQLClient.WebSocketFrame, any Error>] = []
        var done = false
        var task: Task<Void, Never>?
        /// Drops the connection when the server does not answer the client's close in time.
        var closeTimer: Task<Void, Never>?
    }

    private let state = Lock(State())
    private let closeTimeout: Duration
    /// The connection's own event loop, shut down when the handshake is given up.
    private let eventLoopGroup: MultiThreadedEventLoopGroup

    init(closeTimeout: Duration, eventLoopGroup: MultiThreadedEventLoopGroup) {
        self.closeTimeout = closeTimeout
        self.eventLoopGroup = eventLoopGroup
    }

    /// The task running the client, cancelled when the connection is dropped.
    var task: Task<Void, Never>? {
        get { state.withLock { $0.task } }
        set { state.withLock { $0.task = newValue } }
    }

    func waitUntilOpen() async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            let result = state.withLock { state -> Result<Void, any Error>? in
                switch state.phase {
                case .opening(var waiters):
                    waiters.append(continuation)
                    state.phase = .opening(waiters)
                    return nil
                case .open: return .success(())
                case .ended:
                    if case .failure(let error) = state.frames.last { return .failure(error) }
                    return .failure(
                        NIOWebSocketTransportError(message: "the connection closed while opening"))
                }
            }
            if let result { continuation.resume(with: result) }
        }
    }

    /// The server accepted the upgrade.
    func opened(_ outbound: WebSocketOutboundWriter) {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, any Error>] in
            guard case .opening(let waiters) = state.phase else { return [] }
            state.phase = .open(outbound)
            return waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    /// A frame arrived.
    func deliver(_ frame: PagingGraphQLClient.WebSocketFrame) {
        push(.success(frame), last: false)
    }

    /// The connection closed, with the server's close frame (or none).
    func ended(_ frame: PagingGraphQLClient.WebSocketFrame?) {
        push(.success(frame ?? .closed(code: .noStatusReceived, reason: "")), last: true)
    }

    /// The connection could not be opened, or was lost.
    func failed(_ error: any Error) {
        push(.failure(error), last: true)
    }

    /// Gives up opening (the deadline passed, or the caller was cancelled): the client's task
    /// is cancelled and its event loop shut down, which closes the socket, and the connection
    /// fails with the error, unless it opened already.
    func failOpening(_ error: any Error) {
        guard push(.failure(error), last: true, onlyIfOpening: true) else { return }
        let eventLoopGroup = self.eventLoopGroup
        Task { try? await eventLoopGroup.shutdownGracefully() }
    }

    /// - Returns: whether the item was pushed (not after the last, and, `onlyIfOpening`, only
    ///   while the connection opens).
    @discardableResult
    private func push(_ item: Result<Frame, any Error>, last: Bool, onlyIfOpening: Bool = false) -> Bool {
        let (pushed, receivers, openers) = state.withLock {
            state -> (Bool, [CheckedContinuation<Frame, any Error>], [CheckedContinuation<Void, any Error>])
            in
            guard !state.done else { return (false, [], []) }
            if onlyIfOpening {
                guard case .opening = state.phase else { return (false, [], []) }
            }
            var openers: [CheckedContinuation<Void, any Error>] = []
            if last {
                state.done = true
                if case .opening(let waiters) = state.phase { openers = waiters }
                state.phase = .ended
                if onlyIfOpening { state.task?.cancel() }
                state.closeTimer?.cancel()
                // The last item (the close, or the failure) answers every receive from now on.
                state.frames.append(item)
                defer { state.receivers = [] }
                return (true, state.receivers, openers)
            }
            guard !state.receivers.isEmpty else {
                state.frames.append(item)
                return (true, [], openers)
            }
            return (true, [state.receivers.removeFirst()], openers)
        }
        for receiver in receivers { receiver.resume(with: item) }
        for opener in openers {
            switch item {
            case .failure(let error): opener.resume(throwing: error)
            case .success:
                opener.resume(
                    throwing: NIOWebSocketTransportError(message: "the connection closed while opening"))
            }
        }
        return pushed
    }

    func send(text: String) async throws {
        let outbound = state.withLock { state -> WebSocketOutboundWriter? in
            guard case .open(let outbound) = state.phase else { return nil }
            return outbound
        }
        guard let outbound else { throw NIOWebSocketTransportError(message: "the connection is closed") }
        try await outbound.write(.text(text))
    }

    func receive() async throws -> PagingGraphQLClient.WebSocketFrame {
        try await withCheckedThrowingContinuation { continuation in
            let item = state.withLock { state -> Result<PagingGraphQLClient.WebSocketFrame, any Error>? in
                if !state.frames.isEmpty {
                    // The last item (the close, or the failure) stays for every later call.
                    if state.frames.count == 1, state.done { return state.frames[0] }
                    return state.frames.removeFirst()
                }
                state.receivers.append(continuation)
                return nil
            }
            if let item { continuation.resume(with: item) }
        }
    }

    func close(code: WebSocketCloseCode, reason: String) async {
        let outbound = state.withLock { state -> WebSocketOutboundWriter? in
            guard case .open(let outbound) = state.phase else { return nil }
            return outbound
        }
        guard let outbound else { return }
        do {
            try await outbound.close(WebSocketErrorCode(codeNumber: Int(code.rawValue)), reason: reason)
        } catch {
            // Lost already: end the client, so that a receive waiting returns.
            task?.cancel()
            return
        }
        // A server that does not answer the close: cancelling the client's task closes the
        // channel, which ends the connection, and the receive waiting returns.
        let closeTimeout = self.closeTimeout
        state.withLock { state in
            guard !state.done, state.closeTimer == nil, let task = state.task else { return }
            state.closeTimer = Task {
                do {
                    try await Task.sleep(for: closeTimeout)
                } catch {
                    return
                }
                task.cancel()
            }
        }
    }
}

extension UInt16 {
    /// The number of a close code.
    fileprivate init(webSocketErrorCode code: WebSocketErrorCode) {
        var buffer = ByteBuffer()
        buffer.write(webSocketErrorCode: code)
        self = buffer.readInteger(as: UInt16.self) ?? 1005
    }
}
