import Paging
import PagingTesting
import Testing

// The Apollo iOS tutorial, "5. Paginate results", on the engine.
//
// The tutorial's launch list keeps the last `LaunchConnection` and the active
// request, shows a footer row ("Tap to load more" while `hasMore` is not
// false and nothing loads, "Loading..." while a request is active, no row
// once `hasMore` is false), loads `launches(after: cursor)` on a tap until
// `hasMore` is false (the last launch is FalconSat, Kwajalein Atoll), and
// alerts "GraphQL Error(s)" and "Network Error" apart.
//
// The new (000) and the old (001) version of the document describe the same
// behaviour with the same code (the old page differs in layout and a
// "previous version" banner only), so these tests cover both.

@Suite("Tutorial scenario: Paginate results")
struct TutorialScenarioTests {
    let launches: [Launch]

    init() throws {
        launches = try SpaceXLaunches.load()
    }

    /// The list as the tutorial shows it once everything is loaded: newest first.
    var newestFirst: [Launch] { launches.sorted { $0.launchDateUnix > $1.launchDateUnix } }

    @Test(
        "tapping 'Tap to load more' shows 'Loading...' and loads until hasMore is false, ending at FalconSat, Kwajalein Atoll"
    )
    func loadMoreUntilTheEnd() async throws {
        #expect(launches.count == 100)
        let server = TutorialLaunchServer(launches: launches)
        let gate = FetchGate<String?>()
        let screen = try LaunchesScreen(server: server, gate: gate)
        // No connection yet: there are more launches to load.
        #expect(screen.footer == "Tap to load more")

        var load = screen.viewDidLoad()
        var expectedCursor: String? = nil
        var pages = 0
        while true {
            #expect(screen.footer == "Loading...")
            let request = await gate.nextArrival()
            #expect(request.arguments == expectedCursor)
            // A second tap while loading neither fails nor asks again.
            let secondTap = screen.tapFooter()
            #expect(screen.footer == "Loading...")
            request.open()
            #expect(await screen.finish(load) == .loaded)
            #expect(await screen.finish(secondTap) == .loaded)
            pages += 1
            #expect(screen.pager.items.count == min(100, pages * 20))
            // The next request continues from the last launch shown.
            expectedCursor = String(try #require(screen.pager.items.last).launchDateUnix)
            guard let footer = screen.footer else { break }
            #expect(footer == "Tap to load more")
            load = screen.tapFooter()
        }

        #expect(pages == 5)
        #expect(server.requests.count == 5)
        #expect(server.requests.recorded.allSatisfy { $0.pageSize == 20 })
        #expect(Array(screen.pager.items) == newestFirst)
        #expect(Set(screen.pager.items.map(\.id)).count == 100)
        let last = try #require(screen.pager.items.last)
        #expect(last.mission == "FalconSat")
        #expect(last.site == "Kwajalein Atoll")
        #expect(screen.pager.loadStates.next == .endReached)
        #expect(screen.alerts.recorded.isEmpty)
        // With no footer row there is nothing to tap; a load now asks nothing.
        #expect(await screen.finish(screen.tapFooter()) == .endReached)
        #expect(server.requests.count == 5)
    }

    @Test(
        "a response with data and GraphQL errors shows its page and alerts the errors apart; paging goes on")
    func partialDataWithErrors() async throws {
        let server = TutorialLaunchServer(launches: launches)
        let screen = try LaunchesScreen(server: server)
        #expect(await screen.finish(screen.viewDidLoad()) == .loaded)
        let errors = [
            GraphQLResponseError(message: "Cannot return null for non-nullable field Mission.missionPatch.")
        ]
        server.schedule(.errors(errors, withData: true))
        #expect(await screen.finish(screen.tapFooter()) == .loaded)
        #expect(Array(screen.pager.items) == Array(newestFirst.prefix(40)))
        #expect(screen.alerts.recorded == [Alert(title: "GraphQL Error(s)", message: errors[0].message)])
        // The errors are not a failed load: nothing to retry, the footer invites the next tap.
        #expect(screen.pager.loadStates.next == .notLoading)
        #expect(screen.footer == "Tap to load more")
        #expect(await screen.finish(screen.tapFooter()) == .loaded)
        #expect(Array(screen.pager.items) == Array(newestFirst.prefix(60)))
    }

    @Test(
        "a network error fails the load, keeps the launches, alerts 'Network Error', and the next tap asks the same cursor again"
    )
    func networkError() async throws {
        let server = TutorialLaunchServer(launches: launches)
        let screen = try LaunchesScreen(server: server)
        #expect(await screen.finish(screen.viewDidLoad()) == .loaded)
        server.schedule(.networkDown)
        let failed = screen.tapFooter()
        let error = try #require(await #expect(throws: PagingError.self) { try await failed.value })
        #expect(error.code == .loadFailed)
        #expect(error.underlyingError is NetworkError)
        #expect(!(error.underlyingError is GraphQLErrors))
        #expect(
            LaunchesScreen.alert(for: error)
                == Alert(title: "Network Error", message: "The Internet connection appears to be offline."))
        #expect(Array(screen.pager.items) == Array(newestFirst.prefix(20)))
        #expect(screen.pager.loadStates.next == .failed(error))
        // As in the tutorial, the footer offers the tap again.
        #expect(screen.footer == "Tap to load more")
        #expect(await screen.finish(screen.tapFooter()) == .loaded)
        let requests = server.requests.recorded
        #expect(requests.count == 3)
        #expect(requests[1] == requests[2])
        #expect(Array(screen.pager.items) == Array(newestFirst.prefix(40)))
    }

