import Foundation

@testable import PagingGraphQLClient

/// One input: a script of one `graphql-transport-ws` connection as the client sees it, one
/// event a line, through the client's state machine (`GraphQLWSClientStateMachine`):
///
/// - `o` + JSON: the socket opened, with the rest as the `connection_init` payload (none when it
///   is not JSON);
/// - `+` + digit: subscriber 0...9 subscribes (the rest of the line is its query);
/// - `-` + digit: the client ends that subscriber's subscription;
/// - `t`: the acknowledgement's wait ran out; `c`: the client closes; `l`: the socket was lost;
/// - `!` + code + space + reason: the server's close frame; `#` + bytes: a binary frame;
/// - any other line: a text frame from the server.
///
/// Whatever the script: no trap; a closed connection does nothing more; the client sends only
/// its own messages, `connection_init` first and once, each `subscribe` under a new id and only
/// on an acknowledged connection, `complete` only for an id it subscribed; results go only to
/// running subscribers; the machine's subscriptions are the ones the model says run; a close
/// has one of the client's codes (1000, 4400, 4504) and a reason within 123 bytes; a failure is
/// the last action, and the connection is over after it.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSubscriptionClient(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: start, count: count), as: UTF8.self)
    var machine = GraphQLWSClientStateMachine<Int>()
    var model = ClientModel()
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
        let wasClosed = machine.isClosed
        let (actions, event) = step(&machine, line: line)
        if wasClosed, !actions.isEmpty { fatalError("a closed connection acted on \(line): \(actions)") }
        model.check(actions, after: event, wasClosed: wasClosed, on: machine)
    }
    return 0
}

/// What a line of the script did, for the checks.
private enum Event {
    case opened
    case subscribed(Int)
    case completed(Int)
    case timedOut
    case closed
    case lost
    case frame
}

/// Runs one line of the script.
private func step(_ machine: inout GraphQLWSClientStateMachine<Int>, line: Substring) -> (
    [GraphQLWSClientStateMachine<Int>.Action], Event
) {
    let rest = line.dropFirst()
    let subscriber = rest.first?.wholeNumberValue ?? 0
    switch line.first {
    case "o":
        let payload = try? JSONValue(json: Data(rest.utf8))
        return (machine.opened(payload: payload), .opened)
    case "+":
        return (
            machine.subscribe(subscriber, payload: ["query": .string(String(rest.dropFirst()))]),
            .subscribed(subscriber)
        )
    case "-":
        return (machine.complete(subscriber), .completed(subscriber))
    case "t":
        return (machine.acknowledgementTimedOut(), .timedOut)
    case "c":
        return (machine.close(), .closed)
    case "l":
        machine.socketLost()
        return ([], .lost)
    case "!":
        let digits = rest.prefix { $0.isASCII && $0.isNumber }.prefix(5)
        let code = UInt16(digits).map(WebSocketCloseCode.init(rawValue:)) ?? .noStatusReceived
        let reason = String(rest.dropFirst(digits.count).dropFirst())
        return (machine.received(.closed(code: code, reason: reason)), .frame)
    case "#":
        return (machine.received(.binary(Data(rest.utf8))), .frame)
    default:
        return (machine.received(.text(String(line))), .frame)
    }
}

/// What the client may do, kept beside the machine.
private struct ClientModel {
    /// The subscribers whose subscriptions run.
    var running: Set<Int> = []
    var sentInitialization = false
    var acknowledged = false
    /// The ids of the `subscribe` messages sent.
    var subscribedIDs: Set<String> = []
    var completedIDs: Set<String> = []
    var failed = false
    var closeSent = false

    mutating func check(
        _ actions: [GraphQLWSClientStateMachine<Int>.Action], after event: Event, wasClosed: Bool,
        on machine: GraphQLWSClientStateMachine<Int>
    ) {
        switch event {
        case .subscribed(let subscriber) where !wasClosed: running.insert(subscriber)
        case .completed(let subscriber): running.remove(subscriber)
        default: break
        }
        for (index, action) in actions.enumerated() {
            switch action {
            case .send(let text):
                checkSend(text, after: event, on: machine)
            case .acknowledged(let payload):
                guard case .frame = event, !acknowledged, payload?.objectValue != nil || payload == nil else {
                    fatalError("acknowledged again, or not by the server: \(actions)")
                }
                acknowledged = true
            case .started(let subscribers):
                guard case .frame = event, !subscribers.isEmpty, subscribers.allSatisfy(running.contains)
                else {
                    fatalError("started \(subscribers), not all running, or not at a pong: \(actions)")
                }
            case .next(let subscriber, let payload):
                guard running.contains(subscriber), payload.objectValue != nil else {
                    fatalError("a result for \(subscriber), which does not run: \(actions)")
                }
            case .error(let subscriber, _), .complete(let subscriber):
                guard running.remove(subscriber) != nil else {
                    fatalError("\(subscriber) ended but did not run: \(actions)")
                }
            case .close(let code, let reason):
                let expected: UInt16? =
                    switch event {
                    case .closed: 1000
                    case .timedOut: 4504
                    case .frame: 4400
                    default: nil
                    }
                guard !closeSent, code.rawValue == expected, reason.utf8.count <= 123, machine.isClosed else {
                    fatalError("a close \(code) \(reason) after \(event)")
                }
                closeSent = true
            case .failed:
                guard index == actions.count - 1, !failed, machine.isClosed else {
                    fatalError("a failure that is not the last action, or a second one: \(actions)")
                }
                failed = true
            }
        }
        if machine.isClosed { running = [] }
        let ids = machine.activeIDs
        guard Set(ids.keys) == running, Set(ids.values).count == ids.count else {
            fatalError("running \(running), the machine's \(ids)")
        }
    }

    /// A frame the client sends: one of its own messages, in the protocol's order.
    private mutating func checkSend(
        _ text: String, after event: Event, on machine: GraphQLWSClientStateMachine<Int>
    ) {
        guard let message = try? JSONValue(json: Data(text.utf8)), case .string(let type)? = message["type"]
        else {
            fatalError("the client sent something that is not a message: \(text)")
        }
        let id = message["id"]?.stringValue
        switch type {
        case "connection_init":
            guard case .opened = event, !sentInitialization else {
                fatalError("connection_init again: \(text)")
            }
            sentInitialization = true
        case "subscribe":
            guard sentInitialization, machine.isAcknowledged, let id, subscribedIDs.insert(id).inserted else {
                fatalError("a subscribe before the acknowledgement, or with an id used: \(text)")
            }
        case "complete":
            guard machine.isAcknowledged, let id, subscribedIDs.contains(id), completedIDs.insert(id).inserted
            else {
                fatalError("a complete for an id not subscribed, or completed: \(text)")
            }
        case "pong":
            guard case .frame = event else { fatalError("a pong not answering the server: \(text)") }
        case "ping":
            // The barrier after subscribe messages: only once acknowledged.
            guard machine.isAcknowledged else { fatalError("a ping before the acknowledgement: \(text)") }
        default:
            fatalError("the client sent a \(type)")
        }
    }
}
