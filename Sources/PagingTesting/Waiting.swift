import Observation
public import Paging
import PagingLock

extension PagedList {
    /// Waits until the list shows its pager's current snapshot.
    ///
    /// The list follows its pager on a task of its own, so right after a
    /// load's `value` returns the list may still show the snapshot before.
    /// This waits through Observation, not by sleeping: each time the list's
    /// version is about to change, it looks again.
    ///
    /// ```swift
    /// try await list.pager.loadNext().value
    /// await list.waitUntilCaughtUp()
    /// #expect(list.items.count == 20)
    /// ```
    public func waitUntilCaughtUp() async {
        let target = pager.snapshot.version
        while version < target {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                withObservationTracking {
                    _ = self.version
                } onChange: {
                    continuation.resume()
                }
            }
        }
    }
}

extension Pager {
    /// Waits until the pager has taken in `count` responses in all, applied
    /// or found stale: for a test that must know an answer reached the pager
    /// even when it changed nothing (a response to a load that a refresh
    /// made stale, say).
    /// - Parameter count: the number of responses, counted from the pager's
    ///   creation.
    public func waitUntilResponsesTaken(_ count: Int) async {
        await waitUntilDelivered(count)
    }

    /// The number of requests the pager has started so far: with
    /// ``ScriptedSource/waitUntilSettled(calls:)``, a test waits until every
    /// started load has reached the source.
    public var requestsStarted: Int { startedRequestCount }
}

/// Records every snapshot a pager publishes, in order, from the moment it is
/// made: the current one first. It is called while the pager publishes, so
/// no snapshot is missed and none comes out of order, with no task to wait
/// for.
///
/// ```swift
/// let snapshots = SnapshotRecorder(pager)
/// _ = try await pager.loadNext().value
/// #expect(snapshots.recorded.map(\.loadStates.next) == [.notLoading, .loading, .notLoading])
/// ```
public final class SnapshotRecorder<Key: Hashable & Sendable, Item: Identifiable & Sendable>: Sendable
where Item.ID: Sendable {
    private let snapshots = Lock<[PagingSnapshot<Item>]>([])
    private let pager: Pager<Key, Item>
    private let id: Int

    /// Starts recording a pager's snapshots.
    /// - Parameter pager: the pager to record; kept alive by the recorder.
    public init(_ pager: Pager<Key, Item>) {
        self.pager = pager
        let snapshots = self.snapshots
        let (id, current) = pager.addObserver { snapshot in snapshots.withLock { $0.append(snapshot) } }
        self.id = id
        // A later snapshot may have been published already: the current one goes first.
        snapshots.withLock { $0.insert(current, at: 0) }
    }

    deinit {
        pager.removeObserver(id)
    }

    /// Every snapshot so far, in order: the one current when recording
    /// started, then each one published.
    /// - Complexity: O(1) (the array is shared until changed).
    public var recorded: [PagingSnapshot<Item>] { snapshots.withLock { $0 } }

    /// The last snapshot recorded.
    /// - Complexity: O(1).
    public var last: PagingSnapshot<Item>? { snapshots.withLock { $0.last } }

    /// The rows a view would show: the items of the first snapshot recorded,
    /// with the change of every later one applied in order, each checked
    /// against the rows it is applied to (`ListChange.checkedApply(to:from:)`).
    /// Equal to the last snapshot's items when every change fits.
    /// - Throws: `ListChangeMismatch` for the first change that does not fit
    ///   the rows it was made from.
    /// - Complexity: O(*s* · *n*) for *s* snapshots of *n* items.
    public func replayedRows() throws -> [Item] {
        let recorded = self.recorded
        var rows = Array(recorded.first?.items ?? PagedItems())
        for snapshot in recorded.dropFirst() {
            try snapshot.change.checkedApply(to: &rows, from: snapshot.items)
        }
        return rows
    }

    /// The rows a view that draws placeholders would show: the presented
    /// rows of the first snapshot recorded (`nil` for a placeholder,
    /// `PagingSnapshot.presented`), with the presented change of every later
    /// one applied in order, each checked against the rows it is applied to.
    /// Equal to the last snapshot's presented rows when every change fits.
    /// - Throws: `ListChangeMismatch` for the first change that does not fit
    ///   the rows it was made from.
    /// - Complexity: O(*s* · *n*) for *s* snapshots of *n* rows.
    public func replayedPresentedRows() throws -> [Item?] {
        let recorded = self.recorded
        var rows = Array(recorded.first?.presented ?? PresentedItems())
        for snapshot in recorded.dropFirst() {
            try snapshot.presentedChange.checkedApply(to: &rows, from: snapshot.presented)
        }
        return rows
    }
}
