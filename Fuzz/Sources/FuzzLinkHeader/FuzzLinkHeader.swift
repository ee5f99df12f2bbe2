import Foundation

@testable import PagingCLI

private let base = URL(string: "https://api.example.com/v1/launches?page=2")

/// One input: the value of a `Link` header. Reading it gives a URL or nothing; a URL it gives
/// is absolute.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzLinkHeader(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    guard let base else { return 0 }
    let value = String(decoding: UnsafeBufferPointer(start: start, count: count), as: UTF8.self)
    for relation in ["next", "last", "prev"] {
        if let target = LinkHeader.target(of: relation, in: value, base: base), target.scheme == nil {
            fatalError("a relative link came back unresolved: \(target)")
        }
    }
    return 0
}
