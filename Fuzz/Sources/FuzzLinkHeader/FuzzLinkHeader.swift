import Foundation
import PagingExport

private let base = URL(string: "https://api.example.com/v1/launches?page=2")

/// One input: the value of a `Link` header. Reading its `next` link, as an export of a REST list does,
/// gives a URL or nothing; a URL it gives is absolute.
///
/// One relation an input: the reader treats every relation type alike, so asking for `prev` and
/// `last` too covered nothing more and took three times as long an input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzLinkHeader(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    guard let base else { return 0 }
    let value = String(decoding: UnsafeBufferPointer(start: start, count: count), as: UTF8.self)
    if let target = LinkHeader.target(of: "next", in: value, base: base), target.scheme == nil {
        fatalError("a relative link came back unresolved: \(target)")
    }
    return 0
}
