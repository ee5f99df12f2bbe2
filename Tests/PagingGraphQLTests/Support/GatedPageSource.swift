import Paging
import PagingTesting

/// A source that holds each page its base loaded at a gate until the test
/// opens the call: the base has loaded the page (a store-backed base has
/// learned it, for the pager of the load), but the pager has not
/// taken it in. Unlike ``HeldPageSource``, it holds every load, the first
/// page of a refresh included.
///
/// ```swift
/// let gate = FetchGate<PageRequest<String>>()
/// let pager = Pager(source: GatedPageSource(base: source, gate: gate))
/// let refresh = pager.refresh()
/// let held = await gate.nextArrival()   // learned, not taken in
/// held.open()
/// try await refresh.value
/// ```
///
/// With `holdsFailures`, a load whose base failed waits at the gate too,
/// so that every load the pager starts reaches it (a test can then wait
/// for all of them with `CallGate.waitUntilSettled(calls:)`).
///
/// It passes each request on as it is, so the pager follows whatever its
/// base would have it follow.
struct GatedPageSource<Base: PageSource>: PageSource {
    let base: Base
    let gate: FetchGate<PageRequest<Base.Key>>
    var holdsFailures = false

    func load(_ request: PageRequest<Base.Key>) async throws -> Page<Base.Key, Base.Item> {
        guard holdsFailures else {
            let page = try await base.load(request)
            try await gate.pass(request)
            return page
        }
        let result: Result<Page<Base.Key, Base.Item>, any Error>
        do {
            result = .success(try await base.load(request))
        } catch {
            result = .failure(error)
        }
        try await gate.pass(request)
        return try result.get()
    }
}
