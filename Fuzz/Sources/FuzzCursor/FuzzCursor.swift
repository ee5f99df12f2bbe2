import Foundation

@testable import LaunchServer

/// One input: the text of a cursor, as a client would send it. Decoding it gives a position
/// or a `CursorError`; a position it gives encodes to a cursor that decodes to it again.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCursor(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: start, count: count), as: UTF8.self)
    guard let position = try? LaunchCursor.decode(text) else { return 0 }
    let again: KeysetPosition
    do {
        again = try LaunchCursor.decode(LaunchCursor.encode(position))
    } catch {
        fatalError("a cursor this server wrote does not decode: \(error)")
    }
    guard again == position else {
        fatalError("a position changed through its cursor: \(position) became \(again)")
    }
    return 0
}
