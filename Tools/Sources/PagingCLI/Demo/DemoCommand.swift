import ArgumentParser
import Foundation
import LaunchServer
import Paging
import PagingGraphQL

/// `paging demo`: the Apollo tutorial's launch list, paged live from the launch server started
/// in-process, in the terminal; or, when the output is not a terminal, each page printed as it
/// loads.
struct DemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "The Apollo tutorial's launch list, paged live in the terminal.",
        discussion: """
            Starts the launch server in-process on a loopback port and opens the launch list, newest \
            first. Keys: ↑/↓ or j/k move, PgUp/PgDn page, Enter details, b book or cancel, R refresh, \
            r retry, q quit. The next page loads by itself as the selection nears the end.

            When the output is not a terminal, the demo prints each page as it loads and exits after \
            the last.
            """
    )

    @Option(name: .customLong("page-size"), help: "Launches per page.")
    var pageSize: Int = 20

    @Option(
        name: .customLong("prefetch"), help: "Load the next page when the selection is this close to the end."
    )
    var prefetchDistance: Int = 5

    @OptionGroup var server: ServerOptions

    func validate() throws {
        guard (1...100).contains(pageSize) else {
            throw ValidationError("--page-size must be between 1 and 100; it is \(pageSize).")
        }
        guard prefetchDistance >= 0 else {
            throw ValidationError("--prefetch must be 0 or more; it is \(prefetchDistance).")
        }
    }

    func run() async throws {
        let io = CommandIO.current
        let terminal = RawTerminal()
        let interactive = io.isOutputTerminal && terminal.isInteractive
        let configuration = server.configuration(
            defaultLatency: interactive ? .random(.milliseconds(150) ... .milliseconds(600)) : .none)
        let running: LaunchServer
        do {
            running = try await LaunchServer.start(configuration)
        } catch {
            throw CLIError.failed("the launch server could not start: \(error).")
        }
        let api = TutorialAPI(client: GraphQLClient(endpoint: running.graphQLURL, timeout: .seconds(15)))
        let result: Result<Void, any Error>
        do {
            let pager = try Self.makePager(api: api, pageSize: pageSize, prefetchDistance: prefetchDistance)
            if interactive {
                let session = Self.makeSession(api: api, pager: pager)
                try await TerminalRunner.run(session, terminal: terminal)
            } else {
                try await Self.printPages(pager: pager, io: io)
            }
            result = .success(())
        } catch {
            result = .failure(error)
        }
        await running.stop()
        try result.get()
    }

    /// The demo's pager over the tutorial's launch list.
    static func makePager(api: TutorialAPI, pageSize: Int, prefetchDistance: Int) throws -> Pager<
        String, TutorialLaunch
    > {
        let configuration: PagingConfiguration
        do {
            configuration = try PagingConfiguration(pageSize: pageSize, prefetchDistance: prefetchDistance)
        } catch {
            throw CLIError.usage("\(error)")
        }
        return Pager(source: api.source(), configuration: configuration)
    }

    /// The demo's screen over a pager: details by `launch(id:)`, booking by the tutorial's mutations.
    static func makeSession(
        api: TutorialAPI, pager: Pager<String, TutorialLaunch>,
        size: ScreenSize = ScreenSize(rows: 24, columns: 80)
    )
        -> ListSession<TutorialLaunch>
    {
        let actions = ScreenActions<TutorialLaunch>(
            details: { launch in
                guard let fresh = try await api.launch(id: launch.id) else {
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
            toggleBooking: { launch in try await api.setBooked(launch, booked: !launch.isBooked) }
        )
        return ListSession(
            screen: ListScreen(title: "Launches", noun: "launches", canBook: true, size: size),
            pager: pager, format: TutorialLaunch.rowFormat, actions: actions)
    }

    /// Prints each page as it loads, then a summary; retries a failed page a few times.
    static func printPages(pager: Pager<String, TutorialLaunch>, io: CommandIO, maximumRetries: Int = 5)
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
