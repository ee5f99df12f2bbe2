import Logging
import ServiceLifecycle

/// Schedules a launch at a fixed interval (`paging serve --schedule-every`), so that a live list
/// has something to show: "Scheduled mission 1", 2, … from the three launch sites in turn, each
/// at the head of the newest-first list and delivered by `launchAdded`.
struct LaunchScheduler: Service {
    /// The sites the scheduled launches leave from, in turn.
    static let sites = ["CCAFS SLC 40", "KSC LC 39A", "VAFB SLC 4E"]

    let store: LaunchStore
    let interval: Duration
    let logger: Logger

    func run() async throws {
        try? await cancelWhenGracefulShutdown { try await schedule() }
    }

    private func schedule() async throws {
        var count = 0
        while true {
            try await Task.sleep(for: interval)
            count += 1
            do {
                _ = try await store.add(
                    missionName: "Scheduled mission \(count)",
                    site: Self.sites[(count - 1) % Self.sites.count],
                    rocketID: LaunchResolver.scheduledRocket, launchDate: nil)
            } catch {
                logger.error("a scheduled launch could not be added: \(error)")
            }
        }
    }
}
