import Foundation
import PagingLock
import PagingTestSupport
import PagingTesting
import Testing

@testable import PagingGraphQLClient

/// Subscriptions through `GraphQLClient.subscribe` over a scripted WebSocket server: the
/// handshake, several subscriptions on one connection, their ends from either side, the
/// connection's failures, reconnection with backoff and the statuses a list observes.
/// Every step waits on a gate (a connect, a frame, a sleep), never on time.
@Suite("Subscriptions over graphql-transport-ws", .timeLimit(.minutes(HangLimit.minutes(1))))
struct SubscriptionClientTests {
    typealias Responses = AsyncThrowingStream<GraphQLResponse<JSONValue>, any Error>.Iterator

    /// The error a stream ends with.
    static func failure(_ responses: inout Responses) async -> GraphQLSubscriptionError? {
        do {
            while try await responses.next() != nil {}
            Issue.record("the stream finished without an error")
            return nil
        } catch let error as GraphQLSubscriptionError {
            return error
        } catch {
            Issue.record("not a GraphQLSubscriptionError: \(error)")
            return nil
        }
    }

    @Test(
        "the first subscription opens the connection: subprotocol, headers, connection_init, then subscribe")
    func handshake() async throws {
        let harness = try SubscriptionHarness()
        #expect(harness.webSocket.status.description == "idle")
        var responses = harness.client.subscribe(launchAdded("KSC")).makeAsyncIterator()
        let handshake = await harness.server.accept()
        #expect(handshake.url == SubscriptionHarness.url)
        #expect(handshake.subprotocol == "graphql-transport-ws")
        #expect(handshake.headers == ["X-Client": "tests"])
        let socket = handshake.socket
        let initMessage = try await socket.nextMessage("connection_init")
        #expect(initMessage["payload"] == SubscriptionHarness.parameters)
        #expect(socket.unreadEvents.isEmpty, "no subscribe before the acknowledgement")
        #expect(harness.webSocket.status.description == "connecting(attempt: 0)")

        socket.push(["type": "connection_ack"])
        let subscribe = try await socket.nextMessage("subscribe")
        #expect(subscribe["id"] == "1")
        #expect(
            subscribe["payload"]
                == [
                    "query":
                        "subscription LaunchAdded($site: String) { launchAdded(site: $site) { id site } }",
                    "operationName": "LaunchAdded", "variables": ["site": "KSC"],
                ])
        #expect(harness.webSocket.status.description == "connected(connection: 1)")

