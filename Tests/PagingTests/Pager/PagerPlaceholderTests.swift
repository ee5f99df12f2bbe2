import PagingLock
import PagingTestSupport
import PagingTesting
import Testing

@testable import Paging

/// Placeholders and jumps: a list whose source counts the whole list presents it whole, and
/// jumps to a far position with one request.
@Suite("Pager, placeholders and jumps", .timeLimit(.minutes(HangLimit.minutes(1))))
struct PagerPlaceholderTests {
    /// The list `0..<total` behind an offset API that reports its total; counts the requests and
    /// their offsets. Items' ids are their offsets.
    final class Backend: Sendable {
        let total: Int
        private let log = Lock<[(offset: Int, limit: Int)]>([])
        /// Offsets whose request fails.
        let failing = Lock<Set<Int>>([])

        init(total: Int) { self.total = total }

        var requests: [(offset: Int, limit: Int)] { log.withLock { $0 } }

        func source(_ direction: PagingDirection = .bidirectional) -> OffsetSource<TestItem> {
            OffsetSource(direction, checksDrift: false) { offset, limit in
                self.log.withLock { $0.append((offset, limit)) }
                if self.failing.withLock({ $0.contains(offset) }) { throw SourceFailure() }
                let end = min(self.total, offset + limit)
                return OffsetPage(
                    items: (min(offset, end)..<end).map { TestItem(id: $0) }, totalCount: self.total)
            }
        }
    }

    /// Waits until every load the pager started has been answered and taken in.
    private func settle(_ pager: Pager<Int, TestItem>) async {
        while true {
            let started = pager.requestsStarted
            await pager.waitUntilResponsesTaken(started)
            if pager.requestsStarted == started { return }
        }
    }

    /// A list of 10,000 with placeholders (pages of 10, a prefetch distance of 3) over a backend,
    /// its first page loaded, then jumped to `position`, with the loads that set off answered.
    private func jumped(to position: Int) async throws -> (Backend, Pager<Int, TestItem>) {
        let backend = Backend(total: 10_000)
        let configuration = try PagingConfiguration(pageSize: 10, prefetchDistance: 3, placeholders: true)
        let pager = Pager(source: backend.source(), configuration: configuration)
        _ = try await pager.loadNext().value
        _ = try await pager.jump(to: position).value
        await settle(pager)
        return (backend, pager)
    }

    /// Checks a snapshot's presented list against the backend: every held item at the position
    /// of its id, placeholders everywhere else, as many rows as the list can still reach.
    private func expectWhole(_ snapshot: PagingSnapshot<TestItem>, total: Int, _ context: String) {
        let presented = snapshot.presented
        guard let first = snapshot.items.first, let last = snapshot.items.last else { return }
        #expect(snapshot.placeholdersBefore == (snapshot.hasPrevious ? first.id : 0), "\(context)")
        #expect(snapshot.placeholdersAfter == (snapshot.hasNext ? total - 1 - last.id : 0), "\(context)")
        for position in presented.heldRange {
            #expect(presented[position]?.id == position, "\(context): position \(position)")
        }
        #expect(presented.heldRange.lowerBound == first.id, "\(context)")
    }