    @Test(
        "GraphQL errors without data fail the load and alert 'GraphQL Error(s)', told apart from a network error"
    )
    func errorsWithoutData() async throws {
        let server = TutorialLaunchServer(launches: launches)
        let screen = try LaunchesScreen(server: server)
        #expect(await screen.finish(screen.viewDidLoad()) == .loaded)
        let errors = [
            GraphQLResponseError(message: "Too many requests"),
            GraphQLResponseError(message: "Try again later"),
        ]
        server.schedule(.errors(errors, withData: false))
        #expect(await screen.finish(screen.tapFooter()) == nil)
        #expect(
            screen.alerts.recorded == [
                Alert(title: "GraphQL Error(s)", message: "Too many requests\nTry again later")
            ])
        let error = try #require(screen.pager.loadStates.next.error)
        #expect(error.underlyingError as? GraphQLErrors == GraphQLErrors(errors: errors))
        #expect(!(error.underlyingError is NetworkError))
        #expect(Array(screen.pager.items) == Array(newestFirst.prefix(20)))
    }

    @Test(
        "a network error on the very first load leaves an empty list with 'Tap to load more', and a tap starts again"
    )
    func firstLoadNetworkError() async throws {
        let server = TutorialLaunchServer(launches: launches)
        let screen = try LaunchesScreen(server: server)
        server.schedule(.networkDown)
        #expect(await screen.finish(screen.viewDidLoad()) == nil)
        #expect(screen.alerts.recorded.map(\.title) == ["Network Error"])
        #expect(screen.pager.items.isEmpty)
        #expect(screen.pager.loadStates.refresh.error != nil)
        #expect(screen.footer == "Tap to load more")
        #expect(await screen.finish(screen.tapFooter()) == .loaded)
        #expect(
            server.requests.recorded == [
                TutorialLaunchServer.Request(pageSize: 20, after: nil),
                TutorialLaunchServer.Request(pageSize: 20, after: nil),
            ])
        #expect(Array(screen.pager.items) == Array(newestFirst.prefix(20)))
    }
}

// MARK: - The tutorial's server and screen

extension TutorialScenarioTests {
    /// The tutorial server's `LaunchConnection`.
    struct LaunchConnection: Sendable {
        var cursor: String?
        var hasMore: Bool
        var launches: [Launch]
    }

    /// An error in a GraphQL response's `errors`.
    struct GraphQLResponseError: Error, Sendable, Equatable {
        var message: String
    }

    /// A GraphQL response: data, errors, or both (partial data).
    struct GraphQLResult<Data: Sendable>: Sendable {
        var data: Data?
        var errors: [GraphQLResponseError]
    }

    /// The request never got a response: no connection, a timeout.
    struct NetworkError: Error, Sendable, Equatable {
        var message: String
    }

    /// A response that carried errors and no data: nothing to show.
    struct GraphQLErrors: Error, Sendable, Equatable {
        var errors: [GraphQLResponseError]
    }

    /// An in-memory stand-in for the tutorial's server and its
    /// `launches(pageSize: Int = 20, after: String): LaunchConnection!`:
    /// every launch, newest first; the cursor of a launch is its launch date;
    /// `hasMore` is whether the page's last launch is not the oldest.
    final class TutorialLaunchServer: Sendable {
        struct Request: Sendable, Equatable {
            var pageSize: Int
            var after: String?
        }

        enum Fault: Sendable {
            case networkDown
            case errors([GraphQLResponseError], withData: Bool)
        }

