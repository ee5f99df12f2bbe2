import Foundation
import PagingLock

@testable import PagingGraphQL
@testable import PagingGraphQLClient

/// A GraphQL server in memory, for pager tests: it decodes each request's
/// body, records it, and answers with what its handler computes from it.
///
/// ``hold()`` makes it keep every reply from then on until ``release()``
/// (or until the calling task is cancelled), so tests can order events
/// without sleeping; ``failNext(_:)`` makes the next request fail as if the
/// network were down.
final class FakeGraphQLServer: GraphQLTransport {
    /// A request as the server read it.
    struct Received: Sendable {
        var operationName: String?
        var query: String
        var variables: [String: JSONValue]
    }

    typealias Handler = @Sendable (Received) -> JSONValue

    private struct State {
        var received: [Received] = []
        var holding = false
        /// Which replies a hold keeps; every one when `nil`.
        var holds: (@Sendable (Received) -> Bool)?
        var failures: [any Error] = []
        var held:
            [Int: (
                continuation: CheckedContinuation<GraphQLHTTPResponse, any Error>,
                response: GraphQLHTTPResponse
            )] = [:]
        var cancelledBeforeHeld: Set<Int> = []
        var cancellations = 0
        var arrivalWaiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
        var cancellationWaiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
    }

    private let state = Lock(State())
    private let handler: Handler

    init(_ handler: @escaping Handler) {
        self.handler = handler
    }

    /// The requests received so far, in order.
    var received: [Received] { state.withLock { $0.received } }
    /// The variables of each request received so far, in order.
    var sentVariables: [[String: JSONValue]] { received.map(\.variables) }
    /// How many held requests were cancelled.
    var cancellations: Int { state.withLock { $0.cancellations } }

    /// Holds every reply from now on until ``release()``.
    func hold() {
        state.withLock { $0.holding = true }
    }

    /// Holds the replies to the requests a predicate picks from now on until
    /// ``release()``; the others are answered at once.
    func hold(where picks: @escaping @Sendable (Received) -> Bool) {
        state.withLock {
            $0.holding = true
            $0.holds = picks
        }
    }

    /// Lets every held reply go, and stops holding.
    func release() {
        let held = state.withLock { state in
            state.holding = false
            state.holds = nil
            defer { state.held = [:] }
            return Array(state.held.values)
        }
        for (continuation, response) in held { continuation.resume(returning: response) }
    }

    /// Makes the next request fail with an error, as a transport would when
    /// no response arrives.
    func failNext(_ error: any Error = URLError(.notConnectedToInternet)) {
        state.withLock { $0.failures.append(error) }
    }

    /// Returns once `count` requests have arrived.
    func waitForRequests(_ count: Int) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ready = state.withLock { state -> Bool in
                if state.received.count >= count { return true }
                state.arrivalWaiters.append((count, continuation))
                return false
            }
            if ready { continuation.resume() }
        }
    }

    /// Returns once `count` held requests have been cancelled.
    func waitForCancellations(_ count: Int) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ready = state.withLock { state -> Bool in
                if state.cancellations >= count { return true }
                state.cancellationWaiters.append((count, continuation))
                return false
            }
            if ready { continuation.resume() }
        }
    }

    func send(_ request: GraphQLHTTPRequest) async throws -> GraphQLHTTPResponse {
        let body = try JSONValue(json: request.body)
        let received = Received(
            operationName: body["operationName"]?.stringValue,
            query: body["query"]?.stringValue ?? "",
            variables: body["variables"]?.objectValue ?? [:])
        let (id, failure, holding, waiters) = state.withLock { state in
            state.received.append(received)
            let id = state.received.count
            let failure = state.failures.isEmpty ? nil : state.failures.removeFirst()
            let ready = state.arrivalWaiters.filter { $0.count <= id }.map(\.continuation)
            state.arrivalWaiters.removeAll { $0.count <= id }
            return (id, failure, state.holding && (state.holds?(received) ?? true), ready)
        }
        for waiter in waiters { waiter.resume() }
        if let failure { throw failure }
        let response = GraphQLHTTPResponse(
            statusCode: 200, headers: ["Content-Type": "application/graphql-response+json"],
            body: Data(handler(received).jsonString.utf8))
        guard holding else { return response }
        return try await hold(id: id, response: response)
    }

    private func hold(id: Int, response: GraphQLHTTPResponse) async throws -> GraphQLHTTPResponse {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let outcome = state.withLock { state -> Bool? in
                    if state.cancelledBeforeHeld.contains(id) { return false }
                    // Released between the request's arrival and now.
                    if !state.holding { return true }
                    state.held[id] = (continuation, response)
                    return nil
                }
                switch outcome {
                case true?: continuation.resume(returning: response)
                case false?: continuation.resume(throwing: CancellationError())
                case nil: break
                }
            }
        } onCancel: {
            let (continuation, waiters) = state.withLock { state in
                state.cancellations += 1
                let count = state.cancellations
                let waiters = state.cancellationWaiters.filter { $0.count <= count }.map(\.continuation)
                state.cancellationWaiters.removeAll { $0.count <= count }
                guard let held = state.held.removeValue(forKey: id) else {
                    state.cancelledBeforeHeld.insert(id)
                    return (CheckedContinuation<GraphQLHTTPResponse, any Error>?.none, waiters)
                }
                return (held.continuation, waiters)
            }
            continuation?.resume(throwing: CancellationError())
            for waiter in waiters { waiter.resume() }
        }
    }
}

