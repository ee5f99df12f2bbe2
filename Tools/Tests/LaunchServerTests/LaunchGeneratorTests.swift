import Foundation
import Testing

@testable import LaunchServer

@Suite("The synthetic generator")
struct LaunchGeneratorTests {
    @Test("the same count gives the same rows, and a larger count extends a smaller one")
    func isDeterministic() {
        let small = Array(LaunchGenerator(count: 1_000))
        #expect(small == Array(LaunchGenerator(count: 1_000)))
        #expect(Array(LaunchGenerator(count: 5_000).prefix(1_000)) == small)
        #expect(small.map(\.number) == Array(1...1_000))
        #expect(zip(small, small.dropFirst()).allSatisfy { $0.launchDate <= $1.launchDate })
        #expect(Set(small.map(\.launchDate)).count < small.count, "some launches share a second")
        #expect(Set(small.map(\.rocketID)) == ["falcon1", "falcon9", "falconheavy"])
    }

    @Test(
        "loads a million rows, and a page deep in them is a keyset page",
        .disabled(
            if: ProcessInfo.processInfo.environment["PAGING_SANITIZER"] == "thread",
            "80 s under ThreadSanitizer (make race) for one task's inserts, which the smaller stores' tests race-check; it runs in make test"
        ))
    func loadsAMillionRows() async throws {
        let clock = ContinuousClock()
        let start = clock.now
        let store = try await LaunchStore.open(database: .inMemory, dataset: .synthetic(count: 1_000_000))
        let elapsed = clock.now - start
        print("LaunchGeneratorTests: loaded 1,000,000 synthetic launches in \(elapsed)")
        #expect(try await store.count(scope: .all) == 1_000_000)

        // Dates never decrease with the id, so (date, id) order is id order.
        let rows = Array(LaunchGenerator(count: 12))
        let deep = KeysetPosition(date: rows[11].launchDate, id: rows[11].number)
        let page = try await store.page(scope: .all, below: deep, above: nil, newestFirst: true, limit: 5)
        #expect(page.map(\.number) == [11, 10, 9, 8, 7])
        #expect(page.first?.launchDate == rows[10].launchDate)
    }
}