        private let newestFirst: [Launch]
        let requests = Recorder<Request>()
        private let faults = Recorder<Fault>()
        private let faultsUsed = Counter()

        init(launches: [Launch]) {
            newestFirst = launches.sorted { $0.launchDateUnix > $1.launchDateUnix }
        }

        static func cursor(of launch: Launch) -> String { String(launch.launchDateUnix) }

        /// Makes the next request not yet answered fail so.
        func schedule(_ fault: Fault) {
            faults.record(fault)
        }

        func launches(pageSize: Int, after cursor: String?) throws(NetworkError) -> GraphQLResult<
            LaunchConnection
        > {
            requests.record(Request(pageSize: pageSize, after: cursor))
            var fault: Fault?
            if faultsUsed.count < faults.count {
                fault = faults.recorded[faultsUsed.count]
                faultsUsed.increment()
            }
            if case .networkDown = fault {
                throw NetworkError(message: "The Internet connection appears to be offline.")
            }

            var start = 0
            if let cursor, let index = newestFirst.firstIndex(where: { Self.cursor(of: $0) == cursor }) {
                start = index + 1
            }
            let page = Array(newestFirst[start..<min(newestFirst.count, start + pageSize)])
            let connection = LaunchConnection(
                cursor: page.last.map(Self.cursor(of:)),
                hasMore: page.last.map {
                    Self.cursor(of: $0) != Self.cursor(of: newestFirst[newestFirst.count - 1])
                } ?? false,
                launches: page)
            if case .errors(let errors, let withData) = fault {
                return GraphQLResult(data: withData ? connection : nil, errors: errors)
            }
            return GraphQLResult(data: connection, errors: [])
        }
    }

    /// An alert the screen shows.
    struct Alert: Sendable, Equatable {
        var title: String
        var message: String
    }

    /// What the tutorial's `LaunchesViewController` does, on a pager: the
    /// fetch layer, the footer row, the tap, the alerts.
    final class LaunchesScreen: Sendable {
        let pager: Pager<String, Launch>
        let alerts = Recorder<Alert>()

        /// - Parameter gate: holds each request open until the test lets it
        ///   through, to look at the screen while it loads.
        init(server: TutorialLaunchServer, gate: FetchGate<String?>? = nil) throws {
            let alerts = self.alerts
            let source = HasMoreCursorSource<String, Launch> { pageSize, cursor in
                try await gate?.pass(cursor)
                let result = try server.launches(pageSize: pageSize, after: cursor)
                guard let connection = result.data else {
                    // Nothing to show: the load fails, and the screen alerts.
                    throw GraphQLErrors(errors: result.errors)
                }
                // Partial data: the page is shown, the errors are alerted apart.
                if !result.errors.isEmpty {
                    alerts.record(Self.graphQLAlert(result.errors))
                }
                return HasMorePage(
                    items: connection.launches, cursor: connection.cursor, hasMore: connection.hasMore)
            }
            pager = Pager(source: source, configuration: try .testing(pageSize: 20, prefetchDistance: 0))
        }

        /// The footer row's text, or `nil` when there is no footer row.
        var footer: String? {
            let snapshot = pager.snapshot
            guard snapshot.hasNext else { return nil }
            return snapshot.isLoadingNext || snapshot.isRefreshing ? "Loading..." : "Tap to load more"
        }

        /// `viewDidLoad`: the first page.
        func viewDidLoad() -> PageLoad {
            pager.loadNext()
        }

        /// The footer row was tapped. No "is a request active?" guard is needed:
        /// a tap while loading joins the load in flight.
        func tapFooter() -> PageLoad {
            pager.loadNext()
        }

        /// Waits for a load and alerts its failure, as the tutorial's
        /// completion handler does.
        func finish(_ load: PageLoad) async -> LoadOutcome? {
            do {
                return try await load.value
            } catch {
                alerts.record(Self.alert(for: error))
                return nil
            }
        }

        /// How an app tells a network error from GraphQL errors: by what the
        /// page source threw, kept in ``PagingError/underlyingError``.
        static func alert(for error: PagingError) -> Alert {
            switch error.underlyingError {
            case let network as NetworkError: Alert(title: "Network Error", message: network.message)
            case let graphQL as GraphQLErrors: graphQLAlert(graphQL.errors)
            default: Alert(title: "Error", message: error.description)
            }
        }

        static func graphQLAlert(_ errors: [GraphQLResponseError]) -> Alert {
            Alert(title: "GraphQL Error(s)", message: errors.map(\.message).joined(separator: "\n"))
        }
    }
}
