import PagingGraphQLClient
import PagingLock

#if canImport(FoundationNetworking)
    import Foundation
    import FoundationNetworking
#else
    import Foundation
#endif

/// One connection of a ``URLSessionWebSocketTransport``: a `URLSessionWebSocketTask`, and what
/// the connection knows of its end.
///
/// - Its handshake completes when the session's delegate says the task opened; ``open()``
///   waits for that, or throws the task's error.
/// - A receive maps the task's messages to frames. When the task's receive fails, the
///   connection is over: a close frame (the task's `closeCode` and `closeReason`, or the
///   delegate's) is `WebSocketFrame.closed(code:reason:)`; without one, the task's error is
///   thrown. When neither is known yet, the receive waits for the task to complete, which
///   comes after its close.
/// - ``close(code:reason:)`` answers every receive waiting, and every later one, with
///   `.closed` and the client's own code at once, whatever the server does; then it cancels the
///   task with the code and reason (``URLSessionWebSocketTransport/sentCloseCode(for:)``).
final class URLSessionWebSocketConnection: WebSocketConnection {
    private typealias Receiver = CheckedContinuation<WebSocketFrame, any Error>

    private enum Phase: Sendable {
        /// Until the handshake completes; the waiter of ``open()`` once it waits.
        case connecting(CheckedContinuation<Void, any Error>?)
        case open
        /// The handshake failed or was given up: what ``open()`` throws.
        case failed(any Error)
    }

    private struct State: Sendable {
        var phase = Phase.connecting(nil)
        /// Whether the task was resumed.
        var started = false
        /// Whether the task completed (the session's delegate said so).
        var completed = false
        /// The close the server sent, as the session's delegate reported it.
        var serverClose: (code: WebSocketCloseCode, reason: String)?
        /// What every receive gets from now on: the close (the client's or the server's), or
        /// the error that ended the connection.
        var final: Result<WebSocketFrame, any Error>?
        /// The receives waiting for the task, by number.
        var receivers: [Int: Receiver] = [:]
        /// The receives whose task receive failed before the connection knew how it ended,
        /// waiting for the task to complete, with the error to throw when no close came.
        var parked: [Int: (receiver: Receiver, error: any Error)] = [:]
        var nextReceiver = 0
    }

    /// The task.
    let task: URLSessionWebSocketTask
    /// The session the task runs in, kept as long as the connection.
    private let session: WebSocketSession
    private let state = Lock(State())

    init(task: URLSessionWebSocketTask, session: WebSocketSession) {
        self.task = task
        self.session = session
    }

    deinit {
        // Let go of without a close (or before it opened): the task must not run on.
        let live = state.withLock { $0.final == nil && $0.started }
        if live { task.cancel() }
    }

    // MARK: Opening

