import Foundation
import GraphQL

@testable import LaunchServer

/// One input: a client's side of a `graphql-transport-ws` connection, one text frame a line (a
/// line that starts with `#` stands for a binary frame). The frames go through the server's
/// connection state machine; after each, every subscription running gets a result and, now and
/// then, ends. Whatever the frames: no trap, a closed connection says nothing more, a
/// subscription's messages go out only while it runs, and `complete` goes out at most once an id.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzWebSocketFrames(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: start, count: count), as: UTF8.self)
    var connection = GraphQLWSConnection(maximumMessageBytes: 4_096)
    var running: Set<String> = []
    for (index, frame) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
        let wasClosed = connection.isClosed
        let actions =
            frame.hasPrefix("#") ? connection.receiveBinary() : connection.receive(text: String(frame))
        if wasClosed, !actions.isEmpty { fatalError("a closed connection acted: \(actions)") }
        for action in actions {
            switch action {
            case .start(let id, _):
                guard running.insert(id).inserted else { fatalError("\(id) started twice") }
            case .stop(let id):
                guard running.remove(id) != nil else { fatalError("\(id) stopped but not running") }
            case .send(let message):
                if case .next(let id, _) = message, !running.contains(id) { fatalError("next for \(id)") }
                _ = try? message.text()
            case .close(let code, let reason):
                guard (4400...4499).contains(code), reason.utf8.count <= 123 else {
                    fatalError("close \(code) \(reason)")
                }
            }
        }
        if running != connection.active { fatalError("running \(running), active \(connection.active)") }
        for id in running.sorted() {
            _ = connection.next(id: id, GraphQLResult(data: ["n": Map(index)]))
            if index % 3 == 2 {
                guard connection.finished(id: id) == [.send(.complete(id: id))] else {
                    fatalError("no complete")
                }
                running.remove(id)
                guard connection.finished(id: id).isEmpty else { fatalError("complete twice") }
            }
        }
    }
    _ = connection.socketClosed()
    return 0
}
