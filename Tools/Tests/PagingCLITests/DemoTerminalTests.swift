import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

@Suite("paging demo in a pseudo-terminal")
struct DemoTerminalTests {
    /// The `paging` executable built next to this test bundle.
    private static var executable: URL? {
        let bundle = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
            .deletingLastPathComponent()
        let candidates = [bundle, Bundle.main.bundleURL.deletingLastPathComponent(), Bundle.main.bundleURL]
            .map { $0.appendingPathComponent("paging") }
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }

    @Test(
        "draws the launch list, loads more on End, and q or Ctrl-C quits and restores the terminal",
        arguments: ["q", "\u{03}"])
    func demoInPseudoTerminal(quitKey: String) async throws {
        let terminal = try PseudoTerminal(rows: 30, columns: 100)
        let cookedModes = terminal.localModes
        #expect(cookedModes & tcflag_t(ICANON) != 0)

        var beforeQuit = 0
        let status = try await Self.run(["demo", "--latency", "0"], in: terminal) { terminal in
            #expect(
                await terminal.waitFor("\u{1B}[?1049h"),
                "the alternate screen was not entered:\n\(terminal.output)")
            #expect(await terminal.waitFor("Launches · 20 loaded"), "no first page:\n\(terminal.output)")
            #expect(await terminal.waitFor("Starlink-10"))
            #expect(await terminal.waitFor(" ── 2020 ──"), "no year header above the first launches")
            #expect(await terminal.waitFor("Load more"))
            // Raw mode while the demo runs.
            #expect(terminal.localModes & tcflag_t(ICANON | ECHO) == 0)

            let mark = terminal.outputCount
            terminal.type("G")
            #expect(
                await terminal.waitFor("Launches · 40 loaded", after: mark), "End did not load the next page")
            beforeQuit = terminal.outputCount
            terminal.type(quitKey)
        }
        #expect(status == 0, "the demo did not exit with 0 after \(quitKey.debugDescription)")
        #expect(
            await terminal.waitFor("\u{1B}[?1049l", after: beforeQuit), "the alternate screen was not left")
        #expect(
            terminal.output.hasSuffix("\u{1B}[?1049l") || terminal.output.contains("\u{1B}[?25h\u{1B}[?1049l")
        )
        #expect(terminal.localModes == cookedModes, "the terminal's modes were not restored")
    }

    @Test("browse --offset draws placeholder rows for the launches not loaded, and G jumps to the end")
    func browseOffsetInPseudoTerminal() async throws {
        try await withLaunchServer { server in
            let status = try await Self.run([
                "browse", "--endpoint", server.graphQLURL.absoluteString, "--offset", "--page-size", "10",
                "--fields", "id,site", "--query", BrowseOffsetTests.query,
            ]) { terminal in
                #expect(
                    await terminal.waitFor("launchPage · 10 loaded of 100"),
                    "no first page:\n\(terminal.output)")
                #expect(await terminal.waitFor("░"), "no placeholder row")
                let mark = terminal.outputCount
                terminal.type("G")
                #expect(
                    await terminal.waitFor("End of the 100 nodes", after: mark), "G did not reach the end")
                terminal.type("q")
            }
            #expect(status == 0)
        }
    }

    @Test(
        "/ searches as you type: the list switches after the last key, the title and footer say the search and its count, Esc goes back"
    )
    func demoSearchInPseudoTerminal() async throws {
        // Tall enough that the footer shows below a page of matches and their years' headers.
        let tall = try PseudoTerminal(rows: 48, columns: 120)
        let status = try await Self.run(["demo", "--latency", "0"], in: tall) { terminal in
            #expect(await terminal.waitFor("Launches · 20 loaded"), "no first page:\n\(terminal.output)")
            #expect(await terminal.waitFor("/ search"), "the key help does not name /")
            var mark = terminal.outputCount
            terminal.type("/")
            #expect(await terminal.waitFor(" /▏", after: mark), "no search field")
            // Three keys in one read: one switch, once the typing pauses.
            mark = terminal.outputCount
            terminal.type("sat")
            #expect(
                await terminal.waitFor("Launches matching “sat” · 20 loaded", after: mark),
                "the list did not switch:\n\(terminal.output.suffix(3000))")
            #expect(await terminal.waitFor("Load more · 20 of 24 launches matching “sat”", after: mark))
            mark = terminal.outputCount
            terminal.type("\u{1B}")
            #expect(
                await terminal.waitFor(" Launches · 20 loaded", after: mark),
                "Esc did not show the whole list")
            terminal.type("q")
        }
        #expect(status == 0)
    }

    @Test(
        "--live: the title says live, scheduled launches come in at the top; o says reconnecting, o again live"
    )
    func demoLiveInPseudoTerminal() async throws {
        let status = try await Self.run(["demo", "--latency", "0", "--live", "--schedule-every", "0.2"]) {
            terminal in
            #expect(
                await terminal.waitFor(" · live"),
                "the title does not say live:\n\(terminal.output.suffix(2000))")
            #expect(
                await terminal.waitFor("Scheduled mission 2"),
                "no scheduled launch came in:\n\(terminal.output.suffix(2000))")
            var mark = terminal.outputCount
            terminal.type("o")
            #expect(
                await terminal.waitFor("reconnecting (attempt", after: mark),
                "the network off does not say reconnecting:\n\(terminal.output.suffix(2000))")
            mark = terminal.outputCount
            terminal.type("o")
            #expect(await terminal.waitFor(" · live", after: mark), "not live again")
            terminal.type("q")
        }
        #expect(status == 0)
    }

    @Test("--live without a terminal prints the first page, then each launch as it arrives, oldest first")
    func demoLivePrinted() async throws {
        let executable = try #require(
            Self.executable, "build the paging product first (swift build --build-tests)")
        let process = Process()
        process.executableURL = executable
        process.arguments = ["demo", "--live", "--schedule-every", "0.05", "--live-count", "3"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        // Read on a thread of its own, and the exit awaited: a blocking read on this task's
        // thread would hold one of the few threads every other test runs on for the whole run.
        let (exited, exit) = AsyncStream<Int32>.makeStream()
        process.terminationHandler = { process in
            exit.yield(process.terminationStatus)
            exit.finish()
        }
        let (read, reading) = AsyncStream<Data>.makeStream()
        let handle = output.fileHandleForReading
        try process.run()
        defer { if process.isRunning { process.terminate() } }
        Thread.detachNewThread {
            reading.yield(handle.readDataToEndOfFile())
            reading.finish()
        }
        var data = Data()
        for await chunk in read { data = chunk }
        var status: Int32?
        for await code in exited { status = code }
        #expect(status == 0)
        let lines = String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("Live: launches 1–") == true, "\(lines)")
        let arrived = lines.filter { $0.hasPrefix("New: ") }
        #expect(arrived.count == 3, "\(lines)")
        // Scheduled mission n, in the order they were scheduled.
        let numbers = arrived.compactMap { line in
            line.range(of: "Scheduled mission ").flatMap { range in
                Int(line[range.upperBound...].prefix { $0.isNumber })
            }
        }
        #expect(numbers.count == 3 && numbers == numbers.sorted(), "\(arrived)")
    }

    /// Runs `paging` with `arguments` in a pseudo-terminal (a new one unless given), hands the
    /// terminal to `body`, then waits for the process to exit (a minute at most) and returns its
    /// status.
    private static func run(
        _ arguments: [String], in given: PseudoTerminal? = nil, _ body: (PseudoTerminal) async throws -> Void
    ) async throws -> Int32? {
        let executable = try #require(
            Self.executable, "build the paging product first (swift build --build-tests)")
        let terminal = try given ?? PseudoTerminal(rows: 30, columns: 120)
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["TERM"] = "xterm-256color"
        process.environment = environment
        let handle = FileHandle(fileDescriptor: terminal.slave, closeOnDealloc: false)
        process.standardInput = handle
        process.standardOutput = handle
        process.standardError = handle
        let (exited, exit) = AsyncStream<Int32>.makeStream()
        process.terminationHandler = { process in
            exit.yield(process.terminationStatus)
            exit.finish()
        }
        try process.run()
        defer { if process.isRunning { process.terminate() } }
        try await body(terminal)
        let timeout = Task {
            try? await Task.sleep(for: patience)
            exit.finish()
        }
        defer { timeout.cancel() }
        var status: Int32?
        for await code in exited { status = code }
        return status
    }

    @Test(
        "--database --offline: the first frame says offline, the key help names o, unstored details say so, and o turns the network on"
    )
    func demoOfflineFromTheFirstFrame() async throws {
        let directory = try makeScratchFolder("paging-demo")
        defer { removeScratchFolder(directory) }
        let database = directory.appendingPathComponent("demo.sqlite").path

        // Online: the first page, kept in the file; no details opened.
        let first = try await Self.run(["demo", "--latency", "0", "--database", database]) { terminal in
            #expect(await terminal.waitFor("Launches · 20 loaded"), "no first page:\n\(terminal.output)")
            terminal.type("q")
        }
        #expect(first == 0)

        // Offline, with the file covering the list: no request fails, and the title says offline
        // from the first frame (drawn before the stored page is read).
        let second = try await Self.run(["demo", "--database", database, "--offline"]) { terminal in
            #expect(
                await terminal.waitFor(" Launches · 0 loaded · offline, last refreshed "),
                "the first frame does not say offline:\n\(terminal.output.suffix(2000))")
            #expect(await terminal.waitFor(" Launches · 20 loaded · offline, last refreshed "))
            #expect(await terminal.waitFor("r retry  o network  q quit"), "the key help does not name o")
            // The first launch's details were never opened: the store does not hold them.
            var mark = terminal.outputCount
            terminal.type("\r")
            #expect(
                await terminal.waitFor("These details are not available offline", after: mark),
                "\(terminal.output.suffix(2000))")
            #expect(await terminal.waitFor("o turns the network on", after: mark))
            terminal.type("\u{1B}")
            mark = terminal.outputCount
            terminal.type("o")
            #expect(await terminal.waitFor("Network on", after: mark), "no network switch")
            #expect(
                await terminal.waitFor(" Launches · 20 loaded\u{1B}[0m", after: mark),
                "the network is on, and the title still says offline:\n\(terminal.output.suffix(2000))")
            mark = terminal.outputCount
            terminal.type("\r")
            #expect(await terminal.waitFor("Rocket", after: mark), "no details with the network on")
            terminal.type("q")
        }
        #expect(second == 0)
    }

    @Test(
        "--database: offline, the stored launches, a booking and details show, their end says offline, and o and r page on"
    )
    func demoWithDatabase() async throws {
        let directory = try makeScratchFolder("paging-demo")
        defer { removeScratchFolder(directory) }
        let database = directory.appendingPathComponent("demo.sqlite").path

        // Online: the first launch booked and its details opened, and two pages, kept in the file.
        let first = try await Self.run(["demo", "--latency", "0", "--database", database]) { terminal in
            #expect(await terminal.waitFor("Launches · 20 loaded"), "no first page:\n\(terminal.output)")
            var mark = terminal.outputCount
            terminal.type("b")
            #expect(await terminal.waitFor("1 trip booked", after: mark), "no booking")
            mark = terminal.outputCount
            terminal.type("\r")
            #expect(await terminal.waitFor("You have a trip booked", after: mark), "no details")
            terminal.type("\u{1B}")
            mark = terminal.outputCount
            terminal.type("G")
            #expect(await terminal.waitFor("Launches · 40 loaded", after: mark))
            terminal.type("q")
        }
        #expect(first == 0)

        // Offline: what the file holds, at once; at its end the network is needed, and missing.
        let second = try await Self.run(["demo", "--database", database, "--offline"]) { terminal in
            #expect(await terminal.waitFor("Launches · 20 loaded"), "no stored page:\n\(terminal.output)")
            #expect(await terminal.waitFor("Starlink-10"))
            #expect(await terminal.waitFor("✓"), "the booking was not written through to the file")
            // The details opened online come from the store file.
            var mark = terminal.outputCount
            terminal.type("\r")
            #expect(
                await terminal.waitFor("You have a trip booked", after: mark),
                "no stored details:\n\(terminal.output.suffix(2000))")
            terminal.type("\u{1B}")
            mark = terminal.outputCount
            terminal.type("G")
            #expect(await terminal.waitFor("Launches · 40 loaded", after: mark), "the second stored page")
            mark = terminal.outputCount
            terminal.type("G")
            #expect(
                await terminal.waitFor("offline, last refreshed", after: mark),
                "no offline note:\n\(terminal.output.suffix(2000))")
            #expect(await terminal.waitFor("r to retry", after: mark))
            // The network back within the run: a retry pages on.
            mark = terminal.outputCount
            terminal.type("o")
            #expect(await terminal.waitFor("Network on", after: mark), "no network switch")
            mark = terminal.outputCount
            terminal.type("r")
            #expect(
                await terminal.waitFor("Launches · 60 loaded", after: mark),
                "paging did not resume:\n\(terminal.output.suffix(2000))")
            terminal.type("q")
        }
        #expect(second == 0)

        // The server is back: the stored pages, then the network's from where the file ends.
        let third = try await Self.run(["demo", "--latency", "0", "--database", database]) { terminal in
            #expect(await terminal.waitFor("Launches · 20 loaded"))
            var mark = terminal.outputCount
            terminal.type("G")
            #expect(await terminal.waitFor("Launches · 40 loaded", after: mark))
            mark = terminal.outputCount
            terminal.type("G")
            #expect(await terminal.waitFor("Launches · 60 loaded", after: mark), "the third stored page")
            mark = terminal.outputCount
            terminal.type("G")
            #expect(await terminal.waitFor("Launches · 80 loaded", after: mark), "paging did not resume")
            terminal.type("q")
        }
        #expect(third == 0)
    }
}