    @Test("pages fill placeholders and a window drops items back into them, as rows updated: nothing moves")
    func scrollingKeepsRows() async throws {
        let backend = Backend(total: 100)
        let pager = Pager(
            source: backend.source(), initialKey: 40,
            configuration: try PagingConfiguration(
                pageSize: 10, prefetchDistance: 2, maximumHeld: .pages(3), placeholders: true))
        let recorder = SnapshotRecorder(pager)
        _ = try await pager.loadNext().value
        #expect(pager.snapshot.presented.count == 100)
        expectWhole(pager.snapshot, total: 100, "first page at 40")
        // Down to the end, then back up to the top, one page at a time.
        while pager.hasNext { _ = try await pager.loadNext().value }
        while pager.hasPrevious { _ = try await pager.loadPrevious().value }
        let recorded = recorder.recorded
        let firstLoadedIndex = try #require(recorded.firstIndex { !$0.items.isEmpty })
        for (index, snapshot) in recorded.enumerated() where index > firstLoadedIndex {
            #expect(snapshot.presented.count == 100, "snapshot \(index)")
            #expect(
                snapshot.presentedChange.inserted.isEmpty && snapshot.presentedChange.removed.isEmpty,
                "snapshot \(index): \(snapshot.presentedChange)")
            expectWhole(snapshot, total: 100, "snapshot \(index)")
        }
        // Every presented change applies to the rows before it and gives the rows after it.
        let rows = try recorder.replayedPresentedRows()
        #expect(rows.map { $0?.id } == Array(pager.snapshot.presented).map { $0?.id })
        #expect(pager.snapshot.presented.heldRange == 0..<30)
        // The first snapshot with items inserted every row at once: the whole list, not one page.
        let firstLoaded = recorded[firstLoadedIndex]
        #expect(firstLoaded.presentedChange == ListChange(inserted: [0..<100]))
        #expect(firstLoaded.change == ListChange(inserted: [0..<10]))
    }

    @Test("a placeholder shown near the items held loads towards it, page after page, from that end")
    func nearPlaceholderLoadsTowardsIt() async throws {
        let backend = Backend(total: 200)
        let pager = Pager(
            source: backend.source(), initialKey: 100,
            configuration: try PagingConfiguration(
                pageSize: 10, prefetchDistance: 2, placeholders: true, jumpThreshold: 50))
        _ = try await pager.loadNext().value
        #expect(pager.snapshot.presented.heldRange == 100..<110)
        pager.itemAppeared(at: 135)  // 26 below the items held: within the threshold
        await settle(pager)
        let presented = pager.snapshot.presented
        #expect(presented.heldRange.contains(135) && presented.heldRange.lowerBound == 100)
        #expect(presented[135]?.id == 135)
        // Loaded forward only, until it was held farther than the prefetch distance from the end.
        #expect(backend.requests.map(\.offset) == [100, 110, 120, 130])
        pager.itemAppeared(at: 75)  // 25 above
        await settle(pager)
        #expect(pager.snapshot.presented[75]?.id == 75)
        #expect(backend.requests.map(\.offset).suffix(3) == [90, 80, 70])
        #expect(backend.requests.allSatisfy { $0.limit == 10 })
    }

    @Test(
        "a placeholder shown past the threshold is jumped to: one request, the rows stay, nothing between loads"
    )
    func farPlaceholderJumps() async throws {
        let backend = Backend(total: 1_000_000)
        let configuration = try PagingConfiguration(
            pageSize: 20, prefetchDistance: 10, maximumHeld: .pages(10), placeholders: true,
            jumpThreshold: 300)
        let pager = Pager(source: backend.source(), configuration: configuration)
        let recorder = SnapshotRecorder(pager)
        _ = try await pager.loadNext().value
        pager.itemAppeared(at: 900_000)
        await settle(pager)
        let snapshot = pager.snapshot
        #expect(snapshot.presented[900_000]?.id == 900_000)
        #expect(snapshot.presented.count == 1_000_000)
        // The first page, then the jump: the position in the middle of its page, no prefetch.
        #expect(backend.requests.count == 2)
        let jump = try #require(backend.requests.last)
        #expect(jump.limit == configuration.jumpLoadSize)
        #expect(jump.offset == 900_000 - configuration.jumpLoadSize / 2)
        #expect(
            snapshot.presentedChange == ListChange(updated: [0..<20, jump.offset..<jump.offset + jump.limit]))
        let rows = try recorder.replayedPresentedRows()
        #expect(rows.count == 1_000_000 && rows[900_000]?.id == 900_000 && rows[0] == nil)
        expectWhole(snapshot, total: 1_000_000, "after the jump")
        // Paging on from there, both ways.
        _ = try await pager.loadPrevious().value
        _ = try await pager.loadNext().value
        expectWhole(pager.snapshot, total: 1_000_000, "after paging from the jump")
        #expect(pager.snapshot.presented.heldRange.count == configuration.jumpLoadSize + 40)
    }

    @Test("jump(to:): to the end, to the top, a held position loads nothing, past the end is the last")
    func explicitJumps() async throws {
        let backend = Backend(total: 1_000)
        let configuration = try PagingConfiguration(pageSize: 10, prefetchDistance: 3, placeholders: true)
        let pager = Pager(source: backend.source(), configuration: configuration)
        #expect(pager.canJump)
        _ = try await pager.loadNext().value
        _ = try await pager.jump(to: 999).value
        await settle(pager)
        // Near the end: the page is kept within the total, and nothing loads after it.
        #expect(backend.requests.count == 2)
        #expect(backend.requests[1].offset == 1_000 - configuration.jumpLoadSize)
        #expect(pager.snapshot.presented[999]?.id == 999 && !pager.hasNext)
        #expect(try await pager.jump(to: 990).value == .loaded)  // held: nothing loads
        #expect(backend.requests.count == 2)
        #expect(try await pager.jump(to: 5_000).value == .loaded)  // past the end: the last position, held
        #expect(backend.requests.count == 2)
        _ = try await pager.jump(to: 0).value
        await settle(pager)
        #expect(backend.requests.count == 3 && backend.requests[2].offset == 0)
        #expect(pager.snapshot.presented[0]?.id == 0 && !pager.hasPrevious)
        #expect(pager.snapshot.presented.count == 1_000)
        let negative = await #expect(throws: PagingError.self) { try await pager.jump(to: -1).value }
        #expect(negative?.code == .invalidArgument)
    }

    @Test("without placeholders a jump replaces the items with the page around the index")
    func jumpWithoutPlaceholders() async throws {
        let backend = Backend(total: 500)
        let pager = Pager(source: backend.source(), configuration: try PagingConfiguration(pageSize: 10))
        _ = try await pager.loadNext().value
        _ = try await pager.jump(to: 300).value
        let snapshot = pager.snapshot
        #expect(snapshot.items.contains { $0.id == 300 })
        #expect(snapshot.items.first?.id == 300 - pager.configuration.jumpLoadSize / 2)
        #expect(snapshot.placeholdersBefore == 0 && snapshot.presentedChange == snapshot.change)
        #expect(snapshot.change == ListChange(removed: [0..<10], inserted: [0..<snapshot.items.count]))
    }

    @Test("a failed jump keeps the items; retry() repeats exactly its request")
    func failedJumpRetries() async throws {
        let backend = Backend(total: 10_000)
        let configuration = try PagingConfiguration(pageSize: 10, prefetchDistance: 3, placeholders: true)
        let pager = Pager(source: backend.source(), configuration: configuration)
        _ = try await pager.loadNext().value
        let offset = 5_000 - configuration.jumpLoadSize / 2
        backend.failing.withLock { $0 = [offset] }
        await #expect(throws: PagingError.self) { try await pager.jump(to: 5_000).value }
        #expect(pager.loadStates.refresh.error?.code == .loadFailed)
        #expect(pager.items.map(\.id) == Array(0..<10))
        backend.failing.withLock { $0 = [] }
        _ = try await pager.retry().value
        #expect(backend.requests.map(\.offset) == [0, offset, offset])
        #expect(pager.snapshot.presented[5_000]?.id == 5_000)
        #expect(pager.loadStates.refresh == .notLoading)
    }

    @Test("a jump cancels the loads in flight; their late answers are not applied")
    func jumpCancelsLoads() async throws {
        let scripted = ScriptedSource<Int, TestItem>(ignoresCancellation: true)
        let pager = Pager(
            source: JumpableScripted(base: scripted),
            configuration: try PagingConfiguration(pageSize: 10, prefetchDistance: 0, placeholders: true))
        let list = NumberList(total: 1_000)
        let first = pager.loadNext()
        let call = await scripted.nextCall()
        call.succeed(with: list.countedPage(for: call.request))
        _ = try await first.value
        let next = pager.loadNext()
        let nextCall = await scripted.nextCall()
        let jump = pager.jump(to: 600)
        #expect(try await next.value == .cancelled)
        let jumpCall = await scripted.nextCall()
        #expect(jumpCall.request.position == .initial(600 - pager.configuration.jumpLoadSize / 2))
        jumpCall.succeed(with: list.countedPage(for: jumpCall.request))
        _ = try await jump.value
        let after = pager.snapshot
        nextCall.succeed(with: list.countedPage(for: nextCall.request))
        await pager.waitUntilResponsesTaken(3)
        #expect(pager.snapshot.version == after.version)
        #expect(pager.snapshot.presented[600]?.id == 600)
    }

    @Test("sources that cannot jump say so: an explicit jump fails, an implicit one fails the refresh state")
    func unsupportedJumps() async throws {
        // A cursor source, and an offset source that pages forward only.
        let relay = Pager(
            source: RelayCursorSource<TestItem> { _ in
                RelayPage(items: [], pageInfo: PageInfo(hasNextPage: false))
            },
            configuration: try PagingConfiguration(pageSize: 10))
        #expect(!relay.canJump)
        let refused = await #expect(throws: PagingError.self) { try await relay.jump(to: 50).value }
        #expect(refused?.code == .unsupportedOperation)
        #expect(relay.requestsStarted == 0)

        let backend = Backend(total: 1_000)
        let forward = Pager(
            source: backend.source(.forward),
            configuration: try PagingConfiguration(
                pageSize: 10, prefetchDistance: 3, placeholders: true, jumpThreshold: 40))
        #expect(!forward.canJump)
        _ = try await forward.loadNext().value
        #expect(forward.snapshot.presented.count == 1_000)
        let version = forward.snapshot.version
        forward.itemAppeared(at: 500)  // far below: no crawl, no request
        #expect(forward.requestsStarted == 1)
        #expect(forward.loadStates.refresh.error?.code == .unsupportedOperation)
        #expect(forward.snapshot.version == version + 1)
        #expect(try await forward.retry().value == .nothingToRetry)
        #expect(forward.loadStates.refresh == .notLoading)
        forward.itemAppeared(at: 30)  // within the threshold: loads towards it
        await settle(forward)
        #expect(forward.snapshot.presented[30]?.id == 30)
    }
}

