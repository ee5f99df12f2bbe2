import Paging
import Testing

@testable import PagingGraphQLClient

/// The pages a follower has learned and the pager may still take in: which
/// pend, and when they stop, as the pager's snapshots tell.
@Suite("Store follower, its pending pages")
struct PendingPagesTests {
    typealias Pending = PendingPages<Int>

    /// A snapshot of an empty list at a version, with loads in flight.
    static func snapshot(version: Int, loads: SlotLoadIDs) -> FollowedRowsState {
        var snapshot = PagingSnapshot<Int>(
            items: PagedItems(pages: []),
            loadStates: LoadStates(
                refresh: loads.refresh == nil ? .notLoading : .loading,
                previous: loads.previous == nil ? .notLoading : .loading,
                next: loads.next == nil ? .notLoading : .loading),
            hasNext: true, hasPrevious: false, version: version)
        snapshot.loadIDs = loads
        return FollowedRowsState(snapshot)
    }

    static func next(after key: String, load: Int) -> PageRequest<String> {
        var request = PageRequest(.next(after: key), count: 3)
        request.loadID = load
        return request
    }

    @Test(
        "a load the pager let go of, arriving after the load that replaced it, leaves that load's page pending"
    )
    func lateArrivalOfAnAbandonedLoad() {
        var pending = Pending()
        // Load 3 at the end (after a refresh let load 1 go) learns its page.
        let now = Self.snapshot(version: 5, loads: SlotLoadIDs(next: 3))
        #expect(
            pending.arrived([4, 5, 6], for: Self.next(after: "c", load: 3), snapshot: now, cancelled: false)
                .isEmpty)
        // Load 1's page is learned only now (its task had not seen its
        // cancellation yet), reading the same snapshot.
        #expect(
            pending.arrived([7, 8, 9], for: Self.next(after: "c", load: 1), snapshot: now, cancelled: false)
                .isEmpty)
        #expect(pending.units == [4, 5, 6], "load 1's page will never be taken in; load 3's will")

        pending.changed([5, 8])
        let taken = pending.settle(Self.snapshot(version: 6, loads: SlotLoadIDs()))
        #expect(taken.stale == [5], "the change reaches the row load 3's page brought")
        #expect(pending.units.isEmpty)
    }

    @Test("a page pends while its own load is in its slot, not while another load is")
    func pendsWhileItsLoadIsInFlight() {
        var pending = Pending()
        let learned = Self.snapshot(version: 2, loads: SlotLoadIDs(next: 7))
        _ = pending.arrived([1, 2], for: Self.next(after: "a", load: 7), snapshot: learned, cancelled: false)
        pending.changed([2])
        // An older snapshot, handled late, settles nothing.
        #expect(pending.settle(Self.snapshot(version: 1, loads: SlotLoadIDs())).isEmpty)
        #expect(pending.units == [1, 2])
        // The next load is another one: load 7 ended, its page was taken in.
        let settled = pending.settle(Self.snapshot(version: 3, loads: SlotLoadIDs(next: 8)))
        #expect(settled.stale == [2])
        #expect(pending.units.isEmpty)
    }

    @Test("a unit a connection edit took out while its page pended is to be removed, not read again")
    func removedWhilePending() {
        var pending = Pending()
        let learned = Self.snapshot(version: 2, loads: SlotLoadIDs(refresh: 4))
        var request = PageRequest<String>(.initial(nil), count: 3)
        request.loadID = 4
        _ = pending.arrived([1, 2, 3], for: request, snapshot: learned, cancelled: false)
        pending.changed([2, 3])
        pending.removed(2)
        let settled = pending.settle(Self.snapshot(version: 3, loads: SlotLoadIDs()))
        #expect(settled.removed == [2])
        #expect(settled.stale == [3])
    }

    @Test("a unit put back by a later edit while its page pends is kept")
    func restoredWhilePending() {
        var pending = Pending()
        _ = pending.arrived(
            [1, 2], for: Self.next(after: "a", load: 2),
            snapshot: Self.snapshot(version: 1, loads: SlotLoadIDs(next: 2)),
            cancelled: false)
        pending.removed(1)
        pending.restored(1)
        #expect(pending.settle(Self.snapshot(version: 2, loads: SlotLoadIDs())).isEmpty)
    }
}
