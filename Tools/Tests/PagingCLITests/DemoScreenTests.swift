import Foundation
import LaunchServer
import PagingGraphQL
import PagingTesting
import Testing
import ToolsLock

@testable import PagingCLI

/// The rows of the list body: the lines between the header and the status line.
private func body(_ lines: [String]) -> [String] {
    Array(lines.dropFirst(2).dropLast()).filter { !$0.isEmpty }
}

private func selectedLine(_ lines: [String]) -> String? {
    lines.first { $0.hasPrefix("> ") }
}

/// The body rows that show launches: not the year headers, not the footer.
private func launchRows(_ lines: [String]) -> [String] {
    body(lines).filter { !$0.hasPrefix(" ── ") }
}

/// The year header rows among body rows.
private func headerRows(_ rows: [String]) -> [String] {
    rows.filter { $0.hasPrefix(" ── ") }
}

/// Whether the year header rows stand exactly where the year of the launches changes: above the
/// first row of each year (the first page starts the list), and nowhere else.
private func headersMatchYears(_ rows: [String]) -> Bool {
    var shownYear: Substring?
    var lastYear: Substring?
    for row in rows {
        if row.hasPrefix(" ── ") {
            guard shownYear == nil else { return false }  // two headers in a row
            shownYear = row.dropFirst(4).prefix(4)
            continue
        }
        // The date column: the row's only text shaped like 2020-01-29.
        guard let date = row.firstRange(of: /\b\d{4}-\d{2}-\d{2}\b/) else { continue }
        let year = row[date].prefix(4)
        if year != lastYear, shownYear != year { return false }  // a year change with no header
        if year == lastYear, shownYear != nil { return false }  // a header with no change
        lastYear = year
        shownYear = nil
    }
    return true
}

/// Holds each of the launch server's requests at a gate (through its injectable latency) until
/// released, to look at the screen while a load is certainly in flight.
private final class ServerHold: Sendable {
    let gate = FetchGate<Void>()
    private let holding = Locked(true)

    /// Lets every later request through at once; the held ones still wait to be opened.
    func release() {
        holding.withLock { $0 = false }
    }

    /// Makes the server's requests wait at ``gate`` while holding.
    func configure(_ configuration: inout LaunchServerConfiguration) {
        configuration.latency = .fixed(.nanoseconds(1))
        configuration.sleep = { [self] _ in
            if holding.withLock({ $0 }) { try await gate.pass(()) }
        }
    }
}

@Suite("the demo's screen, driven through its model and renderer")
struct DemoScreenTests {
    private func demoSession(_ server: LaunchServer, rows: Int = 24) throws -> ListSession<
        String, TutorialLaunch
    > {
        let api = TutorialAPI(client: GraphQLClient(endpoint: server.graphQLURL))
        let pager = try DemoCommand.makePager(source: api.source(), pageSize: 20, prefetchDistance: 5)
        return DemoCommand.makeSession(api: api, pager: pager, size: ScreenSize(rows: rows, columns: 100))
    }