extension PagerPlaceholderTests {
    @Test("counts from outside are kept within bounds: negative ones are none, huge ones do not overflow")
    func countsOutOfRange() async throws {
        let pager = Pager(
            source: ClosurePageSource<Int, TestItem> { request in
                var page = Page<Int, TestItem>(
                    items: [TestItem(id: 1), TestItem(id: 2)], previousKey: 1, nextKey: 3)
                if case .initial = request.position {
                    page.itemsBefore = .max
                    page.itemsAfter = -3
                } else {
                    page.itemsBefore = -1
                    page.itemsAfter = .max
                    page.items = [TestItem(id: 3)]
                    page.previousKey = 3
                    page.nextKey = 5
                }
                return page
            },
            configuration: try PagingConfiguration(pageSize: 2, prefetchDistance: 0, placeholders: true))
        let recorder = SnapshotRecorder(pager)
        _ = try await pager.loadNext().value
        var snapshot = pager.snapshot
        #expect(snapshot.placeholdersBefore == 1 << 48 && snapshot.placeholdersAfter == 0)
        #expect(snapshot.presented.count == (1 << 48) + 2)
        _ = try await pager.loadNext().value
        snapshot = pager.snapshot
        #expect(snapshot.placeholdersBefore == 1 << 48 && snapshot.placeholdersAfter == 1 << 48)
        // Every change fits the rows before it (checked on counts: the rows are too many to list).
        for (before, after) in zip(recorder.recorded, recorder.recorded.dropFirst()) {
            try after.presentedChange.check(
                baseCount: before.presented.count, newItems: 0..<after.presented.count)
        }
        // A jump far past everything: no overflow, refused (the source cannot jump).
        await #expect(throws: PagingError.self) { try await pager.jump(to: .max).value }
    }

