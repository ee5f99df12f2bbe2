import Foundation
import PagingLock

@testable import PagingGraphQL
@testable import PagingGraphQLClient

/// A transport for tests: it records every request and answers each with the
/// next scripted reply. A gated reply is held until ``release()`` or until
/// the calling task is cancelled, so tests can order events without sleeping.
final class ScriptedTransport: GraphQLTransport {
    enum Reply: Sendable {
        case response(GraphQLHTTPResponse)
        case failure(any Error)
        /// Held until `release()`; cancelled callers get `CancellationError`.
        case gated(GraphQLHTTPResponse)
    }

    private struct State {
        var replies: [Reply]
        var requests: [GraphQLHTTPRequest] = []
        var cancellations = 0
        var held: [Int: CheckedContinuation<GraphQLHTTPResponse, any Error>] = [:]
        var heldResponses: [Int: GraphQLHTTPResponse] = [:]
        var cancelledBeforeHeld: Set<Int> = []
        var arrivalWaiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
    }

    private let state: Lock<State>

    init(_ replies: [Reply]) {
        state = Lock(State(replies: replies))
    }

    /// The requests received so far, in order.
    var requests: [GraphQLHTTPRequest] { state.withLock { $0.requests } }
    /// How many held requests were cancelled.
    var cancellations: Int { state.withLock { $0.cancellations } }

    /// Returns once `count` requests have arrived.
    func waitForRequests(_ count: Int) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ready = state.withLock { state -> Bool in
                if state.requests.count >= count { return true }
                state.arrivalWaiters.append((count, continuation))
                return false
            }
            if ready { continuation.resume() }
        }
    }

    /// Lets every held reply go.
    func release() {
        let held = state.withLock {
            state -> [(CheckedContinuation<GraphQLHTTPResponse, any Error>, GraphQLHTTPResponse)] in
            let pairs = state.held.compactMap { id, continuation in
                state.heldResponses[id].map { (continuation, $0) }
            }
            state.held = [:]
            state.heldResponses = [:]
            return pairs
        }
        for (continuation, response) in held { continuation.resume(returning: response) }
    }

    func send(_ request: GraphQLHTTPRequest) async throws -> GraphQLHTTPResponse {
        let (id, reply, waiters) = state.withLock {
            state -> (Int, Reply?, [CheckedContinuation<Void, Never>]) in
            state.requests.append(request)
            let id = state.requests.count
            let reply = state.replies.isEmpty ? nil : state.replies.removeFirst()
            let ready = state.arrivalWaiters.filter { $0.count <= id }.map(\.continuation)
            state.arrivalWaiters.removeAll { $0.count <= id }
            return (id, reply, ready)
        }
        for waiter in waiters { waiter.resume() }
        switch reply {
        case nil:
            throw URLError(.resourceUnavailable)
        case .response(let response):
            return response
        case .failure(let error):
            throw error
        case .gated(let response):
            return try await hold(id: id, response: response)
        }
    }

    private func hold(id: Int, response: GraphQLHTTPResponse) async throws -> GraphQLHTTPResponse {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let cancelled = state.withLock { state -> Bool in
                    if state.cancelledBeforeHeld.contains(id) { return true }
                    state.held[id] = continuation
                    state.heldResponses[id] = response
                    return false
                }
                if cancelled { continuation.resume(throwing: CancellationError()) }
            }
        } onCancel: {
            let continuation = state.withLock {
                state -> CheckedContinuation<GraphQLHTTPResponse, any Error>? in
                state.cancellations += 1
                guard let continuation = state.held.removeValue(forKey: id) else {
                    state.cancelledBeforeHeld.insert(id)
                    return nil
                }
                state.heldResponses[id] = nil
                return continuation
            }
            continuation?.resume(throwing: CancellationError())
        }
    }
}

extension GraphQLHTTPResponse {
    /// A response with a JSON body given as text.
    static func json(
        _ text: String, status: Int = 200,
        headers: [String: String] = ["Content-Type": "application/graphql-response+json"]
    ) -> Self {
        GraphQLHTTPResponse(statusCode: status, headers: headers, body: Data(text.utf8))
    }
}

/// The endpoint the tests' clients use; never contacted. (A literal that
/// always parses.)
// swift-format-ignore: NeverForceUnwrap
let testEndpoint = URL(string: "https://api.example.test/graphql")!
