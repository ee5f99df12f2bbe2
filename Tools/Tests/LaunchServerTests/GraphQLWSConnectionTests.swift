import Foundation
import GraphQL
import Testing

@testable import LaunchServer

/// The server's side of the `graphql-transport-ws` protocol, frame by frame: the handshake, the
/// subscriptions' lifecycle, and every way a client can break the protocol, each closing the
/// socket with the protocol's code.
@Suite("graphql-transport-ws: the server's side of a connection")
struct GraphQLWSConnectionTests {
    typealias Connection = GraphQLWSConnection

    static let subscribe =
        #"{"id":"1","type":"subscribe","payload":{"query":"subscription { launchAdded { id } }"}}"#

    /// A connection past its handshake.
    static func acknowledged() -> Connection {
        var connection = Connection()
        #expect(connection.receive(text: #"{"type":"connection_init"}"#) == [.send(.connectionAck)])
        return connection
    }

    /// The code of the close a list of actions ends with.
    static func closeCode(_ actions: [Connection.Action]) -> UInt16? {
        guard case .close(let code, _) = actions.last else { return nil }
        return code
    }

    @Test("connection_init is acknowledged, its payload checked; a refused one closes with 4403")
    func handshake() {
        var connection = Connection(authorize: { $0?["token"] == "secret" })
        #expect(!connection.isAcknowledged)
        let refused = connection.receive(text: #"{"type":"connection_init","payload":{"token":"wrong"}}"#)
        #expect(Self.closeCode(refused) == 4403)
        #expect(connection.isClosed)

        var accepted = Connection(authorize: { $0?["token"] == "secret" })
        #expect(
            accepted.receive(text: #"{"type":"connection_init","payload":{"token":"secret"}}"#)
                == [.send(.connectionAck)])
        #expect(accepted.isAcknowledged)
    }

    @Test("a second connection_init closes with 4429; no connection_init in time, with 4408")
    func initRules() {
        var connection = Self.acknowledged()
        #expect(connection.initTimedOut() == [], "acknowledged: the wait is over")
        #expect(Self.closeCode(connection.receive(text: #"{"type":"connection_init"}"#)) == 4429)

        var waiting = Connection()
        #expect(Self.closeCode(waiting.initTimedOut()) == 4408)
        #expect(waiting.receive(text: #"{"type":"connection_init"}"#) == [], "closed: nothing more")
    }

    @Test("subscribe before the acknowledgement closes with 4401; complete too")
    func operationsBeforeAck() {
        var connection = Connection()
        #expect(Self.closeCode(connection.receive(text: Self.subscribe)) == 4401)
        var other = Connection()
        #expect(Self.closeCode(other.receive(text: #"{"id":"1","type":"complete"}"#)) == 4401)
    }

    @Test("ping is answered with pong at any time, its payload echoed; pong needs no answer")
    func pingPong() {
        var connection = Connection()
        #expect(connection.receive(text: #"{"type":"ping"}"#) == [.send(.pong(payload: nil))])
        #expect(
            connection.receive(text: #"{"type":"ping","payload":{"at":1}}"#) == [
                .send(.pong(payload: ["at": 1]))
            ])
        #expect(connection.receive(text: #"{"type":"pong"}"#) == [])
        #expect(!connection.isClosed)
    }

    @Test("a subscription starts, sends its results while active, and completes once")
    func subscriptionLifecycle() throws {
        var connection = Self.acknowledged()
        let actions = connection.receive(text: Self.subscribe)
        #expect(actions == [.start(id: "1", .init(query: "subscription { launchAdded { id } }"))])
        #expect(connection.active == ["1"])

        let result = GraphQLResult(data: ["launchAdded": ["id": "42"]])
        #expect(connection.next(id: "1", result) == [.send(.next(id: "1", payload: result))])
        #expect(connection.next(id: "2", result) == [], "no subscription 2")
        #expect(connection.finished(id: "1") == [.send(.complete(id: "1"))])
        #expect(connection.next(id: "1", result) == [], "completed: nothing more")
        #expect(connection.finished(id: "1") == [], "complete once")
        #expect(connection.active.isEmpty)

        // The id can be used again once its subscription is over.
        #expect(connection.receive(text: Self.subscribe).count == 1)
    }

    @Test("an id in use by an active subscription closes with 4409, stopping the others")
    func duplicateID() {
        var connection = Self.acknowledged()
        _ = connection.receive(text: Self.subscribe)
        let actions = connection.receive(text: Self.subscribe)
        #expect(actions.first == .stop(id: "1"))
        #expect(Self.closeCode(actions) == 4409)
        guard case .close(_, let reason) = actions.last else { return }
        #expect(reason == "Subscriber for 1 already exists")
    }