    @Test("two jumps to the very end of a list with no known total, before any answer: joined, no overflow")
    func jumpsNearIntMax() async throws {
        let scripted = ScriptedSource<Int, TestItem>()
        let pager = Pager(
            source: JumpableScripted(base: scripted),
            configuration: try PagingConfiguration(pageSize: 10, placeholders: true))
        let first = pager.jump(to: .max)
        let second = pager.jump(to: .max - 1)
        let call = await scripted.nextCall()
        #expect(pager.requestsStarted == 1)
        call.succeed(with: Page(items: [TestItem(id: 7)], previousKey: 5, nextKey: nil))
        #expect(try await first.value == .loaded)
        #expect(try await second.value == .loaded)
    }

    @Test("a placeholder below the end is still loaded towards when a page arrives at the other end")
    func loadingTowardsSurvivesTheOtherEnd() async throws {
        let scripted = ScriptedSource<Int, TestItem>()
        let list = NumberList(total: 1_000)
        let pager = Pager(
            source: JumpableScripted(base: scripted), initialKey: 100,
            configuration: try PagingConfiguration(
                pageSize: 10, prefetchDistance: 2, placeholders: true, jumpThreshold: 100))
        let load = pager.loadNext()
        let call = await scripted.nextCall()
        call.succeed(with: list.countedPage(for: call.request))
        _ = try await load.value
        // Above and below at once: the first starts a load back, the second one forward.
        pager.itemAppeared(at: 99)
        pager.itemAppeared(at: 125)
        let calls = [await scripted.nextCall(), await scripted.nextCall()]
        let back = try #require(calls.first { $0.request.direction == .previous })
        let forward = try #require(calls.first { $0.request.direction == .next })
        // The page before arrives first; the reader, below the end, is not forgotten.
        back.succeed(with: list.countedPage(for: back.request))
        forward.succeed(with: list.countedPage(for: forward.request))
        // Forward goes on until row 125 is held (a chain that stopped starts no load: the loop ends).
        await pager.waitUntilResponsesTaken(3)
        for _ in 0..<5 where pager.snapshot.presented[125] == nil {
            await scripted.waitUntilSettled(calls: pager.requestsStarted)
            let open = scripted.takeUnclaimed()
            if open.isEmpty { break }
            for call in open {
                #expect(call.request.direction == .next)
                call.succeed(with: list.countedPage(for: call.request))
            }
            await pager.waitUntilResponsesTaken(pager.requestsStarted)
        }
        #expect(pager.snapshot.presented[125]?.id == 125)
    }

