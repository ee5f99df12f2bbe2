import Foundation
import PagingGraphQLClient

/// One input: any bytes. The reader either throws or gives a value; a value written back as
/// JSON reads as the same value (the writer and the reader agree).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSON(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let data = Data(bytes: start, count: count)
    guard let value = try? JSONValue(json: data) else { return 0 }
    let written = value.jsonData(sortingKeys: true)
    guard let again = try? JSONValue(json: written) else {
        fatalError("the reader refuses what the writer wrote: \(String(decoding: written, as: UTF8.self))")
    }
    guard again == value else {
        fatalError("a value changed through the writer: \(value) became \(again)")
    }
    return 0
}