    @Test(
        "the first page shows the newest launches under their years' headers, the selection on the first, and Load more"
    )
    func firstPage() async throws {
        try await withLaunchServer { server in
            let session = try demoSession(server, rows: 30)
            #expect(await session.text().contains { $0.contains("Loading…") })
            await session.start()
            await session.settle()
            let lines = await session.text()
            #expect(lines[0].contains("Launches · 20 loaded"))
            #expect(
                lines[1].contains("Mission") && lines[1].contains("Rocket") && lines[1].contains("Booked"))
            let rows = body(lines)
            let yearRows = headerRows(rows)
            #expect(rows.count == 20 + yearRows.count + 1)
            #expect(yearRows.count >= 2, "the first page spans two years or more")
            #expect(rows[0] == " ── 2020 ──")
            #expect(rows[1].hasPrefix("> Starlink-10"))
            #expect(headersMatchYears(rows), "\(rows)")
            #expect(rows.last == "  Load more")
            #expect(lines.count == 30)
            #expect(lines.allSatisfy { $0.count <= 100 })
        }
    }

    @Test("j, k and the arrows move the selection; PageDown scrolls the body")
    func scrolling() async throws {
        try await withLaunchServer { server in
            let session = try demoSession(server, rows: 13)
            await session.start()
            await session.settle()
            let second = launchRows(await session.text())[1]
            await session.send([.character("j"), .down, .character("k")])
            #expect(selectedLine(await session.text()) == "> " + second.dropFirst(2))
            await session.send(.pageDown)
            let lines = await session.text()
            #expect(await session.screen.selection == 11)
            #expect(body(lines).count == 10)
            #expect(!body(lines).contains { $0.contains("Starlink-10") })
            await session.send(.home)
            #expect(selectedLine(await session.text())?.contains("Starlink-10") == true)
        }
    }

    @Test("the next page loads by itself within the prefetch distance of the end, until all are loaded")
    func autoLoad() async throws {
        let hold = ServerHold()
        try await withLaunchServer(hold.configure) { server in
            // Tall enough that the footer shows below the selection's page, headers and all.
            let session = try demoSession(server, rows: 40)
            await session.start()
            await hold.gate.nextArrival().open()
            await session.settle()
            for _ in 0..<13 { await session.send(.down) }
            await session.settle()
            #expect(await session.screen.items.count == 20)
            await session.send(.down)  // index 14: 5 from the end
            let second = await hold.gate.nextArrival()
            #expect(await session.text().contains { $0.contains("Loading…") })
            hold.release()
            second.open()
            await session.settle()
            #expect(await session.screen.items.count == 40)
            for _ in 0..<10 {
                await session.send(.end)
                await session.settle()
            }
            let lines = await session.text()
            #expect(lines.contains("> All 100 launches loaded"))
            #expect(body(lines).dropLast().last?.contains("FalconSat") == true)
        }
    }

    @Test("Enter opens the details through launch(id:), and Esc goes back")
    func details() async throws {
        let hold = ServerHold()
        try await withLaunchServer(hold.configure) { server in
            let session = try demoSession(server)
            await session.start()
            await hold.gate.nextArrival().open()
            await session.settle()
            await session.send(.enter)
            let query = await hold.gate.nextArrival()
            #expect(await session.text().contains { $0.contains("Loading…") })
            hold.release()
            query.open()
            await session.settle()
            let lines = await session.text()
            #expect(lines[0].contains("Starlink-10"))
            #expect(lines.contains { $0.contains("Rocket    Falcon 9") })
            #expect(lines.contains { $0.contains("Patch") && $0.contains("http") })
            await session.send(.escape)
            #expect(await session.text()[0].contains("Launches"))
        }
    }

    @Test("b books the selected trip at once, the server confirms it, and b again cancels it")
    func booking() async throws {
        try await withLaunchServer { server in
            let session = try demoSession(server)
            await session.start()
            await session.settle()
            #expect(selectedLine(await session.text())?.hasSuffix("✓") == false)
            await session.send(.character("b"))
            // Shown at once, before the mutation's answer.
            #expect(selectedLine(await session.text())?.hasSuffix("✓") == true)
            await session.settle()
            #expect(selectedLine(await session.text())?.hasSuffix("✓") == true)
            #expect(await session.text().last?.contains("1 trip booked") == true)
            // The server has it: the details query says so.
            await session.send(.enter)
            await session.settle()
            #expect(await session.text().contains { $0.contains("You have a trip booked") })
            await session.send(.escape)
            await session.send(.character("b"))
            await session.settle()
            #expect(selectedLine(await session.text())?.hasSuffix("✓") == false)
            #expect(await session.text().last?.contains("cancelled") == true)
        }
    }

    @Test("R refreshes: the list starts over from the first page")
    func refresh() async throws {
        try await withLaunchServer { server in
            let session = try demoSession(server)
            await session.start()
            await session.settle()
            await session.send(.end)
            await session.settle()
            #expect(await session.screen.items.count > 20)
            await session.send(.character("R"))
            #expect(await session.text().last?.contains("Refreshing…") == true)
            await session.settle()
            #expect(await session.screen.items.count == 20)
            #expect(await session.text()[0].contains("20 loaded"))
        }
    }
}

