import Dispatch
import Foundation
import ToolsLock

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A request a ``HostileServer`` received, and what it answered.
struct HostileRequest: Sendable, Hashable {
    /// Its number, from 1, in the order requests arrived.
    var number: Int
    /// The `first` variable of the GraphQL request, if any.
    var first: Int?
    /// The `after` variable of the GraphQL request, if any.
    var after: String?
    /// The fault it was answered with; `nil` for a good answer.
    var fault: HostileFault?
    /// What answering with the fault did; `nil` for a good answer, and until the server is done
    /// answering (see ``HostileServer/outcome(ofRequest:)``).
    var outcome: HostileFault.Outcome?
}

/// A GraphQL server on 127.0.0.1 (an ephemeral port) that serves ``ItemCatalog``'s Relay
/// connection, and misbehaves in scripted ways: from a chosen request on, it answers with a
/// ``HostileFault`` until it is told to behave again.
///
/// It speaks just enough HTTP/1.1 over blocking POSIX sockets (a thread per connection, so
/// that a stalled or endless answer holds no one else up) to control every byte: keep-alive,
/// `Content-Length` bodies, `Expect: 100-continue`. Nothing in it waits on a timer: a stall
/// waits for the client to hang up, and ``withRunning(catalog:_:)`` wakes and joins every
/// thread before it returns.
final class HostileServer: Sendable {
    /// The port it listens on.
    let port: Int
    /// The list it serves.
    let catalog: ItemCatalog

    private let listener: LoopbackSocket
    /// The pipe that wakes the accepting thread when the server stops.
    private let wakeRead: Int32
    private let wakeWrite: Int32
    private let threads = DispatchGroup()
    private let state = Locked(State())

    /// The script and the log, shared by the connection threads.
    private struct State: Sendable {
        /// The fault to answer with, from which request, and how many times more (`nil` until
        /// ``HostileServer/behave()``).
        var injection: (fault: HostileFault, from: Int, remaining: Int?)?
        var requests: [HostileRequest] = []
        /// Who waits for the outcome of a fault, by request number.
        var outcomeWaiters: [Int: [CheckedContinuation<HostileFault.Outcome, Never>]] = [:]
        var connections: [Int: LoopbackSocket] = [:]
        var nextConnection = 0
        var stopping = false
    }

    private init(catalog: ItemCatalog) throws {
        let (listener, port) = try LoopbackSocket.listening()
        var descriptors: [Int32] = [0, 0]
        guard pipe(&descriptors) == 0 else {
            listener.closeGracefully()
            throw LoopbackSocket.Failure("pipe")
        }
        self.listener = listener
        self.port = port
        self.catalog = catalog
        wakeRead = descriptors[0]
        wakeWrite = descriptors[1]
    }

    /// The GraphQL endpoint: `http://127.0.0.1:<port>/graphql`.
    var endpoint: URL {
        var components = URLComponents()
        components.scheme = "http"
        components.host = "127.0.0.1"
        components.port = port
        components.path = "/graphql"
        return components.url ?? URL(fileURLWithPath: "/")
    }

    /// Every request received so far, in order, with what it was answered.
    var requests: [HostileRequest] { state.withLock { $0.requests } }

    /// What answering request `number` with a fault did, once the server is done with it: the
    /// client may have its error before the server has finished writing.
    ///
    /// Await it only for a request that gets a fault and that the client has sent.
    /// - Parameter number: the request's number, from 1.
    /// - Returns: the outcome.
    func outcome(ofRequest number: Int) async -> HostileFault.Outcome {
        await withCheckedContinuation { continuation in
            let outcome = state.withLock { state -> HostileFault.Outcome? in
                if state.requests.indices.contains(number - 1),
                    let outcome = state.requests[number - 1].outcome
                {
                    return outcome
                }
                state.outcomeWaiters[number, default: []].append(continuation)
                return nil
            }
            if let outcome { continuation.resume(returning: outcome) }
        }
    }

    /// Answers request number `number` (counted from 1 since the server started) and the ones
    /// after it with `fault`, until ``behave()``.
    /// - Parameters:
    ///   - fault: the fault.
    ///   - number: the first request to answer with it.
    ///   - times: how many requests get it; every one until ``behave()`` when `nil`.
    func inject(_ fault: HostileFault, atRequest number: Int, times: Int? = nil) {
        state.withLock { $0.injection = (fault, number, times) }
    }

