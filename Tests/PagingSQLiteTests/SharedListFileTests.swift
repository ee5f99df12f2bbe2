import Foundation
import Paging
import PagingTestSupport
import PagingTesting
import Testing

@testable import PagingSQLite

/// Two sources over one list in one file, each through a connection of its
/// own, as an app and its widget (two processes) share a list: a page one
/// stored is a page the other reads; a refresh in one leaves the other
/// paging on with every item once. (Two real processes are in the Tools
/// package's tests, `paging demo --database` twice at once.)
@Suite("OfflineFirstSource, one list shared by two", .timeLimit(.minutes(HangLimit.minutes(1))))
struct SharedListFileTests {
    typealias Launches = RemoteLaunches

    /// A pager over its own connection to the list in `path`.
    static func pager(_ remote: RemoteLaunches, path: String) throws -> (
        Pager<LocalPosition, StoredLaunch>, OfflineFirstSource<RemoteLaunches>
    ) {
        let source = OfflineFirstSource(remote: remote, file: try LocalListFile(path: path), list: "launches")
        return (Pager(source: source, configuration: try OfflineFirstSourceTests.configuration()), source)
    }

    @Test("a page the other stored past where both were is read from the file, with no request and no stop")
    func otherAppended() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.file()
        let remote = RemoteLaunches(count: 35)
        let (first, _) = try Self.pager(remote, path: path)
        let (second, _) = try Self.pager(remote, path: path)
        _ = try await first.loadNext().value
        _ = try await second.loadNext().value  // the first's page, from the file
        #expect(remote.requests.count == 1)

        // Both at the file's end; the first pages on and stores the next page.
        _ = try await first.loadNext().value
        #expect(remote.requests.count == 2)
        // The second reads that page from the file: before, its own append wrote nothing and it
        // returned the key it was asked with, and its pager stopped with a repeated key.
        #expect(try await second.loadNext().value == .loaded)
        #expect(remote.requests.count == 2, "the page the other stored is read, not asked for")
        #expect(Array(second.items) == Array(Launches.launches(count: 20)))

