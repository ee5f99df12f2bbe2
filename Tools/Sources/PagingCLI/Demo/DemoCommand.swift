import ArgumentParser
import Foundation
import LaunchServer
import Paging
import PagingGraphQLClient
import PagingSQLite

/// `paging demo`: the Apollo tutorial's launch list, paged live from the launch server started
/// in-process, in the terminal; or, when the output is not a terminal, each page printed as it
/// loads.
struct DemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "The Apollo tutorial's launch list, paged live in the terminal.",
        discussion: """
            Starts the launch server in-process on a loopback port and opens the launch list, newest \
            first. Keys: ↑/↓ or j/k move, PgUp/PgDn page, Enter details, b book or cancel, / search, \
            R refresh, r retry, o network on or off (with --database), q quit. The next page loads by \
            itself as the selection nears the end.

            / searches the missions' names as you type: the list switches a quarter of a second after \
            the last key, the launches shown staying until the first page of the new list comes; Enter \
            ends the typing, Esc goes back to the whole list, which shows at once and takes what is \
            new at its top. The last five searches are kept, to show again without a request. Search \
            is not part of the demo with --database.

            When the output is not a terminal, the demo prints each page as it loads and exits after \
            the last.

            With --database FILE the list is kept in a SQLite file, and so is the client's normalized \
            store (the details of launches opened): a second run shows the list at once from the file \
            and pages on from the network where the file ends. With --offline as well, the network \
            starts off: the list shows what the file holds, the title line says it is offline and \
            when it was last refreshed (from the first frame, for as long as the network is off, or \
            once a request for the list fails), paging on fails, and the details of a launch never \
            opened online are not available; o turns the network on (or off again), and r then \
            pages on.

            With --live the server schedules a launch every --schedule-every seconds, and the list \
            shows each at the top as it comes, over a GraphQL subscription (WebSocket), while you \
            scroll; the title line says live, catching up, or reconnecting. o turns the network off \
            and on: the launches scheduled meanwhile come in at the top once the list is live again, \
            each once, and the rows below do not move. Without a terminal, --live prints the first \
            page, then each launch as it arrives, until --live-count have.
            """
    )

    @Option(name: .customLong("page-size"), help: "Launches per page.")
    var pageSize: Int = 20

    @Option(
        name: .customLong("prefetch"), help: "Load the next page when the selection is this close to the end."
    )
    var prefetchDistance: Int = 5

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Keep the list in this SQLite file, and open it from there the next time.", valueName: "file"))
    var database: String?

    @Flag(
        name: .long,
        help: "Start with the network off: show what --database holds, as without one; o turns it on.")
    var offline = false

    @Flag(
        name: .long,
        help: "Keep the list live: launches scheduled by the server appear at the top as they come.")
    var live = false

    @Option(
        name: .customLong("schedule-every"),
        help: ArgumentHelp("With --live: how often the server schedules a launch.", valueName: "seconds"))
    var scheduleEvery: Double = 2

    @Option(
        name: .customLong("live-count"),
        help: ArgumentHelp(
            "With --live and no terminal: how many live launches to print before exiting.", valueName: "count"
        ))
    var liveCount: Int = 3

    @OptionGroup var server: ServerOptions

    func validate() throws {
        guard (1...100).contains(pageSize) else {
            throw ValidationError("--page-size must be between 1 and 100; it is \(pageSize).")
        }
        guard prefetchDistance >= 0 else {
            throw ValidationError("--prefetch must be 0 or more; it is \(prefetchDistance).")
        }
        guard !offline || database != nil else {
            throw ValidationError("--offline shows what --database holds: give --database FILE too.")
        }
        guard !live || database == nil else {
            throw ValidationError(
                "--live shows the server's list as it changes; it does not take --database.")
        }
        guard (0.01...86_400).contains(scheduleEvery) else {
            throw ValidationError(
                "--schedule-every must be between 0.01 and 86400 seconds; it is \(scheduleEvery).")
        }
        guard liveCount >= 0 else {
            throw ValidationError("--live-count must be 0 or more; it is \(liveCount).")
        }
    }

    func run() async throws {
        let io = CommandIO.current
        let terminal = RawTerminal()
        let interactive = io.isOutputTerminal && terminal.isInteractive
        var configuration = server.configuration(
            defaultLatency: interactive ? .random(.milliseconds(150) ... .milliseconds(600)) : .none)
        if live { configuration.scheduleEvery = .milliseconds(Int64(scheduleEvery * 1000)) }
        let running: LaunchServer
        do {
            running = try await LaunchServer.start(configuration)
        } catch {
            throw CLIError.failed("the launch server could not start: \(error).")
        }
        // With --offline the network starts off: every request fails at once, as without one,
        // until o turns it on (the server runs all along).
        let network = NetworkSwitch(on: !offline)
        let endpoint = running.graphQLURL
        let result: Result<Void, any Error>
        var storeFile: GraphQLStoreFile?
        do {
            // With a database, the client's normalized store is kept in it too: details and
            // bookings seen once are there offline.
            let store = database.map { _ in GraphQLStore() }
            if let database, let store { storeFile = try Self.attachStoreFile(path: database, to: store) }
            if live {
                try await runLive(
                    server: running, network: network, io: io, terminal: terminal, interactive: interactive)
                await running.stop()
                return
            }
            let api = TutorialAPI(
                client: GraphQLClient(
                    endpoint: endpoint, timeout: .seconds(15), transport: network, store: store))
            if let database {
                // The client's store file takes each page's launches before the list file takes
                // the page, so that a kill never leaves a stored page whose launches (their details
                // offline) the store file lacks: the list is read from its file from then on, and
                // those launches would not be asked for again.
                let file = storeFile
                let source = try Self.offlineFirstSource(
                    api: api, path: database, network: network, settled: { try? await file?.flush() })
                let pager = try Self.makePager(
                    source: source, pageSize: pageSize, prefetchDistance: prefetchDistance)
                try await present(
                    pager: pager, api: api, io: io, terminal: terminal, interactive: interactive,
                    note: { Self.offlineNote(source, network: network) },
                    network: network,
                    // A booking is written through to the file: the next run shows it too.
                    booked: { launch in _ = try? await source.update(launch) })
            } else {
                let search = await Self.makeSearch(
                    api: api,
                    configuration: try Self.configuration(
                        pageSize: pageSize, prefetchDistance: prefetchDistance))
                try await present(
                    pager: await search.readShown().pager, search: search, api: api, io: io,
                    terminal: terminal,
                    interactive: interactive)
            }
            do {
                try await storeFile?.flush()
            } catch {
                io.standardError.line("paging: \(error.message)")
            }
            result = .success(())
        } catch {
            result = .failure(error)
        }
        await running.stop()
        try result.get()
    }

    /// The store file in the database at `path`, attached to `store`.
    static func attachStoreFile(path: String, to store: GraphQLStore) throws -> GraphQLStoreFile {
        do {
            let file = try GraphQLStoreFile(path: path)
            try file.attach(store)
            return file
        } catch {
            throw CLIError.failed("\(error.message)")
        }
    }

    /// Shows the list in the terminal, or prints its pages.
    private func present<Key>(
        pager: Pager<Key, TutorialLaunch>, search: ListSearch<Key, TutorialLaunch>? = nil, api: TutorialAPI,
        io: CommandIO, terminal: RawTerminal, interactive: Bool,
        note: @escaping @Sendable () -> String? = { nil },
        network: NetworkSwitch? = nil,
        booked: @escaping @Sendable (TutorialLaunch) async -> Void = { _ in }
    ) async throws {
        if interactive {
            let session = Self.makeSession(
                api: api, pager: pager, search: search, note: note, network: network, booked: booked)
            try await TerminalRunner.run(session, terminal: terminal)
        } else {
            try await Self.printPages(pager: pager, io: io)
        }
    }

    /// The launch list kept in the SQLite file at `path`.
    /// - Parameters:
    ///   - network: told how each request to the server for a page ended, for the title line's
    ///     offline note (``offlineNote(_:network:)``).
    ///   - settled: awaited after each page comes from the server, before the page is written to
    ///     the file.
    static func offlineFirstSource(
        api: TutorialAPI, path: String, network: NetworkSwitch? = nil,
        settled: @escaping @Sendable () async -> Void = {}
    ) throws -> OfflineFirstSource<HasMoreCursorSource<String, TutorialLaunch>> {
        do {
            return OfflineFirstSource(
                remote: api.source(
                    settled: settled, ended: { failed in network?.listRequestEnded(failed: failed) }),
                file: try LocalListFile(path: path), list: "demo-launches")
        } catch {
            throw CLIError.failed("\(error.message)")
        }
    }

    /// "offline, last refreshed 14:02" for the title line while the network is off, or when the
    /// list's last request since it came on failed; "offline" when the file has no refresh time.
    static func offlineNote(
        _ source: OfflineFirstSource<HasMoreCursorSource<String, TutorialLaunch>>, network: NetworkSwitch
    ) -> String? {
        guard network.isListOffline else { return nil }
        guard let refreshed = try? source.lastRefreshed() else { return "offline" }
        let formatter = DateFormatter()
        formatter.dateFormat = Calendar.current.isDateInToday(refreshed) ? "HH:mm" : "yyyy-MM-dd HH:mm"
        return "offline, last refreshed \(formatter.string(from: refreshed))"
    }

    /// The demo's pager over a source of the tutorial's launch list.
    static func makePager<Source: PageSource<Source.Key, TutorialLaunch>>(
        source: Source, pageSize: Int, prefetchDistance: Int
    ) throws -> Pager<Source.Key, TutorialLaunch> {
        Pager(
            source: source,
            configuration: try configuration(pageSize: pageSize, prefetchDistance: prefetchDistance))
    }

    /// The configuration of the demo's lists.
    static func configuration(pageSize: Int, prefetchDistance: Int) throws -> PagingConfiguration {
        do {
            return try PagingConfiguration(pageSize: pageSize, prefetchDistance: prefetchDistance)
        } catch {
            throw CLIError.usage("\(error)")
        }
    }

    /// The demo's search: the whole launch list for the empty text, else the launches whose mission
    /// name contains the text (`launchConnection(search:)`), each counting its matches.
    @MainActor
    static func makeSearch(
        api: TutorialAPI, configuration: PagingConfiguration, interval: Duration = .milliseconds(250)
    ) -> ListSearch<String, TutorialLaunch> {
        let matches = MatchCounts()
        return ListSearch(interval: interval, configuration: configuration, matches: matches) {
            text -> any PageSource<String, TutorialLaunch> in
            guard !text.isEmpty else { return api.source() }
            return api.searchSource(text) { count in matches.record(count, for: text) }
        }
    }

    /// The demo's screen over a pager: details by `launch(id:)`, booking by the tutorial's mutations;
    /// `booked` hears each launch a booking changed (to write it through to the database), and
    /// `network`, when given, is what the `o` key cuts and brings back.
    static func makeSession<Key>(
        api: TutorialAPI, pager: Pager<Key, TutorialLaunch>, search: ListSearch<Key, TutorialLaunch>? = nil,
        size: ScreenSize = ScreenSize(rows: 24, columns: 80),
        note: @escaping @Sendable () -> String? = { nil },
        network: NetworkSwitch? = nil,
        booked: @escaping @Sendable (TutorialLaunch) async -> Void = { _ in }
    )
        -> ListSession<Key, TutorialLaunch>
    {
        let actions = ScreenActions<TutorialLaunch>(
            details: { launch in
                let found: TutorialLaunch?
                do {
                    found = try await api.launch(id: launch.id)
                } catch {
                    // Neither the network nor the store has them: say why, and what brings them.
                    throw NetworkSwitch.isOff(error) ? DetailsOffline() : error
                }
                guard let fresh = found else {
                    return (
                        launch.mission?.name ?? "Launch \(launch.id)",
                        ["The server has no launch with id \(launch.id) any more."]
                    )
                }
                return (fresh.mission?.name ?? "Launch \(fresh.id)", fresh.detailLines)
            },
            toggled: { launch in
                var copy = launch
                copy.isBooked.toggle()
                return copy
            },
            toggleBooking: { launch in
                let result = try await api.setBooked(launch, booked: !launch.isBooked)
                await booked(result.item)
                return result
            },
            toggleNetwork: network.map(Self.networkToggle)
        )
        return ListSession(
            screen: ListScreen(
                title: "Launches", noun: "launches", canBook: true, canSwitchNetwork: network != nil,
                headers: TutorialLaunch.yearHeaders, size: size),
            pager: pager, search: search, format: TutorialLaunch.rowFormat, actions: actions, note: note)
    }

    /// The details of a launch asked for while the network is off, which the store does not hold.
    struct DetailsOffline: Error, ScreenMessage {
        var screenMessage: String {
            "These details are not available offline: they were never stored.\n"
                + "o turns the network on (in the list)."
        }
    }

    /// What the `o` key does: switches the network and says how it is now.
    static func networkToggle(_ network: NetworkSwitch) -> @Sendable () -> String {
        {
            network.toggle()
                ? "Network on: r retries, R refreshes." : "Network off: requests fail as without a network."
        }
    }

    /// Prints each page as it loads, then a summary; retries a failed page a few times.
    static func printPages<Key>(pager: Pager<Key, TutorialLaunch>, io: CommandIO, maximumRetries: Int = 5)
        async throws
    {
        var page = 0
        var printed = 0
        var failures = 0
        while true {
            do {
                _ = try await pager.loadNext().value
                failures = 0
            } catch {
                failures += 1
                io.standardError.line("paging: page \(page + 1) failed: \(ErrorText.short(error))")
                guard failures <= maximumRetries else {
                    throw CLIError.failed(
                        "page \(page + 1) failed \(failures) times: \(error). Lower --failure-rate, or run again."
                    )
                }
                continue
            }
            let items = pager.items
            if items.count > printed {
                page += 1
                io.standardOutput.line("Page \(page): launches \(printed + 1)–\(items.count)")
                for index in printed..<items.count {
                    io.standardOutput.line("  " + Self.plainRow(items[index]))
                }
                printed = items.count
            }
            if !pager.hasNext { break }
        }
        io.standardOutput.line("All \(printed) launches loaded.")
    }

    /// A launch as one line of plain text.
    static func plainRow(_ launch: TutorialLaunch) -> String {
        let cells = TutorialLaunch.rowFormat.cells(launch)
        return TutorialLaunch.rowFormat.line(cells, width: 100).trimmingCharacters(in: .whitespaces)
    }
}
