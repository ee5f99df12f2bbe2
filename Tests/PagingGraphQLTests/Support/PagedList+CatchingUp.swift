import Observation
import Paging

extension PagedList {
    /// Waits until the list shows the pager's current snapshot, through
    /// Observation rather than sleeping (the list follows its pager on a
    /// task of its own).
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