    @Test("a jump past the end of a list whose length is not known yet lands on its last page")
    func jumpPastTheEnd() async throws {
        let scripted = ScriptedSource<Int, TestItem>()
        let list = NumberList(total: 40)
        let pager = Pager(
            source: JumpableScripted(base: scripted),
            configuration: try PagingConfiguration(pageSize: 1, prefetchDistance: 0, placeholders: true))
        let jump = pager.jump(to: 41)
        var call = await scripted.nextCall()
        #expect(call.request.position == .initial(40))
        call.succeed(with: list.countedPage(for: call.request))  // empty: past the end
        _ = try await jump.value
        call = await scripted.nextCall()
        #expect(call.request.position == .previous(before: 40))
        call.succeed(with: list.countedPage(for: call.request))
        await pager.waitUntilResponsesTaken(2)
        #expect(pager.snapshot.presented[39]?.id == 39 && pager.snapshot.presented.count == 40)
    }

    @Test("map keeps a page's counts; filter, compactMap and mapPages drop them")
    func transformsAndCounts() async throws {
        let backend = Backend(total: 100)
        let configuration = try PagingConfiguration(pageSize: 10, placeholders: true)
        let mapped = Pager(
            source: backend.source().map { TestItem(id: $0.id, version: 1) }, configuration: configuration)
        _ = try await mapped.loadNext().value
        #expect(mapped.snapshot.placeholdersAfter == 90)
        // A filter that leaves every item of the page: the page still counts nothing.
        let filtered = Pager(source: backend.source().filter { _ in true }, configuration: configuration)
        _ = try await filtered.loadNext().value
        #expect(filtered.snapshot.placeholdersAfter == 0 && filtered.snapshot.presented.count == 10)
        #expect(!filtered.canJump)
    }