        #expect(try await OfflineFirstSourceTests.loadAll(second) == Launches.launches(count: 35))
        #expect(try await OfflineFirstSourceTests.loadAll(first) == Launches.launches(count: 35))
        #expect(try LocalListFile(path: path).itemCount(list: "launches") == 35, "each page stored once")
    }

    /// A remote source whose next pages wait at a gate: both sources have
    /// read the file's end before either writes the page.
    struct GatedRemote: PageSource {
        let base: RemoteLaunches
        let gate: FetchGate<PageRequest<Int>>

        func load(_ request: PageRequest<Int>) async throws -> Page<Int, StoredLaunch> {
            if request.direction == .next { try await gate.pass(request) }
            return try await base.load(request)
        }
    }

    @Test("when both ask the server for the same page at once, it is stored once and both show it once")
    func bothFetchTheSamePage() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.file()
        let remote = RemoteLaunches(count: 35)
        let gate = FetchGate<PageRequest<Int>>()
        let configuration = try OfflineFirstSourceTests.configuration()
        let (first, second) = try (0..<2).map { _ in
            Pager(
                source: OfflineFirstSource(
                    remote: GatedRemote(base: remote, gate: gate), file: try LocalListFile(path: path),
                    list: "launches"),
                configuration: configuration)
        }.pair()
        _ = try await first.loadNext().value
        _ = try await second.loadNext().value
        // Both read the file's end and ask the server for the page after it; the first's answer
        // is stored first, and the second's append finds the list grown.
        let a = first.loadNext()
        let firstCall = await gate.nextArrival()
        let b = second.loadNext()
        let secondCall = await gate.nextArrival()
        firstCall.open()
        #expect(try await a.value == .loaded)
        secondCall.open()
        #expect(try await b.value == .loaded)
        #expect(Array(first.items) == Array(Launches.launches(count: 20)))
        #expect(Array(second.items) == Array(Launches.launches(count: 20)))
        #expect(try LocalListFile(path: path).itemCount(list: "launches") == 20)
    }

    @Test("after the other refreshed the list, paging goes on after the same launch, with none repeated")
    func otherRefreshedWithTheItem() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.file()
        let remote = RemoteLaunches(count: 35)
        let (reader, _) = try Self.pager(remote, path: path)
        _ = try await reader.loadNext().value
        _ = try await reader.loadNext().value  // 0...19

        // The other refreshes: three new launches on top, and it pages on to launch 19 and past.
        let newer = (1...3).map { StoredLaunch(id: "new\($0)", name: "New \($0)") }
        remote.replace(with: newer + Launches.launches(count: 35))
        let (refresher, _) = try Self.pager(remote, path: path)
        _ = try await refresher.loadNext().value  // opens from the file
        _ = try await refresher.refresh().value
        for _ in 0..<3 { _ = try await refresher.loadNext().value }
        #expect(refresher.items.count == 38)

        #expect(try await OfflineFirstSourceTests.loadAll(reader) == Launches.launches(count: 35))
    }

    /// Launch 19 gone from the server, and three new on top.
    static func changedLaunches() -> [StoredLaunch] {
        (1...3).map { StoredLaunch(id: "new\($0)", name: "New \($0)") }
            + Launches.launches(count: 35).filter { $0.id != "19" }
    }

    @Test(
        "after the other refreshed the list without the last launch the file held, paging goes on from the network"
    )
    func otherRefreshedWithoutTheLastItem() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.file()
        let remote = RemoteLaunches(count: 35)
        let (reader, source) = try Self.pager(remote, path: path)
        _ = try await reader.loadNext().value
        _ = try await reader.loadNext().value  // 0...19, the file's end

        // The other refreshes the list from the server, which has changed.
        remote.replace(with: Self.changedLaunches())
        let (refresher, _) = try Self.pager(remote, path: path)
        _ = try await refresher.loadNext().value  // opens from the file
        _ = try await refresher.refresh().value
        let requests = remote.requests.count

        // The reader goes on after its own key (offset 20 of this server), in memory; its own
        // refresh would show the new launches on top.
        let shown = try await OfflineFirstSourceTests.loadAll(reader)
        #expect(Set(shown.map(\.id)).count == shown.count, "no launch twice")
        #expect(shown.map(\.id) == (0..<35).map(String.init), "launches 0...34, in order")
        #expect(remote.requests.count - requests == 2, "one request a page past what it shows")
        #expect(remote.requests.dropFirst(requests).first == PageRequest(.next(after: 20), count: 10))
        #expect(
            try LocalListFile(path: path).itemCount(list: "launches") == 10, "the file keeps the other's list"
        )
        #expect(source.lastWriteError == nil)
    }

    @Test(
        "after the other refreshed the list without the launch a reader of the file was at, it reads the new list from its start"
    )
    func otherRefreshedWithoutTheItemMidFile() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.file()
        let remote = RemoteLaunches(count: 35)
        do {
            let (writer, _) = try Self.pager(remote, path: path)
            _ = try await OfflineFirstSourceTests.loadAll(writer)  // the file holds 0...34
        }
        let (reader, _) = try Self.pager(remote, path: path)
        _ = try await reader.loadNext().value
        _ = try await reader.loadNext().value  // 0...19, read from the file
        let requests = remote.requests.count

        let now = Self.changedLaunches()
        remote.replace(with: now)
        let (refresher, _) = try Self.pager(remote, path: path)
        _ = try await refresher.loadNext().value  // opens from the file
        _ = try await refresher.refresh().value
        _ = try await OfflineFirstSourceTests.loadAll(refresher)  // the file holds the new list

        let shown = try await OfflineFirstSourceTests.loadAll(reader)
        #expect(Set(shown.map(\.id)).count == shown.count, "no launch twice")
        #expect(Array(shown.prefix(20)) == Array(Launches.launches(count: 20)), "what was shown stays")
        // Read from the file: what the new list holds that the reader did not show, in its order.
        let shownBefore = Set((0..<20).map { String($0) })
        #expect(shown.dropFirst(20).map(\.id) == now.map(\.id).filter { !shownBefore.contains($0) })
        #expect(remote.requests.count - requests == 4, "the refresher's requests only: a refresh and 3 pages")
    }

    @Test("a page stored after the other removed the last stored launch locally goes on from there")
    func otherRemovedTheLastItem() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.file()
        let remote = RemoteLaunches(count: 35)
        let (reader, _) = try Self.pager(remote, path: path)
        _ = try await reader.loadNext().value  // 0...9
        let (editor, editing) = try Self.pager(remote, path: path)
        _ = try await editor.loadNext().value
        #expect(try await editing.remove(id: "9"))

        #expect(try await reader.loadNext().value == .loaded)
        #expect(Array(reader.items) == Array(Launches.launches(count: 20)), "the list goes on after launch 9")
        #expect(try LocalListFile(path: path).itemCount(list: "launches") == 19)
    }
}

extension Array {
    /// The two elements of an array of two.
    fileprivate func pair() throws -> (Element, Element) {
        try #require(count == 2)
        return (self[0], self[1])
    }
}
