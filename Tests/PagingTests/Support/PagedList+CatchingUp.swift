import Observation
import Paging

extension PagedList {
    /// Waits until the list shows the pager's current snapshot.
    ///
    /// The list follows the pager's snapshots on a task of its own, so right
    /// after a load's `value` returns the model may still show the snapshot
    /// before. This waits through Observation (no sleeping): each time
    /// `version` is about to change, it looks again.
    func catchUp() async {
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