@Suite("the list screen's footer states and retry")
struct ScreenFooterTests {
    @Test("a failed load shows the error with r to retry, keeps the rows, and r loads the page")
    func retry() async throws {
        let launches = ScriptedLaunches(count: 50)
        let session = try launches.session()
        await session.start()
        await session.settle()
        launches.failNext(1)
        await session.send(.end)
        await session.settle()
        var lines = await session.text()
        #expect(lines.contains { $0.contains("Error: injected failure — r to retry") })
        #expect(await session.screen.items.count == 20)
        await session.send(.character("r"))
        await session.settle()
        lines = await session.text()
        #expect(await session.screen.items.count >= 40)
        #expect(!lines.contains { $0.contains("r to retry") })
    }

    @Test("a failed first load shows the error, and Enter on the footer retries it")
    func firstLoadFailure() async throws {
        let launches = ScriptedLaunches(count: 30)
        launches.failNext(1)
        let session = try launches.session()
        await session.start()
        await session.settle()
        #expect(body(await session.text()) == ["> Error: injected failure — r to retry"])
        await session.send(.enter)
        await session.settle()
        #expect(await session.screen.items.count == 20)
    }

    @Test("the footer reads Loading…, Load more, then All N launches loaded")
    func footerStates() async throws {
        let gate = FetchGate<String?>()
        let launches = ScriptedLaunches(count: 25, gate: gate)
        let session = try launches.session(size: ScreenSize(rows: 40, columns: 100))
        #expect(body(await session.text()) == ["> Loading…"])
        await session.start()
        await gate.nextArrival().open()
        await session.settle()
        #expect(body(await session.text()).last == "  Load more")
        await session.send(.end)
        // The second page's load is held at the gate: in flight while the screen is read.
        let second = await gate.nextArrival()
        #expect(second.arguments == "20")
        #expect(body(await session.text()).last == "> Loading…")
        second.open()
        await session.settle()
        // The selection stays on row 20, now a launch; the footer moved below the new page.
        #expect(body(await session.text()).last == "  All 25 launches loaded")
        await session.send(.character("r"))
        #expect(await session.text().last == " Nothing to retry.")
    }

    @Test("browse has no booking: b says so")
    func noBooking() async throws {
        let session = try ScriptedLaunches(count: 5).session()
        await session.start()
        await session.settle()
        await session.send(.character("b"))
        #expect(await session.text().last?.contains("Booking is part of the demo") == true)
    }

    @Test("q and Ctrl-C quit")
    func quit() async throws {
        let session = try ScriptedLaunches(count: 5).session()
        #expect(await session.send(.character("q")) == false)
        #expect(await session.send(.interrupt) == false)
        #expect(await session.send(.down) == true)
    }
}

@Suite("terminal keys")
struct ScreenKeyTests {
    @Test("escape sequences, Enter, Ctrl-C and characters decode into keys")
    func decode() {
        let bytes: [UInt8] = Array("\u{1B}[A\u{1B}[B\u{1B}[5~\u{1B}[6~\u{1B}OH\u{1B}[4~\rjq\u{03}".utf8)
        #expect(
            ScreenKey.decode(bytes) == [
                .up, .down, .pageUp, .pageDown, .home, .end, .enter, .character("j"), .character("q"),
                .interrupt,
            ])
        #expect(ScreenKey.decode([0x1B]) == [.escape])
    }
}
