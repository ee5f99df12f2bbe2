// The loads of a pager state machine: the slots they run in, what the
// machine keeps of each, and what it tells the driver.
extension PagerStateMachine {
    /// The three things that can load at once.
    enum Slot: Int, CaseIterable, Sendable {
        /// The first load, a restart or a refresh.
        case refresh
        /// A page after the last.
        case next
        /// A page before the first.
        case previous
    }

    /// What an in-flight load is for: the plan it belongs to (``LoadPlan``).
    typealias Job = any LoadPlan<Key, Item>

    /// The load in flight in a slot.
    struct InFlight: Sendable {
        /// The operation its callers wait for.
        let operation: Int
        /// The id of its request.
        var requestID: Int
        /// Its request.
        var request: Request
        /// What it is for.
        var job: Job
        /// The ids removed by local edits since it was asked (``PagerEdit/remove(id:if:)``): a
        /// deletion the pager knows of outranks a page answered before it, so a page at an end
        /// lands without them.
        var removedMeanwhile: Set<Item.ID> = []
    }

    /// The failed load of a slot, which a retry repeats.
    struct Failure: Sendable {
        /// The request that failed.
        let request: Request
        /// What it was for.
        let job: Job
        /// How it failed.
        let error: PagingError
    }

    /// A load the driver must start.
    struct Command: Sendable, Equatable {
        /// Identifies the request; its response is reported with it.
        let id: Int
        /// The generation the request started in.
        let generation: Int
        /// What to ask the source for.
        let request: Request
    }

    /// What the driver must do after an event.
    struct Effects: Sendable {
        /// Loads to start.
        var start: [Command] = []
        /// Request ids whose tasks to cancel.
        var cancel: [Int] = []
        /// Operations that ended, with their result, for the callers waiting.
        var finished: [(operation: Int, result: Result<LoadOutcome, PagingError>)] = []
        /// Whether a new snapshot is to be published.
        var changed = false
    }

    /// How a load call is answered: wait for an operation to end, or at once.
    enum Admission: Sendable, Equatable {
        /// Wait for the operation to end.
        case wait(operation: Int)
        /// The call is answered now.
        case done(Result<LoadOutcome, PagingError>)
    }
}