    /// Answers every later request well again.
    func behave() {
        state.withLock { $0.injection = nil }
    }

    /// Runs a server for the duration of `body`, then stops it: every connection is woken and
    /// closed, and every thread has ended when this returns.
    /// - Parameters:
    ///   - catalog: the list to serve; 25 items unless given.
    ///   - body: the test.
    /// - Returns: what `body` returns.
    /// - Throws: what `body` throws, or ``LoopbackSocket/Failure`` when the server cannot listen.
    static func withRunning<T>(
        catalog: ItemCatalog = ItemCatalog(count: 25),
        isolation: isolated (any Actor)? = #isolation,
        _ body: (HostileServer) async throws -> T
    ) async throws -> T {
        let server = try HostileServer(catalog: catalog)
        server.start()
        do {
            let result = try await body(server)
            await server.stop()
            return result
        } catch {
            await server.stop()
            throw error
        }
    }

    // MARK: Threads

    private func start() {
        threads.enter()
        Thread.detachNewThread { [self] in
            defer { threads.leave() }
            acceptConnections()
        }
    }

    private func stop() async {
        state.withLock { state in
            state.stopping = true
            for connection in state.connections.values { connection.wake() }
        }
        var byte: UInt8 = 1
        _ = write(wakeWrite, &byte, 1)
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            threads.notify(queue: .global()) { continuation.resume() }
        }
        _ = close(wakeRead)
        _ = close(wakeWrite)
    }

    /// Accepts connections until the server stops, each served on a thread of its own.
    private func acceptConnections() {
        defer { listener.closeGracefully() }
        while true {
            var descriptors = [
                pollfd(fd: listener.descriptor, events: Int16(POLLIN), revents: 0),
                pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0),
            ]
            let ready = poll(&descriptors, 2, -1)
            if ready < 0, errno == EINTR { continue }
            guard ready > 0, descriptors[1].revents == 0, let connection = listener.acceptConnection() else {
                return
            }
            let id: Int? = state.withLock { state in
                guard !state.stopping else { return nil }
                let id = state.nextConnection
                state.nextConnection += 1
                state.connections[id] = connection
                return id
            }
            guard let id else {
                connection.closeGracefully()
                return
            }
            threads.enter()
            Thread.detachNewThread { [self] in
                defer { threads.leave() }
                serve(connection, id: id)
            }
        }
    }

    /// Answers the requests of one connection until it ends.
    private func serve(_ connection: LoopbackSocket, id: Int) {
        var ending = HostileFault.Ending.close
        defer {
            // Closed under the lock, so that `stop` never wakes a descriptor number reused since.
            state.withLock { state in
                state.connections[id] = nil
                ending == .reset ? connection.closeWithReset() : connection.closeGracefully()
            }
        }
        var reader = HTTPRequestReader()
        while let request = reader.next(from: connection) {
            let variables = Self.variables(of: request.body)
            let (number, fault) = state.withLock { state in
                let number = state.requests.count + 1
                var fault: HostileFault?
                if let injection = state.injection, number >= injection.from, injection.remaining ?? 1 > 0 {
                    fault = injection.fault
                    state.injection?.remaining = injection.remaining.map { $0 - 1 }
                }
                state.requests.append(
                    HostileRequest(
                        number: number, first: variables.first, after: variables.after, fault: fault))
                return (number, fault)
            }
            let goodBody = catalog.responseBody(first: variables.first, after: variables.after)
            guard let fault else {
                let head = HostileFault.head(
                    status: 200, contentType: "application/json", length: goodBody.count)
                guard connection.sendAll(Array(head.utf8) + goodBody) else { return }
                continue
            }
            let outcome = fault.answer(on: connection, goodBody: goodBody)
            let waiters = state.withLock { state in
                state.requests[number - 1].outcome = outcome
                return state.outcomeWaiters.removeValue(forKey: number) ?? []
            }
            for waiter in waiters { waiter.resume(returning: outcome) }
            ending = outcome.ending
            guard outcome.ending == .keepAlive else { return }
        }
    }

    /// The `first` and `after` variables of a GraphQL POST body.
    private static func variables(of body: [UInt8]) -> (first: Int?, after: String?) {
        let object = (try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any]
        let variables = object?["variables"] as? [String: Any]
        return (variables?["first"] as? Int, variables?["after"] as? String)
    }
}