        socket.push(nextMessage("1", ["launchAdded": ["id": "1", "site": "KSC"]]))
        let response = try #require(try await responses.next())
        #expect(response.data == ["launchAdded": ["id": "1", "site": "KSC"]])
        #expect(response.errors.isEmpty)
        #expect(harness.webSocket.subscriptionCount == 1)
    }

    @Test("the connection parameters are asked for on each connection")
    func parametersPerConnection() async throws {
        let tokens = Counter()
        let harness = try SubscriptionHarness(parameters: { ["authToken": .string("token \(tokens.next())")] }
        )
        var responses = harness.client.subscribe(launchAdded()).makeAsyncIterator()
        let first = await harness.server.accept().socket
        #expect(try await first.nextMessage("connection_init")["payload"] == ["authToken": "token 1"])
        first.drop()
        await harness.sleeps.nextArrival().open()
        let second = await harness.server.accept().socket
        #expect(try await second.nextMessage("connection_init")["payload"] == ["authToken": "token 2"])
        second.push(["type": "connection_ack"])
        _ = try await second.nextMessage("subscribe")
        second.push(nextMessage("1", ["launchAdded": nil]))
        #expect(try await responses.next() != nil)
    }

    @Test("connection parameters that cannot be made end the subscriptions; no connection opens")
    func parametersFail() async throws {
        let harness = try SubscriptionHarness(parameters: { throw URLError(.userAuthenticationRequired) })
        var responses = harness.client.subscribe(launchAdded()).makeAsyncIterator()
        let error = await Self.failure(&responses)
        #expect(error?.code == .connectionParameters)
        #expect((error?.underlyingError as? URLError)?.code == .userAuthenticationRequired)
        #expect(harness.server.connects.allArguments.isEmpty)
    }

    @Test(
        "no connection_ack in time: the client closes with 4504 and reconnects; without retries, the stream fails"
    )
    func acknowledgementTimeout() async throws {
        let harness = try SubscriptionHarness(acknowledgementTimeout: .seconds(5))
        var responses = harness.client.subscribe(launchAdded()).makeAsyncIterator()
        let socket = await harness.server.accept().socket
        _ = try await socket.nextMessage("connection_init")
        let timer = await harness.sleeps.nextArrival()
        #expect(timer.arguments == .seconds(5))
        timer.open()
        let (code, reason) = try await socket.nextClose()
        #expect(code == .connectionAcknowledgementTimeout)
        #expect(reason == "Connection acknowledgement timeout")
        let backoff = await harness.sleeps.nextArrival()
        #expect(backoff.arguments == harness.expectedDelays(1)[0])
        guard case .reconnecting(1, _, let error) = harness.webSocket.status else {
            Issue.record("status \(harness.webSocket.status)")
            return
        }
        #expect(error.code == .acknowledgementTimeout)
        backoff.open()
        let again = try await harness.connect()
        _ = try await again.nextMessage("subscribe")
        again.push(nextMessage("1", ["launchAdded": ["id": "2"]]))
        #expect(try await responses.next()?.data == ["launchAdded": ["id": "2"]])
        await harness.sleeps.waitUntilSettled(calls: 3)
        #expect(harness.sleeps.allArguments == [.seconds(5), backoff.arguments, .seconds(5)])
        #expect(harness.sleeps.cancelledCalls == [3], "the acknowledgement stopped the second wait")

        let never = try SubscriptionHarness(acknowledgementTimeout: .seconds(5), policy: .never)
        var failing = never.client.subscribe(launchAdded()).makeAsyncIterator()
        let lone = await never.server.accept().socket
        _ = try await lone.nextMessage("connection_init")
        await never.sleeps.nextArrival().open()
        #expect(await Self.failure(&failing)?.code == .acknowledgementTimeout)
        #expect(never.webSocket.status.description == "failed(acknowledgementTimeout)")
    }

    @Test("ping is answered with pong, its payload echoed")
    func pingPong() async throws {
        let harness = try SubscriptionHarness()
        let responses = harness.client.subscribe(launchAdded())
        let socket = try await harness.connect()
        _ = try await socket.nextMessage("subscribe")
        socket.push(["type": "ping", "payload": ["at": 42]])
        #expect(try await socket.nextMessage("pong")["payload"] == ["at": 42])
        socket.push(["type": "ping"])
        #expect(try await socket.nextMessage("pong") == ["type": "pong"])
        _ = responses
    }

    @Test("several subscriptions share one connection, each with its own id and its own results")
    func multiplexing() async throws {
        let harness = try SubscriptionHarness()
        var kennedy = harness.client.subscribe(launchAdded("KSC")).makeAsyncIterator()
        var vandenberg = harness.client.subscribe(launchAdded("VAFB")).makeAsyncIterator()
        let socket = try await harness.connect()
        let first = try await socket.nextMessage("subscribe")
        let second = try await socket.nextMessage("subscribe")
        #expect(first["id"] == "1")
        #expect(first["payload"]?["variables"] == ["site": "KSC"])
        #expect(second["id"] == "2")
        #expect(second["payload"]?["variables"] == ["site": "VAFB"])

        socket.push(nextMessage("2", ["launchAdded": ["id": "v1"]]))
        socket.push(nextMessage("1", ["launchAdded": ["id": "k1"]]))
        socket.push(nextMessage("2", ["launchAdded": ["id": "v2"]]))
        #expect(try await kennedy.next()?.data == ["launchAdded": ["id": "k1"]])
        #expect(try await vandenberg.next()?.data == ["launchAdded": ["id": "v1"]])
        #expect(try await vandenberg.next()?.data == ["launchAdded": ["id": "v2"]])

        var third = harness.client.subscribe(launchAdded("CCAFS")).makeAsyncIterator()
        let late = try await socket.nextMessage("subscribe")
        #expect(late["id"] == "3", "a subscription on an open connection goes at once, with a new id")
        socket.push(nextMessage("3", ["launchAdded": ["id": "c1"]]))
        #expect(try await third.next()?.data == ["launchAdded": ["id": "c1"]])
        #expect(harness.server.connects.allArguments.count == 1)
    }

    @Test("complete from the server finishes its stream; the others and the connection go on")
    func serverComplete() async throws {
        let harness = try SubscriptionHarness()
        var first = harness.client.subscribe(launchAdded("KSC")).makeAsyncIterator()
        var second = harness.client.subscribe(launchAdded("VAFB")).makeAsyncIterator()
        let socket = try await harness.connect()
        _ = try await socket.nextMessage("subscribe")
        _ = try await socket.nextMessage("subscribe")
        socket.push(["type": "complete", "id": "1"])
        #expect(try await first.next() == nil)
        socket.push(nextMessage("2", ["launchAdded": ["id": "v1"]]))
        #expect(try await second.next()?.data == ["launchAdded": ["id": "v1"]])
        #expect(harness.webSocket.subscriptionCount == 1)
        #expect(socket.unreadEvents.isEmpty, "no complete back, no close")
    }

    @Test("cancelling the reading task sends complete; the connection stays for the other subscriptions")
    func cancellationSendsComplete() async throws {
        let harness = try SubscriptionHarness()
        let stream = harness.client.subscribe(launchAdded("KSC"))
        var other = harness.client.subscribe(launchAdded("VAFB")).makeAsyncIterator()
        let socket = try await harness.connect()
        _ = try await socket.nextMessage("subscribe")
        _ = try await socket.nextMessage("subscribe")
        let arrived = AsyncQueue<Void>()
        let reader = Task {
            for try await _ in stream { arrived.push(()) }
        }
        socket.push(nextMessage("1", ["launchAdded": ["id": "k1"]]))
        await arrived.next()
        reader.cancel()
        #expect(try await socket.nextMessage("complete") == ["type": "complete", "id": "1"])
        _ = await reader.result
        // Sent before the server read the complete: dropped.
        socket.push(nextMessage("1", ["launchAdded": ["id": "k2"]]))
        socket.push(nextMessage("2", ["launchAdded": ["id": "v1"]]))
        #expect(try await other.next()?.data == ["launchAdded": ["id": "v1"]])
        #expect(harness.webSocket.subscriptionCount == 1)
        #expect(harness.webSocket.status.description == "connected(connection: 1)")
    }

    @Test(
        "when the last subscription ends, the connection closes with 1000; the next subscription opens another"
    )
    func lazyClose() async throws {
        let harness = try SubscriptionHarness()
        var statuses = harness.webSocket.statusUpdates.makeAsyncIterator()
        let stream = harness.client.subscribe(launchAdded())
        let socket = try await harness.connect()
        _ = try await socket.nextMessage("subscribe")
        let reader = Task { for try await _ in stream {} }
        reader.cancel()
        #expect(try await socket.nextMessage("complete")["id"] == "1")
        let (code, reason) = try await socket.nextClose()
        #expect(code == .normalClosure)
        #expect(reason == "Normal Closure")
        #expect(
            await statuses.next(4) == ["idle", "connecting(attempt: 0)", "connected(connection: 1)", "idle"])
        #expect(harness.webSocket.subscriptionCount == 0)

        var again = harness.client.subscribe(launchAdded()).makeAsyncIterator()
        let next = try await harness.connect()
        #expect(try await next.nextMessage("subscribe")["id"] == "1", "ids start again on a new connection")
        next.push(nextMessage("1", ["launchAdded": ["id": "9"]]))
        #expect(try await again.next()?.data == ["launchAdded": ["id": "9"]])
        #expect(await statuses.next(2) == ["connecting(attempt: 0)", "connected(connection: 2)"])
        #expect(harness.sleeps.allArguments.isEmpty, "a close the client asked for is no failure")
    }

    @Test("the server's error message fails that subscription alone with its errors")
    func serverError() async throws {
        let harness = try SubscriptionHarness()
        var refused = harness.client.subscribe(launchAdded("nowhere")).makeAsyncIterator()
        var fine = harness.client.subscribe(launchAdded("KSC")).makeAsyncIterator()
        let socket = try await harness.connect()
        _ = try await socket.nextMessage("subscribe")
        _ = try await socket.nextMessage("subscribe")
        socket.push(["type": "error", "id": "1", "payload": [["message": "Unknown site nowhere"]]])
        let error = await Self.failure(&refused)
        #expect(error?.code == .graphQLErrors)
        #expect(error?.graphQLErrors == [GraphQLResponseError(message: "Unknown site nowhere")])
        #expect(error?.isRetryable == false)
        socket.push(nextMessage("2", ["launchAdded": ["id": "k1"]]))
        #expect(try await fine.next()?.data == ["launchAdded": ["id": "k1"]])
    }

    @Test("a result with errors beside its data, or errors alone, is delivered; the stream goes on")
    func resultsWithErrors() async throws {
        let harness = try SubscriptionHarness()
        var responses = harness.client.subscribe(launchAdded()).makeAsyncIterator()
        let socket = try await harness.connect()
        _ = try await socket.nextMessage("subscribe")
        socket.push([
            "type": "next", "id": "1", "payload": ["data": nil, "errors": [["message": "resolver failed"]]],
        ])
        socket.push([
            "type": "next", "id": "1",
            "payload": [
                "data": ["launchAdded": ["id": "2", "site": nil]], "errors": [["message": "no site"]],
            ],
        ])
        let errorsAlone = try #require(try await responses.next())
        #expect(errorsAlone.data == nil)
        #expect(errorsAlone.errors.map(\.message) == ["resolver failed"])
        let partial = try #require(try await responses.next())
        #expect(partial.hasPartialData)
        #expect(partial.data?["launchAdded"]?["id"] == "2")
    }

    @Test(
        "a result that does not decode into the operation's data fails the stream and completes the subscription"
    )
    func undecodableResult() async throws {
        struct Added: Decodable, Sendable {
            struct Launch: Decodable, Sendable { var id: String }
            var launchAdded: Launch
        }
        let harness = try SubscriptionHarness()
        let operation = InlineOperation(
            document: "subscription { launchAdded { id } }", variables: [String: JSONValue](), as: Added.self)
        var responses = harness.client.subscribe(operation).makeAsyncIterator()
        let socket = try await harness.connect()
        _ = try await socket.nextMessage("subscribe")
        socket.push(nextMessage("1", ["launchAdded": ["id": "7"]]))
        #expect(try await responses.next()?.data?.launchAdded.id == "7")
        socket.push(nextMessage("1", ["launchAdded": ["id": 7]]))
        do {
            _ = try await responses.next()
            Issue.record("no error")
        } catch let error as GraphQLSubscriptionError {
            #expect(error.code == .undecodableResponse)
            #expect((error.underlyingError as? GraphQLClientError)?.codingPath == "data.launchAdded.id")
        }
        #expect(try await socket.nextMessage("complete")["id"] == "1")
        #expect(try await socket.nextClose().0 == .normalClosure, "it was the last subscription")
    }

    @Test("a client without a webSocket fails the stream at once")
    func notConfigured() async throws {
        let client = GraphQLClient(endpoint: testEndpoint, transport: ScriptedTransport([]))
        var responses = client.subscribe(launchAdded()).makeAsyncIterator()
        #expect(await Self.failure(&responses)?.code == .notConfigured)
    }

    @Test(
        "a close the client does not retry ends every subscription with the close code, and no reconnection",
        arguments: [WebSocketCloseCode.unauthorized, .forbidden, .badRequest, .subscriberAlreadyExists])
    func fatalClose(code: WebSocketCloseCode) async throws {
        let harness = try SubscriptionHarness()
        var first = harness.client.subscribe(launchAdded("KSC")).makeAsyncIterator()
        var second = harness.client.subscribe(launchAdded("VAFB")).makeAsyncIterator()
        let socket = try await harness.connect()
        _ = try await socket.nextMessage("subscribe")
        socket.closeFromServer(code, reason: "No")
        for error in [await Self.failure(&first), await Self.failure(&second)] {
            #expect(error?.code == .closed)
            #expect(error?.closeCode == code)
            #expect(error?.closeReason == "No")
            #expect(error?.isRetryable == false)
        }
        #expect(harness.sleeps.allArguments.isEmpty)
        #expect(harness.server.connects.allArguments.count == 1)
        #expect(harness.webSocket.status.description == "failed(closed)")
        #expect(harness.webSocket.subscriptionCount == 0)
    }

    @Test(
        "a server message that breaks the protocol closes with 4400 and fails the streams, without a crash",
        arguments: [
            "not json", #"{"type":"nope"}"#, #"{"type":"next","id":"9","payload":{"data":{}}}"#,
            "[[[[[[[[", #"{"type":"error","id":"1","payload":"bad"}"#,
        ])
    func badMessage(text: String) async throws {
        let harness = try SubscriptionHarness()
        var responses = harness.client.subscribe(launchAdded()).makeAsyncIterator()
        let socket = try await harness.connect()
        _ = try await socket.nextMessage("subscribe")
        socket.push(frame: .text(text))
        let (code, reason) = try await socket.nextClose()
        #expect(code == .badRequest)
        #expect(reason.hasPrefix("Invalid message: "))
        let error = await Self.failure(&responses)
        #expect(error?.code == .badMessage)
        #expect(error?.closeCode == .badRequest)
        #expect(error?.closeReason == reason)
        #expect(harness.sleeps.allArguments.isEmpty, "not retried")
    }

    @Test("a binary frame closes with 4400 too")
    func binaryFrame() async throws {
        let harness = try SubscriptionHarness()
        var responses = harness.client.subscribe(launchAdded()).makeAsyncIterator()
        let socket = try await harness.connect()
        socket.push(frame: .binary(Data([0xFF, 0x00])))
        #expect(try await socket.nextMessage("subscribe")["id"] == "1")
        #expect(try await socket.nextClose().0 == .badRequest)
        #expect(await Self.failure(&responses)?.code == .badMessage)
    }

    @Test("a lost connection reconnects after waits drawn from the seed, resubscribes, and the streams go on")
    func reconnect() async throws {
        let harness = try SubscriptionHarness(seed: 2024)
        var statuses = harness.webSocket.statusUpdates.makeAsyncIterator()
        var kennedy = harness.client.subscribe(launchAdded("KSC")).makeAsyncIterator()
        var vandenberg = harness.client.subscribe(launchAdded("VAFB")).makeAsyncIterator()
        let socket = try await harness.connect()
        let subscribed = [
            try await socket.nextMessage("subscribe"), try await socket.nextMessage("subscribe"),
        ]
        socket.push(nextMessage("1", ["launchAdded": ["id": "k1"]]))
        #expect(try await kennedy.next()?.data == ["launchAdded": ["id": "k1"]])

        socket.drop()
        let expected = harness.expectedDelays(3)
        let first = await harness.sleeps.nextArrival()
        #expect(first.arguments == expected[0])
        #expect(first.arguments >= .zero && first.arguments <= .seconds(1))
        first.open()
        await harness.server.refuse()
        let second = await harness.sleeps.nextArrival()
        #expect(second.arguments == expected[1])
        #expect(second.arguments >= .zero && second.arguments <= .seconds(2))
        second.open()
        let again = await harness.server.accept().socket
        _ = try await again.nextMessage("connection_init")
        again.closeFromServer(.serviceRestart, reason: "Restarting")
        let third = await harness.sleeps.nextArrival()
        #expect(third.arguments == expected[2])
        #expect(third.arguments >= .zero && third.arguments <= .seconds(4))
        third.open()

        let last = try await harness.connect()
        let resubscribed = [try await last.nextMessage("subscribe"), try await last.nextMessage("subscribe")]
        #expect(resubscribed == subscribed, "the same operations, with the same ids on the new connection")
        last.push(nextMessage("2", ["launchAdded": ["id": "v2"]]))
        last.push(nextMessage("1", ["launchAdded": ["id": "k2"]]))
        #expect(try await vandenberg.next()?.data == ["launchAdded": ["id": "v2"]])
        #expect(try await kennedy.next()?.data == ["launchAdded": ["id": "k2"]])

        #expect(
            await statuses.next(10) == [
                "idle", "connecting(attempt: 0)", "connected(connection: 1)",
                "reconnecting(attempt: 1, delay: \(expected[0]), error: connectionFailed)",
                "connecting(attempt: 1)",
                "reconnecting(attempt: 2, delay: \(expected[1]), error: connectionFailed)",
                "connecting(attempt: 2)",
                "reconnecting(attempt: 3, delay: \(expected[2]), error: closed)",
                "connecting(attempt: 3)", "connected(connection: 2)",
            ])
    }

    @Test("after an acknowledged connection the attempts count from 1 again")
    func attemptsRestartAfterAck() async throws {
        let harness = try SubscriptionHarness(seed: 99)
        var responses = harness.client.subscribe(launchAdded()).makeAsyncIterator()
        let socket = try await harness.connect()
        _ = try await socket.nextMessage("subscribe")
        socket.drop()
        await harness.sleeps.nextArrival().open()
        let second = try await harness.connect()
        _ = try await second.nextMessage("subscribe")
        second.closeFromServer(.goingAway)
        let wait = await harness.sleeps.nextArrival()
        guard case .reconnecting(let attempt, let delay, _) = harness.webSocket.status else {
            Issue.record("status \(harness.webSocket.status)")
            return
        }
        #expect(attempt == 1)
        #expect(delay == wait.arguments)
        var random = SeededGenerator(seed: 99)
        let policy = harness.webSocket.reconnectPolicy
        _ = policy.delay(beforeAttempt: 1, using: &random)
        #expect(
            delay == policy.delay(beforeAttempt: 1, using: &random), "the second draw, for attempt 1 again")
        wait.open()
        let third = try await harness.connect()
        _ = try await third.nextMessage("subscribe")
        third.push(nextMessage("1", ["launchAdded": nil]))
        #expect(try await responses.next() != nil)
    }

    @Test("when the attempts run out, the streams end with the last failure and the status is failed")
    func attemptsRunOut() async throws {
        let harness = try SubscriptionHarness(
            policy: GraphQLReconnectPolicy(
                initialDelay: .seconds(1), maximumDelay: .seconds(8), maximumAttempts: 2))
        var responses = harness.client.subscribe(launchAdded()).makeAsyncIterator()
        let socket = try await harness.connect()
        _ = try await socket.nextMessage("subscribe")
        socket.drop()
        await harness.sleeps.nextArrival().open()
        await harness.server.refuse()
        await harness.sleeps.nextArrival().open()
        await harness.server.refuse(with: URLError(.timedOut))
        let error = await Self.failure(&responses)
        #expect(error?.code == .connectionFailed)
        #expect((error?.underlyingError as? URLError)?.code == .timedOut)
        #expect(harness.sleeps.allArguments == harness.expectedDelays(2))
        #expect(harness.webSocket.status.description == "failed(connectionFailed)")

        // A new subscription starts over.
        var again = harness.client.subscribe(launchAdded()).makeAsyncIterator()
        let fresh = try await harness.connect()
        _ = try await fresh.nextMessage("subscribe")
        fresh.push(nextMessage("1", ["launchAdded": nil]))
        #expect(try await again.next() != nil)
    }

    @Test("a frame that cannot be sent counts as a lost connection")
    func sendFailure() async throws {
        let harness = try SubscriptionHarness()
        var first = harness.client.subscribe(launchAdded("KSC")).makeAsyncIterator()
        let socket = try await harness.connect()
        _ = try await socket.nextMessage("subscribe")
        socket.failSends()
        var second = harness.client.subscribe(launchAdded("VAFB")).makeAsyncIterator()
        #expect(try await socket.nextClose().0 == .goingAway)
        let wait = await harness.sleeps.nextArrival()
        guard case .reconnecting(1, _, let error) = harness.webSocket.status else {
            Issue.record("status \(harness.webSocket.status)")
            return
        }
        #expect(error.code == .connectionFailed)
        wait.open()
        let again = try await harness.connect()
        #expect(try await again.nextMessage("subscribe")["payload"]?["variables"] == ["site": "KSC"])
        #expect(try await again.nextMessage("subscribe")["payload"]?["variables"] == ["site": "VAFB"])
        again.push(nextMessage("2", ["launchAdded": ["id": "v1"]]))
        again.push(nextMessage("1", ["launchAdded": ["id": "k1"]]))
        #expect(try await second.next()?.data == ["launchAdded": ["id": "v1"]])
        #expect(try await first.next()?.data == ["launchAdded": ["id": "k1"]])
    }

    @Test("the last subscription ending during a backoff's wait stops the reconnection")
    func lastEndsWhileWaiting() async throws {
        let harness = try SubscriptionHarness()
        let stream = harness.client.subscribe(launchAdded())
        let socket = try await harness.connect()
        _ = try await socket.nextMessage("subscribe")
        socket.drop()
        _ = await harness.sleeps.nextArrival()
        let reader = Task { for try await _ in stream {} }
        reader.cancel()
        _ = await reader.result
        await harness.sleeps.waitUntilSettled(calls: 1)
        #expect(harness.sleeps.cancelledCalls == [1], "the wait was cancelled")
        #expect(harness.webSocket.status.description == "idle")
        #expect(harness.server.connects.allArguments.count == 1)
    }
}

/// Numbers from 1, for closures that count their calls.
final class Counter: Sendable {
    private let count = Lock(0)
    func next() -> Int {
        count.withLock { count in
            count += 1
            return count
        }
    }
}
