import Paging
import Testing

@testable import PagingCLI

/// The list screen with header rows (the demo's years), driven as a value: snapshots of a real
/// pager in, the rendered lines out.
@Suite("the list screen's header rows")
struct ListScreenHeaderTests {
    /// 30 launches, newest first, three a year: 2029 down to 2020.
    static let launches: [TutorialLaunch] = (0..<30).map { index in
        TutorialLaunch(
            id: String(index), site: nil, mission: .init(name: "Mission \(index)", missionPatch: nil),
            rocket: nil, isBooked: false, launchDate: "\(2029 - index / 3)-06-0\(3 - index % 3)T00:00:00Z")
    }

    /// A pager over ``launches``, ten to a page, loading only when told.
    static func pager() throws -> Pager<Int, TutorialLaunch> {
        Pager(
            source: ClosurePageSource { request in
                let start = request.key ?? 0
                let end = min(start + 10, launches.count)
                return Page(items: Array(launches[start..<end]), nextKey: end < launches.count ? end : nil)
            },
            configuration: try PagingConfiguration(pageSize: 10, prefetchDistance: 0))
    }

    /// A screen with the demo's year headers, eight lines tall: five body rows.
    static func screen() -> ListScreen<TutorialLaunch> {
        ListScreen(
            title: "Launches", noun: "launches", canBook: false, headers: TutorialLaunch.yearHeaders,
            size: ScreenSize(rows: 8, columns: 100))
    }

    /// The body lines: between the column header and the status line.
    static func body(_ screen: ListScreen<TutorialLaunch>) -> [String] {
        Array(
            ScreenRenderer.render(screen, format: TutorialLaunch.rowFormat).map(\.text).dropFirst(2)
                .dropLast())
    }

    @Test(
        "a header above each year's first launch; the selection passes over headers, and shows the one above it"
    )
    func headersAndSelection() async throws {
        let pager = try Self.pager()
        var screen = Self.screen()
        _ = try await pager.loadNext().value
        _ = screen.apply(pager.snapshot)
        // Ten launches of four years (2029, 2028, 2027, and one of 2026), and the footer.
        #expect(screen.rowCount == 10 + 4 + 1)
        #expect(screen.bodyRow(at: 0) == .header("2029"))
        #expect(screen.bodyRow(at: 1) == .item(0))
        #expect(screen.bodyRow(at: 4) == .header("2028"))
        #expect(screen.bodyRow(at: 5) == .item(3))
        #expect(screen.bodyRow(at: 14) == .footer)
        var body = Self.body(screen)
        #expect(body[0] == " ── 2029 ──")
        #expect(body[1].hasPrefix("> Mission 0"))

        // Down from the third launch of 2029: the next row is 2028's header, passed over.
        _ = screen.handle(key: .down)
        _ = screen.handle(key: .down)
        _ = screen.handle(key: .down)
        #expect(screen.selection == 3 && screen.selectedRow == 5)
        body = Self.body(screen)
        #expect(body.last?.hasPrefix("> Mission 3") == true, "\(body)")
        #expect(body[body.count - 2] == " ── 2028 ──")

        // To the footer, then back to the top: the first header shows above the first launch.
        _ = screen.handle(key: .end)
        #expect(screen.selectedRow == screen.rowCount - 1)
        #expect(Self.body(screen).last == "> Load more")
        _ = screen.handle(key: .home)
        #expect(screen.top == 0)
        #expect(Self.body(screen)[0] == " ── 2029 ──")

        // Up onto the first launch of a year from below: its header comes into view with it.
        for _ in 0..<9 { _ = screen.handle(key: .down) }
        #expect(screen.selection == 9)
        for _ in 0..<3 { _ = screen.handle(key: .up) }
        #expect(screen.selection == 6)
        body = Self.body(screen)
        #expect(body[0] == " ── 2027 ──" && body[1].hasPrefix("> Mission 6"), "\(body)")
    }

    @Test(
        "headers follow the pages: the next page's first year joins the year above it, with no second header")
    func headersAcrossPages() async throws {
        let pager = try Self.pager()
        var screen = Self.screen()
        _ = try await pager.loadNext().value
        _ = screen.apply(pager.snapshot)
        _ = try await pager.loadNext().value
        _ = screen.apply(pager.snapshot)
        // Launch 9 (2026) ends the first page, 10 and 11 (2026) start the second: one 2026 header.
        let headers = (0..<screen.rowCount).compactMap { row -> String? in
            if case .header(let year) = screen.bodyRow(at: row) { return year }
            return nil
        }
        #expect(headers == ["2029", "2028", "2027", "2026", "2025", "2024", "2023"])
        #expect(screen.rows.count == 20 + headers.count)
        // Another list (a search) starts its headers afresh.
        _ = screen.showList(query: "x", snapshot: try Self.pager().snapshot)
        #expect(screen.rowCount == 1 && screen.rows.isEmpty)
    }
}