/// A list served as a Relay connection, by the GraphQL Cursor Connections
/// Specification: the cursor of the item at index *i* is `cursor:i`;
/// `first` and `last` together are refused, as GitHub's API does.
struct RelayList: Sendable {
    var ids: [String]

    init(count: Int) {
        ids = (0..<count).map { "t\($0)" }
    }

    static func cursor(_ index: Int) -> String { "cursor:\(index)" }

    func node(_ index: Int) -> JSONValue {
        ["id": .string(ids[index]), "text": .string("Todo \(index)")]
    }

    /// The connection for pagination arguments, or the message of the
    /// GraphQL error a server answers.
    func connection(first: Int?, after: String?, last: Int?, before: String?) -> Result<JSONValue, Message> {
        if first != nil, last != nil {
            return .failure(
                Message("Passing both `first` and `last` to paginate the connection is not supported."))
        }
        var start = 0
        var end = ids.count
        if let after {
            guard let index = Self.index(of: after) else {
                return .failure(Message("Invalid cursor \(after)"))
            }
            start = min(index + 1, ids.count)
        }
        if let before {
            guard let index = Self.index(of: before) else {
                return .failure(Message("Invalid cursor \(before)"))
            }
            end = max(start, min(index, ids.count))
        }
        if let first { end = min(end, start + first) }
        if let last { start = max(start, end - last) }
        let edges = (start..<end).map { index -> JSONValue in
            ["cursor": .string(Self.cursor(index)), "node": node(index)]
        }
        // Both shapes, whichever the document selected.
        return .success([
            "edges": .array(edges),
            "nodes": .array((start..<end).map(node)),
            "pageInfo": [
                "hasNextPage": .bool(end < ids.count),
                "hasPreviousPage": .bool(start > 0),
                "startCursor": start < end ? .string(Self.cursor(start)) : .null,
                "endCursor": start < end ? .string(Self.cursor(end - 1)) : .null,
            ],
        ])
    }

    /// Answers a request from its variables (`first`, `after`, `last`,
    /// `before` unless renamed), placing the connection where `wrap` says.
    func answer(
        _ request: FakeGraphQLServer.Received,
        first: String = "first", after: String = "after", last: String = "last", before: String = "before",
        wrap: (JSONValue) -> JSONValue
    ) -> JSONValue {
        let variables = request.variables
        let result = connection(
            first: variables[first]?.intValue, after: variables[after]?.stringValue,
            last: variables[last]?.intValue, before: variables[before]?.stringValue)
        switch result {
        case .success(let connection): return ["data": wrap(connection)]
        case .failure(let message): return ["data": nil, "errors": [["message": .string(message.text)]]]
        }
    }

    private static func index(of cursor: String) -> Int? {
        guard cursor.hasPrefix("cursor:") else { return nil }
        return Int(cursor.dropFirst("cursor:".count))
    }

    struct Message: Error {
        var text: String
        init(_ text: String) { self.text = text }
    }
}

/// A node of the tests' lists.
struct Todo: Decodable, Identifiable, Hashable, Sendable {
    var id: String
    var text: String
}
