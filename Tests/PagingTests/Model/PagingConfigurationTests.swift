import Testing

@testable import Paging

@Suite("PagingConfiguration")
struct PagingConfigurationTests {
    @Test("defaults: initial load and prefetch distance follow the page size")
    func defaults() throws {
        let configuration = try PagingConfiguration(pageSize: 15)
        #expect(configuration.initialLoadSize == 15)
        #expect(configuration.prefetchDistance == 15)
        #expect(configuration.maximumHeld == nil)
        #expect(configuration.refreshPolicy == .restart)
        #expect(PagingConfiguration.default.pageSize == 20)
    }

    @Test(
        "invalid values are rejected with a message naming the value and the rule",
        arguments: [
            (0, nil, nil, nil, "pageSize is 0, but a page must hold at least 1 item"),
            (10, 0, nil, nil, "initialLoadSize is 0, but the first load must ask for at least 1 item"),
            (
                10, nil, -1, nil,
                "prefetchDistance is -1, but it counts items from an end and cannot be negative"
            ),
            (
                10, nil, 0, PagingConfiguration.HeldLimit.pages(1),
                "maximumHeld is 1 page(s), but at least 2 are needed: the page in view and the one loading"
            ),
            (
                10, nil, 10, .pages(2),
                "maximumHeld is 2 pages of 10 items (20 items), too few to hold a page and the prefetch distance of 10 on both sides (30 items); hold at least 3 pages or lower prefetchDistance"
            ),
            (
                10, nil, 5, .items(19),
                "maximumHeld is 19 items, too few to hold a page of 10 and the prefetch distance of 5 on both sides; hold at least 20 items"
            ),
        ] as [(Int, Int?, Int?, PagingConfiguration.HeldLimit?, String)])
    func rejectsInvalidValues(
        pageSize: Int, initialLoadSize: Int?, prefetchDistance: Int?,
        maximumHeld: PagingConfiguration.HeldLimit?,
        message: String
    ) throws {
        let error = try #require(throws: PagingError.self) {
            try PagingConfiguration(
                pageSize: pageSize, initialLoadSize: initialLoadSize, prefetchDistance: prefetchDistance,
                maximumHeld: maximumHeld)
        }
        #expect(error.code == .invalidConfiguration)
        #expect(error.description == "invalid paging configuration: " + message)
    }

    @Test("a jump threshold needs placeholders and must pass the prefetch distance; the jump load size")
    func jumpThreshold() throws {
        let noPlaceholders = try #require(throws: PagingError.self) {
            try PagingConfiguration(pageSize: 10, jumpThreshold: 50)
        }
        #expect(
            noPlaceholders.description
                == "invalid paging configuration: jumpThreshold is 50, but jumps are to placeholders: set placeholders: true"
        )
        let tooNear = try #require(throws: PagingError.self) {
            try PagingConfiguration(pageSize: 10, prefetchDistance: 8, placeholders: true, jumpThreshold: 8)
        }
        #expect(tooNear.code == .invalidConfiguration)
        let configuration = try PagingConfiguration(
            pageSize: 10, prefetchDistance: 8, placeholders: true, jumpThreshold: 9)
        #expect(configuration.jumpThreshold == 9 && configuration.placeholders)
        // A page, the prefetch distance on both sides, and one item more on each.
        #expect(configuration.jumpLoadSize == 10 + 2 * 8 + 2)
        #expect(try PagingConfiguration(pageSize: 10, initialLoadSize: 100).jumpLoadSize == 100)
        #expect(!PagingConfiguration.default.placeholders && PagingConfiguration.default.jumpThreshold == nil)
    }

    @Test("the smallest valid windows are accepted")
    func smallestWindows() throws {
        #expect(
            try PagingConfiguration(pageSize: 10, prefetchDistance: 10, maximumHeld: .pages(3)).maximumHeld
                == .pages(3))
        #expect(
            try PagingConfiguration(pageSize: 10, prefetchDistance: 5, maximumHeld: .items(20)).maximumHeld
                == .items(20))
    }
}
