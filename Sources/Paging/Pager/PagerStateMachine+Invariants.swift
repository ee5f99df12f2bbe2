// The invariants of a pager state machine, as code, checked after every event in a debug build.
extension PagerStateMachine {
    /// The most items a debug build checks the window's item-by-item invariants for after each
    /// event: the check is a pass over them.
    static var itemsCheckedInDebug: Int { 4_096 }

    /// The machine's invariants that do not hold, each said in a sentence, with its window's
    /// (``PageWindow/invariantViolations(upTo:)``); empty when all hold.
    ///
    /// Checked: a slot holds a load in flight or a failure, not both; while the refresh slot
    /// loads, the ends do not; the loads in flight have distinct request ids, none past the
    /// counter; the presented list of the last snapshot is the list as it stands (the items
    /// held, and with placeholders, those the pages count around them).
    /// - Complexity: as the window's check.
    func invariantViolations(upTo limit: Int? = nil) -> [String] {
        var violations = window.invariantViolations(upTo: limit)
        for slot in Slot.allCases where inFlight[slot.rawValue] != nil && failures[slot.rawValue] != nil {
            violations.append("the \(slot) slot has a load in flight and a failure")
        }
        if isRefreshing, inFlight[Slot.next.rawValue] != nil || inFlight[Slot.previous.rawValue] != nil {
            violations.append("an end loads while the refresh slot does")
        }
        let ids = inFlight.compactMap { $0?.requestID }
        if Set(ids).count != ids.count || ids.contains(where: { $0 > requestCounter || $0 < 1 }) {
            violations.append("the request ids in flight are \(ids), the counter \(requestCounter)")
        }
        if presentedShape != currentShape {
            violations.append("the snapshot shows \(presentedShape), the list is \(currentShape)")
        }
        return violations
    }

    /// In a debug build, stops when an invariant does not hold, saying which; nothing in a
    /// release build.
    /// - Complexity: as ``invariantViolations(upTo:)`` with ``itemsCheckedInDebug``, in a debug
    ///   build; O(1) in a release build.
    func assertInvariants() {
        #if DEBUG
            let violations = invariantViolations(upTo: Self.itemsCheckedInDebug)
            if !violations.isEmpty {
                assertionFailure("pager state machine: " + violations.joined(separator: "; "))
            }
        #endif
    }
}