    @Test("complete from the client stops its subscription; for an id not active it does nothing")
    func clientComplete() {
        var connection = Self.acknowledged()
        _ = connection.receive(text: Self.subscribe)
        #expect(connection.receive(text: #"{"id":"1","type":"complete"}"#) == [.stop(id: "1")])
        #expect(connection.receive(text: #"{"id":"1","type":"complete"}"#) == [])
        #expect(connection.receive(text: #"{"id":"9","type":"complete"}"#) == [])
        #expect(connection.finished(id: "1") == [], "the client ended it: no complete back")
        #expect(!connection.isClosed)
    }

    @Test("a failed subscription sends error and no complete")
    func failedSubscription() {
        var connection = Self.acknowledged()
        _ = connection.receive(text: Self.subscribe)
        let errors = [GraphQLError(message: "Cannot query field \"nope\"")]
        #expect(connection.failed(id: "1", errors: errors) == [.send(.error(id: "1", errors: errors))])
        #expect(connection.finished(id: "1") == [])
    }

    @Test(
        "frames that break the protocol close with 4400",
        arguments: [
            "not json", "[1,2]", "42", #"{"id":"1"}"#, #"{"type":7}"#, #"{"type":"start"}"#,
            #"{"type":"next","id":"1","payload":{}}"#, #"{"type":"connection_ack"}"#,
            #"{"type":"error","id":"1","payload":[]}"#, #"{"type":"subscribe","payload":{"query":"{ a }"}}"#,
            #"{"type":"subscribe","id":"","payload":{"query":"{ a }"}}"#,
            #"{"type":"subscribe","id":7,"payload":{}}"#,
            #"{"type":"subscribe","id":"1"}"#, #"{"type":"subscribe","id":"1","payload":{"query":7}}"#,
            #"{"type":"complete"}"#, #"{"type":"ping","payload":[1]}"#, String(repeating: "[", count: 513),
        ])
    func badFrames(frame: String) {
        var connection = Self.acknowledged()
        _ = connection.receive(text: Self.subscribe)
        let actions = connection.receive(text: frame)
        #expect(Self.closeCode(actions) == 4400, "\(frame.prefix(40))")
        #expect(actions.first == .stop(id: "1"), "the running subscription stops")
        #expect(connection.isClosed)
        #expect(connection.receive(text: #"{"type":"ping"}"#) == [], "closed: nothing more")
    }

    @Test("a bad connection_init payload closes with 4400")
    func badInitPayload() {
        var connection = Connection()
        #expect(
            Self.closeCode(connection.receive(text: #"{"type":"connection_init","payload":"token"}"#)) == 4400
        )
    }

    @Test("a binary frame, or a frame over the limit, closes with 4400")
    func binaryAndOversized() {
        var connection = Self.acknowledged()
        #expect(Self.closeCode(connection.receiveBinary()) == 4400)

        var small = Connection(maximumMessageBytes: 64)
        let frame = #"{"type":"ping","payload":{"pad":""# + String(repeating: "x", count: 64) + #""}}"#
        #expect(Self.closeCode(small.receive(text: frame)) == 4400)
    }

    @Test("the socket closing stops every running subscription, once")
    func socketClosed() {
        var connection = Self.acknowledged()
        _ = connection.receive(text: Self.subscribe)
        _ = connection.receive(
            text: #"{"id":"2","type":"subscribe","payload":{"query":"subscription { a }"}}"#)
        #expect(connection.socketClosed() == [.stop(id: "1"), .stop(id: "2")])
        #expect(connection.socketClosed() == [])
    }

    @Test("close reasons fit a close frame's 123 bytes, cut at a character")
    func reasonLength() {
        let long = String(repeating: "é", count: 100)  // 200 bytes
        let cut = Connection.truncated(long)
        #expect(cut.utf8.count <= 123)
        #expect(cut.utf8.count == 122)
        #expect(long.hasPrefix(cut))
        var connection = Self.acknowledged()
        let id = String(repeating: "x", count: 200)
        _ = connection.receive(
            text: #"{"id":"\#(id)","type":"subscribe","payload":{"query":"subscription { a }"}}"#)
        let actions = connection.receive(
            text: #"{"id":"\#(id)","type":"subscribe","payload":{"query":"subscription { a }"}}"#)
        guard case .close(let code, let reason) = actions.last else {
            Issue.record("no close")
            return
        }
        #expect(code == 4409)
        #expect(reason.utf8.count <= 123)
    }

    @Test("outgoing messages as text")
    func outgoingText() throws {
        #expect(try Connection.Outgoing.connectionAck.text() == #"{"type":"connection_ack"}"#)
        #expect(try Connection.Outgoing.complete(id: "7").text() == #"{"id":"7","type":"complete"}"#)
        #expect(try Connection.Outgoing.pong(payload: nil).text() == #"{"type":"pong"}"#)
        let next = try Connection.Outgoing.next(id: "1", payload: GraphQLResult(data: ["a": 1])).text()
        let object = try #require(try JSONSerialization.jsonObject(with: Data(next.utf8)) as? [String: Any])
        #expect(object["type"] as? String == "next")
        #expect(object["id"] as? String == "1")
        #expect((object["payload"] as? [String: Any])?["data"] as? [String: Int] == ["a": 1])
    }
}