    /// Starts the task and waits until its handshake completes.
    /// - Throws: why the handshake failed, or was given up (``abandonOpening(_:)``).
    func open() async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            let (result, start) = state.withLock { state -> (Result<Void, any Error>?, Bool) in
                switch state.phase {
                case .connecting:
                    state.phase = .connecting(continuation)
                    defer { state.started = true }
                    return (nil, !state.started)
                case .open:
                    return (.success(()), false)
                case .failed(let error):
                    return (.failure(error), false)
                }
            }
            if let result { continuation.resume(with: result) }
            if start { task.resume() }
        }
    }

    /// The server accepted the upgrade.
    ///
    /// FoundationNetworking says so for any response to the handshake, a refusal too; a final
    /// status (not 1xx: the upgrade is 101) fails the handshake instead.
    func opened() {
        if let response = task.response as? HTTPURLResponse, !(100..<200).contains(response.statusCode) {
            abandonOpening(URLError(.badServerResponse))
            return
        }
        let waiter = state.withLock { state -> CheckedContinuation<Void, any Error>? in
            guard case .connecting(let waiter) = state.phase else { return nil }
            state.phase = .open
            return waiter
        }
        waiter?.resume()
    }

    /// Gives up the handshake (its deadline passed, or the caller was cancelled) unless it
    /// completed: the task is cancelled, and ``open()`` throws `error`.
    func abandonOpening(_ error: any Error) {
        if failOpening(error) { task.cancel() }
    }

    /// Fails the handshake with `error` unless it completed or failed already: ``open()``
    /// throws it, and so does every receive.
    /// - Returns: whether the handshake was failed now.
    private func failOpening(_ error: any Error) -> Bool {
        let (failed, waiter) = state.withLock { state -> (Bool, CheckedContinuation<Void, any Error>?) in
            guard case .connecting(let waiter) = state.phase else { return (false, nil) }
            state.phase = .failed(error)
            state.final = .failure(error)
            return (true, waiter)
        }
        waiter?.resume(throwing: error)
        return failed
    }

    // MARK: Events of the session's delegate

    /// The server's close frame arrived (or URLSession ended the connection with a code).
    func closedByServer(code: URLSessionWebSocketTask.CloseCode, reason: Data?) {
        state.withLock { state in
            state.serverClose = (Self.closeCode(code), Self.text(reason))
        }
    }

    /// The task completed: with the handshake's failure while connecting; otherwise every
    /// receive that waits for the connection's end gets it.
    func completed(error: (any Error)?) {
        // Completed before it opened: the server refused the upgrade, or it failed.
        if failOpening(error ?? URLError(.badServerResponse)) { return }
        let parked = state.withLock { state -> [(Receiver, Result<WebSocketFrame, any Error>)] in
            state.completed = true
            defer { state.parked = [:] }
            return state.parked.sorted { $0.key < $1.key }.map { _, parked in
                (parked.receiver, end(&state, error: parked.error))
            }
        }
        for (receiver, result) in parked { receiver.resume(with: result) }
    }

    // MARK: WebSocketConnection

    func send(text: String) async throws {
        if state.withLock({ $0.final != nil }) { throw URLError(.networkConnectionLost) }
        try await task.send(.string(text))
    }

    func receive() async throws -> WebSocketFrame {
        enum Next {
            case wait(Int)
            case done(Result<WebSocketFrame, any Error>)
        }
        return try await withCheckedThrowingContinuation { (continuation: Receiver) in
            let next = state.withLock { state -> Next in
                if let final = state.final { return .done(final) }
                state.nextReceiver += 1
                state.receivers[state.nextReceiver] = continuation
                return .wait(state.nextReceiver)
            }
            switch next {
            case .done(let result):
                continuation.resume(with: result)
            case .wait(let number):
                task.receive { result in self.received(result, by: number) }
            }
        }
    }

    func close(code: WebSocketCloseCode, reason: String) async {
        let waiting = state.withLock { state -> [Receiver]? in
            guard state.final == nil else { return nil }
            state.final = .success(.closed(code: code, reason: reason))
            defer {
                state.receivers = [:]
                state.parked = [:]
            }
            return Array(state.receivers.values) + state.parked.values.map(\.receiver)
        }
        guard let waiting else { return }
        for receiver in waiting { receiver.resume(returning: .closed(code: code, reason: reason)) }
        task.cancel(with: URLSessionWebSocketTransport.sentCloseCode(for: code), reason: Data(reason.utf8))
    }

    // MARK: Receiving

    /// The task's receive number `number` finished.
    private func received(_ result: Result<URLSessionWebSocketTask.Message, any Error>, by number: Int) {
        let resumption = state.withLock { state -> (Receiver, Result<WebSocketFrame, any Error>)? in
            // Gone when the client's close answered it first.
            guard let receiver = state.receivers.removeValue(forKey: number) else { return nil }
            switch result {
            case .success(let message):
                return (receiver, .success(Self.frame(message)))
            case .failure(let error):
                if let final = state.final { return (receiver, final) }
                guard state.completed || state.serverClose != nil || task.closeCode != .invalid else {
                    state.parked[number] = (receiver, error)
                    return nil
                }
                return (receiver, end(&state, error: error))
            }
        }
        if let (receiver, result) = resumption { receiver.resume(with: result) }
    }

    /// How the connection ended, from now on what every receive gets: the server's close
    /// frame when one came, or else `error`.
    private func end(_ state: inout State, error: any Error) -> Result<WebSocketFrame, any Error> {
        if let final = state.final { return final }
        let final: Result<WebSocketFrame, any Error>
        if task.closeCode != .invalid {
            final = .success(
                .closed(code: Self.closeCode(task.closeCode), reason: Self.text(task.closeReason)))
        } else if let close = state.serverClose {
            final = .success(.closed(code: close.code, reason: close.reason))
        } else {
            final = .failure(error)
        }
        state.final = final
        return final
    }

    private static func frame(_ message: URLSessionWebSocketTask.Message) -> WebSocketFrame {
        switch message {
        case .string(let text): return .text(text)
        case .data(let data): return .binary(data)
        #if !canImport(FoundationNetworking)
            // A kind of message URLSession may add: not text, which the protocol breaks.
            @unknown default: return .binary(Data())
        #endif
        }
    }

    private static func closeCode(_ code: URLSessionWebSocketTask.CloseCode) -> WebSocketCloseCode {
        WebSocketCloseCode(
            rawValue: UInt16(exactly: code.rawValue) ?? WebSocketCloseCode.noStatusReceived.rawValue)
    }

    private static func text(_ reason: Data?) -> String {
        String(decoding: reason ?? Data(), as: UTF8.self)
    }
}