    @Test("within a limit of items, a jump's page leaves room for the next page")
    func jumpWithinAnItemsWindow() async throws {
        let configuration = try PagingConfiguration(
            pageSize: 20, prefetchDistance: 20, maximumHeld: .items(60), placeholders: true)
        #expect(configuration.jumpLoadSize == 40)
        let backend = Backend(total: 10_000)
        let pager = Pager(source: backend.source(), configuration: configuration)
        _ = try await pager.loadNext().value
        _ = try await pager.jump(to: 5_000).value
        await settle(pager)
        // The page around the position and the prefetches it set off fit: the position stays held.
        #expect(pager.snapshot.presented[5_000]?.id == 5_000)
        #expect(pager.items.count <= 60)
    }

    @Test("with placeholders, a restart reloads the page around the position last shown, in one request")
    func restartAroundTheReader() async throws {
        let (backend, pager) = try await jumped(to: 5_000)
        let configuration = pager.configuration
        pager.itemAppeared(at: 5_003)
        await settle(pager)
        let asked = backend.requests.count
        let rows = pager.snapshot.presented.count
        _ = try await pager.refresh().value
        await settle(pager)
        // One request, the reader's position in its middle; the rows shown are updated, none moves.
        let half = configuration.jumpLoadSize / 2
        #expect(backend.requests.count == asked + 1)
        #expect(backend.requests.last?.offset == 5_003 - half)
        #expect(backend.requests.last?.limit == configuration.jumpLoadSize)
        let after = pager.snapshot
        #expect(after.presented[5_003]?.id == 5_003)
        #expect(after.presented.count == rows)
        #expect(after.presentedChange.inserted.isEmpty && after.presentedChange.removed.isEmpty)
        expectWhole(after, total: 10_000, "after the restart")

        // A placeholder shown beyond an end, whose page is still on its way, is where the reader is
        // too: the restart cancels that load (its request may or may not have reached the source).
        let shownAt = after.presented.heldRange.upperBound + 1
        #expect(after.presented[shownAt] == nil)
        pager.itemAppeared(at: shownAt)
        let beforeRestart = backend.requests.count
        _ = try await pager.refresh().value
        await settle(pager)
        let restarts = backend.requests[beforeRestart...].filter { $0.limit == configuration.jumpLoadSize }
        #expect(restarts.map(\.offset) == [shownAt - half])
        #expect(pager.snapshot.presented[shownAt]?.id == shownAt)
    }

    @Test("a restart whose reader is at the top, or whose source cannot jump, loads as at the start")
    func restartAtTheTop() async throws {
        let backend = Backend(total: 10_000)
        let configuration = try PagingConfiguration(pageSize: 10, prefetchDistance: 3, placeholders: true)
        let pager = Pager(source: backend.source(), configuration: configuration)
        _ = try await pager.loadNext().value
        _ = try await pager.loadNext().value
        pager.itemAppeared(at: 5)
        await settle(pager)
        _ = try await pager.refresh().value
        #expect(backend.requests.last?.offset == 0 && backend.requests.last?.limit == 10)
        #expect(pager.items.map(\.id) == Array(0..<10))

        let oneWay = Backend(total: 10_000)
        let forward = Pager(source: oneWay.source(.forward), configuration: configuration)
        for _ in 0..<50 { _ = try await forward.loadNext().value }
        forward.itemAppeared(at: 480)
        await settle(forward)
        _ = try await forward.refresh().value
        #expect(oneWay.requests.last?.offset == 0 && oneWay.requests.last?.limit == 10)
        #expect(forward.items.map(\.id) == Array(0..<10))
    }

    @Test("a restart around the reader that fails keeps the items; retry() repeats exactly its request")
    func failedRestartAroundTheReader() async throws {
        let (backend, pager) = try await jumped(to: 7_000)
        let configuration = pager.configuration
        let held = pager.items.map(\.id)
        let offset = 7_000 - configuration.jumpLoadSize / 2
        backend.failing.withLock { $0 = [offset] }
        await #expect(throws: PagingError.self) { try await pager.refresh().value }
        #expect(pager.loadStates.refresh.error?.code == .loadFailed)
        #expect(pager.items.map(\.id) == held)
        backend.failing.withLock { $0 = [] }
        let asked = backend.requests.count
        _ = try await pager.retry().value
        #expect(backend.requests.count == asked + 1 && backend.requests.last?.offset == offset)
        #expect(pager.snapshot.presented[7_000]?.id == 7_000)
        #expect(pager.loadStates.refresh == .notLoading)
    }

