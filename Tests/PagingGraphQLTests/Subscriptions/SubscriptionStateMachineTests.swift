import Foundation
import Testing

@testable import PagingGraphQLClient

/// The client's side of the `graphql-transport-ws` protocol, event by event, without a
/// socket: the handshake, the subscriptions' ids and routing, ping and pong, and every
/// way a server can break the protocol, each closing with 4400.
@Suite("graphql-transport-ws: the client's side of a connection")
struct SubscriptionStateMachineTests {
    typealias Machine = GraphQLWSClientStateMachine<String>

    static let operation: JSONValue = ["query": "subscription { launchAdded { id } }"]
    static let ack = #"{"type":"connection_ack"}"#

    /// A machine past its handshake, with subscriber `a` running as id 1.
    static func acknowledged() -> Machine {
        var machine = Machine()
        _ = machine.opened(payload: nil)
        _ = machine.subscribe("a", payload: operation)
        _ = machine.received(.text(ack))
        return machine
    }

    static func subscribeText(_ id: String) -> String {
        #"{"id":"\#(id)","payload":{"query":"subscription { launchAdded { id } }"},"type":"subscribe"}"#
    }

    @Test(
        "connection_init goes first with the parameters; subscribe waits for connection_ack, then goes in order"
    )
    func handshake() {
        var bare = Machine()
        #expect(bare.opened(payload: nil) == [.send(#"{"type":"connection_init"}"#)], "no payload: none sent")
        var machine = Machine()
        #expect(machine.subscribe("a", payload: Self.operation) == [], "before the socket opened: queued")
        #expect(
            machine.opened(payload: ["authToken": "secret"])
                == [.send(#"{"payload":{"authToken":"secret"},"type":"connection_init"}"#)])
        #expect(machine.opened(payload: nil) == [], "once")
        #expect(machine.subscribe("b", payload: Self.operation) == [])
        #expect(machine.subscribe("c", payload: Self.operation) == [])
        #expect(machine.subscribe("c", payload: Self.operation) == [], "a subscriber has one subscription")
        #expect(machine.complete("b") == [], "never sent, so nothing to complete")
        #expect(!machine.isAcknowledged)
        #expect(
            machine.received(.text(#"{"type":"connection_ack","payload":{"server":"launches"}}"#)) == [
                .send(Self.subscribeText("1")), .send(Self.subscribeText("3")), .send(Self.ping),
                .acknowledged(payload: ["server": "launches"]),
            ])
        #expect(machine.isAcknowledged)
        #expect(
            machine.subscribe("d", payload: Self.operation) == [
                .send(Self.subscribeText("4")), .send(Self.ping),
            ])
        #expect(machine.activeIDs == ["a": "1", "c": "3", "d": "4"])
    }

    static let ping = #"{"type":"ping"}"#

    @Test(
        "each pong answers the oldest ping sent after subscribes: those subscriptions are started, in order")
    func startedAtPong() {
        var machine = Machine()
        _ = machine.subscribe("a", payload: Self.operation)
        _ = machine.subscribe("b", payload: Self.operation)
        _ = machine.opened(payload: nil)
        #expect(machine.received(.text(#"{"type":"pong"}"#)) == [], "no ping sent yet: a heartbeat")
        _ = machine.received(.text(#"{"type":"connection_ack"}"#))
        _ = machine.subscribe("c", payload: Self.operation)
        _ = machine.subscribe("d", payload: Self.operation)
        _ = machine.complete("d")
        #expect(machine.received(.text(#"{"type":"pong","payload":{"any":1}}"#)) == [.started(["a", "b"])])
        #expect(machine.received(.text(#"{"type":"pong"}"#)) == [.started(["c"])])
        #expect(machine.received(.text(#"{"type":"pong"}"#)) == [], "d was completed before its pong")
        #expect(machine.received(.text(#"{"type":"pong"}"#)) == [], "no ping waits")
        #expect(!machine.isClosed)
    }

    @Test("results are routed to their subscribers by id")
    func routing() {
        var machine = Self.acknowledged()
        _ = machine.subscribe("b", payload: Self.operation)
        #expect(
            machine.received(.text(#"{"type":"next","id":"2","payload":{"data":{"n":2}}}"#))
                == [.next("b", payload: ["data": ["n": 2]])])
        #expect(
            machine.received(.text(#"{"id":"1","type":"next","payload":{"data":{"n":1}}}"#))
                == [.next("a", payload: ["data": ["n": 1]])])
        #expect(
            machine.received(.text(#"{"type":"next","id":"1","payload":{"data":null,"errors":[]}}"#))
                == [.next("a", payload: ["data": nil, "errors": []])])
    }

    @Test("ping is answered with pong at any time, its payload echoed; pong needs nothing")
    func pingPong() {
        var machine = Machine()
        _ = machine.opened(payload: nil)
        #expect(machine.received(.text(#"{"type":"ping"}"#)) == [.send(#"{"type":"pong"}"#)])
        _ = machine.received(.text(Self.ack))
        #expect(
            machine.received(.text(#"{"type":"ping","payload":{"at":1}}"#))
                == [.send(#"{"payload":{"at":1},"type":"pong"}"#)])
        #expect(machine.received(.text(#"{"type":"pong","payload":{"at":2}}"#)) == [])
        #expect(machine.received(.text(#"{"type":"ping","payload":null}"#)) == [.send(#"{"type":"pong"}"#)])
        #expect(!machine.isClosed)
    }

    @Test("complete from the server ends its subscription; from the client, complete goes out once")
    func completeBothWays() {
        var machine = Self.acknowledged()
        _ = machine.subscribe("b", payload: Self.operation)
        #expect(machine.received(.text(#"{"type":"complete","id":"1"}"#)) == [.complete("a")])
        #expect(machine.complete("a") == [], "the server ended it: no complete back")
        #expect(machine.complete("b") == [.send(#"{"id":"2","type":"complete"}"#)])
        #expect(machine.complete("b") == [])
        #expect(machine.activeIDs.isEmpty)
        #expect(!machine.isClosed)
    }

    @Test("an error message ends its subscription with the server's errors")
    func errorMessage() {
        var machine = Self.acknowledged()
        let actions = machine.received(
            .text(
                #"{"type":"error","id":"1","payload":[{"message":"Unknown field nope","locations":[{"line":1,"column":3}]}]}"#
            ))
        #expect(
            actions == [
                .error(
                    "a",
                    [
                        GraphQLResponseError(
                            message: "Unknown field nope", locations: [.init(line: 1, column: 3)])
                    ])
            ])
        #expect(machine.activeIDs.isEmpty)
    }

    @Test("messages for an id the client completed are dropped: the server may have sent them first")
    func messagesAfterClientComplete() {
        var machine = Self.acknowledged()
        _ = machine.complete("a")
        #expect(machine.received(.text(#"{"type":"next","id":"1","payload":{"data":{}}}"#)) == [])
        #expect(machine.received(.text(#"{"type":"error","id":"1","payload":[]}"#)) == [])
        #expect(machine.received(.text(#"{"type":"complete","id":"1"}"#)) == [])
        #expect(!machine.isClosed)
    }

    @Test("the acknowledgement's wait closes with 4504, only before connection_ack")
    func acknowledgementTimeout() {
        var waiting = Machine()
        _ = waiting.opened(payload: nil)
        #expect(
            waiting.acknowledgementTimedOut() == [
                .close(.connectionAcknowledgementTimeout, reason: "Connection acknowledgement timeout"),
                .failed(.acknowledgementTimeout),
            ])
        #expect(waiting.isClosed)
        #expect(waiting.received(.text(Self.ack)) == [], "closed: nothing more")

        var acknowledged = Self.acknowledged()
        #expect(acknowledged.acknowledgementTimedOut() == [])
        #expect(!acknowledged.isClosed)
    }

    @Test("a close from the server fails the connection with its code and reason; then nothing comes out")
    func serverClose() {
        var machine = Self.acknowledged()
        #expect(
            machine.received(.closed(code: .forbidden, reason: "Forbidden"))
                == [.failed(.closed(.forbidden, reason: "Forbidden"))])
        #expect(machine.isClosed)
        #expect(machine.received(.text(#"{"type":"ping"}"#)) == [])
        #expect(machine.subscribe("b", payload: Self.operation) == [])
        #expect(machine.complete("a") == [])
        #expect(machine.close() == [])
    }

    @Test("close() closes normally, once")
    func normalClose() {
        var machine = Self.acknowledged()
        #expect(machine.close() == [.close(.normalClosure, reason: "Normal Closure")])
        #expect(machine.close() == [])
        #expect(machine.received(.closed(code: .normalClosure, reason: "")) == [])
    }

    @Test(
        "messages that break the protocol close with 4400 and fail the connection, whatever they hold",
        arguments: [
            "not json", "", "[1,2]", "42", "null", #"{"id":"1"}"#, #"{"type":7}"#, #"{"type":"start"}"#,
            #"{"type":"connection_init"}"#, #"{"type":"subscribe","id":"5","payload":{}}"#,
            #"{"type":"connection_ack"}"#, #"{"type":"next","id":"9","payload":{"data":{}}}"#,
            #"{"type":"next","id":"01","payload":{"data":{}}}"#,
            #"{"type":"next","id":"0","payload":{"data":{}}}"#,
            #"{"type":"complete","id":"2"}"#, #"{"type":"next","payload":{"data":{}}}"#,
            #"{"type":"next","id":1,"payload":{"data":{}}}"#, #"{"type":"next","id":"1"}"#,
            #"{"type":"next","id":"1","payload":[1]}"#,
            #"{"type":"error","id":"1","payload":{"message":"x"}}"#,
            #"{"type":"error","id":"1","payload":[{"text":"x"}]}"#, #"{"type":"error","id":"1"}"#,
            #"{"type":"ping","payload":7}"#, #"{"type":"pong","payload":"x"}"#,
            "{\"type\":\"next\",\"id\":\"1\",\"payload\":{\"data\":\"\u{FFFD}\"}",
        ])
    func badMessages(text: String) {
        var machine = Self.acknowledged()
        let actions = machine.received(.text(text))
        guard actions.count == 2, case .close(let code, let reason) = actions[0] else {
            Issue.record("no close for \(text.prefix(40)): \(actions)")
            return
        }
        #expect(code == .badRequest)
        #expect(actions[1] == .failed(.badMessage(reason)))
        #expect(reason.hasPrefix("Invalid message: "))
        #expect(machine.isClosed)
        #expect(machine.received(.text(#"{"type":"ping"}"#)) == [], "closed: nothing more")
    }

    @Test("JSON nested deeper than the reader goes closes with 4400, without a crash")
    func deepNesting() {
        for text in [String(repeating: "[", count: 600), String(repeating: #"{"a":"#, count: 600)] {
            var machine = Self.acknowledged()
            let actions = machine.received(.text(text))
            #expect(
                actions.first == .close(.badRequest, reason: "Invalid message: a message that is not JSON"))
        }
    }

    @Test("a binary frame, and next, error or complete before connection_ack, close with 4400")
    func badFramesBeforeAck() {
        var binary = Self.acknowledged()
        #expect(
            binary.received(.binary(Data([1, 2, 3]))).first
                == .close(.badRequest, reason: "Invalid message: a binary frame"))
        for text in [
            #"{"type":"next","id":"1","payload":{"data":{}}}"#, #"{"type":"error","id":"1","payload":[]}"#,
            #"{"type":"complete","id":"1"}"#, #"{"type":"connection_ack","payload":"yes"}"#,
        ] {
            var machine = Machine()
            _ = machine.opened(payload: nil)
            _ = machine.subscribe("a", payload: Self.operation)
            let actions = machine.received(.text(text))
            guard case .close(.badRequest, _)? = actions.first, case .failed(.badMessage)? = actions.last
            else {
                Issue.record("no 4400 for \(text): \(actions)")
                continue
            }
        }
    }

    @Test("close reasons fit a close frame's 123 bytes, cut at a character")
    func reasonLength() {
        let long = String(repeating: "é", count: 100)
        let cut = Machine.truncated(long)
        #expect(cut.utf8.count == 122)
        #expect(long.hasPrefix(cut))
        var machine = Self.acknowledged()
        let actions = machine.received(.text(#"{"type":"\#(String(repeating: "x", count: 200))"}"#))
        guard case .close(_, let reason)? = actions.first else {
            Issue.record("no close")
            return
        }
        #expect(reason.utf8.count <= 123)
    }
}
