import Paging
import PagingTesting
import ToolsLock

@testable import PagingCLI

/// A launch list in memory whose loads fail when a test says so, and, given a gate, wait there
/// until the test lets each through (to look at the screen while a load is certainly in flight).
final class ScriptedLaunches: Sendable {
    private struct State {
        var failNext = 0
        var requests = 0
    }

    let launches: [TutorialLaunch]
    private let state = Locked(State())
    /// Where each load waits, with the cursor it was asked for, before it answers; none: at once.
    private let gate: FetchGate<String?>?

    init(count: Int, gate: FetchGate<String?>? = nil) {
        self.gate = gate
        launches = (0..<count).map { index in
            TutorialLaunch(
                id: String(count - index), site: "Site \(index)",
                mission: .init(name: "Mission \(count - index)", missionPatch: nil),
                rocket: .init(id: "falcon9", name: "Falcon 9", type: "FT"), isBooked: false,
                launchDate: "2020-01-\(String(format: "%02d", 1 + index % 28))T00:00:00Z")
        }
    }

    /// Makes the next `count` loads fail with an HTTP-like error.
    func failNext(_ count: Int) { state.withLock { $0.failNext = count } }

    var requestCount: Int { state.withLock { $0.requests } }

    struct InjectedFailure: Error, CustomStringConvertible {
        var description: String { "injected failure" }
    }

    func pager(pageSize: Int = 20, prefetchDistance: Int = 5) throws -> Pager<String, TutorialLaunch> {
        let source = HasMoreCursorSource<String, TutorialLaunch> { [self] size, cursor in
            try await gate?.pass(cursor)
            let fail = state.withLock { state in
                state.requests += 1
                guard state.failNext > 0 else { return false }
                state.failNext -= 1
                return true
            }
            if fail { throw InjectedFailure() }
            let start = cursor.flatMap(Int.init) ?? 0
            let end = min(start + size, launches.count)
            return HasMorePage(
                items: Array(launches[start..<end]), cursor: String(end), hasMore: end < launches.count)
        }
        return Pager(
            source: source,
            configuration: try PagingConfiguration(pageSize: pageSize, prefetchDistance: prefetchDistance))
    }

    func session(size: ScreenSize = ScreenSize(rows: 24, columns: 100)) throws -> ListSession<
        String, TutorialLaunch
    > {
        ListSession(
            screen: ListScreen(title: "Launches", noun: "launches", canBook: false, size: size),
            pager: try pager(), format: TutorialLaunch.rowFormat, actions: .none)
    }
}