    @Test(
        "a list opened at a key restarts around its first item held when none was shown, and at its top from there"
    )
    func restartOfAListOpenedAtAKey() async throws {
        let backend = Backend(total: 10_000)
        let configuration = try PagingConfiguration(pageSize: 10, prefetchDistance: 3, placeholders: true)
        let half = configuration.jumpLoadSize / 2
        let pager = Pager(source: backend.source(), initialKey: 5_000, configuration: configuration)
        _ = try await pager.loadNext().value
        #expect(pager.snapshot.presented.heldRange == 5_000..<5_010)
        // Nothing shown yet: the first item held is where the reader is.
        _ = try await pager.refresh().value
        await settle(pager)
        #expect(backend.requests.last?.offset == 5_000 - half)
        #expect(backend.requests.last?.limit == configuration.jumpLoadSize)
        #expect(pager.snapshot.presented[5_000]?.id == 5_000)
        // At the top of a list opened elsewhere: the page at the top, not the key the list was
        // opened at.
        _ = try await pager.jump(to: 3).value
        await settle(pager)
        pager.itemAppeared(at: 3)
        await settle(pager)
        _ = try await pager.refresh().value
        await settle(pager)
        #expect(backend.requests.last?.offset == 0)
        #expect(backend.requests.last?.limit == configuration.jumpLoadSize)
        #expect(pager.snapshot.presented[3]?.id == 3)
        expectWhole(pager.snapshot, total: 10_000, "at the top")
    }

    @Test("a restart asked while a jump loads goes where the jump was going; the jump's callers get its page")
    func restartDuringAJump() async throws {
        let scripted = ScriptedSource<Int, TestItem>(ignoresCancellation: true)
        let configuration = try PagingConfiguration(pageSize: 10, prefetchDistance: 0, placeholders: true)
        let pager = Pager(source: JumpableScripted(base: scripted), configuration: configuration)
        let list = NumberList(total: 1_000)
        let first = pager.loadNext()
        let call = await scripted.nextCall()
        call.succeed(with: list.countedPage(for: call.request))
        _ = try await first.value
        let jump = pager.jump(to: 600)
        let jumpCall = await scripted.nextCall()
        let refresh = pager.refresh()
        let refreshCall = await scripted.nextCall()
        let start = 600 - configuration.jumpLoadSize / 2
        #expect(jumpCall.request.position == .initial(start))
        #expect(refreshCall.request.position == .initial(start))
        #expect(refreshCall.request.count == configuration.jumpLoadSize)
        refreshCall.succeed(with: list.countedPage(for: refreshCall.request))
        #expect(try await jump.value == .loaded)
        #expect(try await refresh.value == .loaded)
        #expect(pager.snapshot.presented[600]?.id == 600)
        // The jump's own answer, late, is not applied.
        let after = pager.snapshot
        jumpCall.succeed(with: list.countedPage(for: jumpCall.request))
        await pager.waitUntilResponsesTaken(3)
        #expect(pager.snapshot.version == after.version)
    }

}

/// A scripted source that can jump: the key of a position is its offset.
struct JumpableScripted: JumpablePageSource {
    let base: ScriptedSource<Int, TestItem>
    var canJump = true

    func load(_ request: PageRequest<Int>) async throws -> Page<Int, TestItem> {
        try await base.load(request)
    }

    func key(forIndex index: Int) -> Int { index }
}

extension NumberList {
    /// The page a request asks for, with its counts of the items around it.
    func countedPage(for request: PageRequest<Int>) -> Page<Int, TestItem> {
        var page = self.page(for: request)
        let range = Self.range(for: request, total: total)
        page.itemsBefore = range.lowerBound
        page.itemsAfter = total - range.upperBound
        return page
    }
}
