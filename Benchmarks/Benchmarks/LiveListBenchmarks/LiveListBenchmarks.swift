import Benchmark
import BenchmarkSupport
import Foundation
import GraphQLBenchmarkSupport
import Paging
import PagingGraphQLClient
import Synchronization

// Issue 42, live lists: a `ConnectionSource` list of 100,000 launches (1,000 pages of 100, loaded
// through the real client and store, as the GraphQL list suite's), kept live by `LiveList` over a
// subscription whose events the client writes to its store; the store's follower puts them into
// the list. Only the WebSocket is in memory (`InMemorySocket.swift`); a feeder task queues one
// `next` frame a millisecond on it, on a `ContinuousClock` deadline.
//
// 1. Latency: `launchAdded` events (`@prependEdge` into the list's connection), each a new launch
//    at the top. For each event, the time from `receive()` handing its frame to the client to a
//    task reading `pager.snapshots` seeing the snapshot that shows it at the top.
// 2. Memory flat: `launchUpdated` events, each renaming a held launch (every launch once in
//    100,000 events), so that the list and the store keep their size and any growth is what each
//    event leaves behind: resident memory after 100,000 events against after 10,000. What a
//    `launchAdded` event adds (a launch in the list and the store, which is data) is reported
//    from the latency run, in bytes per launch added.

let heldPages = 1_000
let launchesPerPage = 100
let heldCount = heldPages * launchesPerPage

/// The list's connection key in `launchListDocument`.
let connectionKey = "Launches_launches"

/// A new launch at the top of the list, as a server announces it.
let launchAdded = UntypedOperation(
    document: """
        subscription LaunchAdded {
          launchAdded {
            edge @prependEdge(connections: ["\(connectionKey)"]) {
              cursor node { id name }
            }
          }
        }
        """,
    operationName: "LaunchAdded")

/// A held launch renamed, as a server announces it.
let launchUpdated = UntypedOperation(
    document: "subscription LaunchUpdated { launchUpdated { id name } }", operationName: "LaunchUpdated")

/// The kind of events a run feeds.
enum Events: Sendable {
    /// `launchAdded`: event *e* adds launch 100,000 + *e* at the top.
    case added
    /// `launchUpdated`: event *e* renames the launch at row `updatedRow(e)` to `updatedName(e)`.
    case updated

    var subscription: UntypedOperation {
        switch self {
        case .added: launchAdded
        case .updated: launchUpdated
        }
    }

    /// The event's `data`, as JSON text.
    func data(_ event: Int) -> String {
        switch self {
        case .added:
            let id = heldCount + event
            return
                #"{"launchAdded":{"__typename":"LaunchAddedPayload","edge":{"__typename":"LaunchEdge","cursor":"c\#(id)","node":{"__typename":"Launch","id":"\#(id)","name":"Launch \#(id)"}}}}"#
        case .updated:
            return
                #"{"launchUpdated":{"__typename":"Launch","id":"\#(updatedRow(event))","name":"\#(updatedName(event))"}}"#
        }
    }
}

/// The launch an update renames: its id, and its row in the list (which holds launches 0 to
/// 99,999 in order). 7,919 is prime to 100,000: 100,000 events rename every launch once.
func updatedRow(_ event: Int) -> Int { event * 7_919 % heldCount }

/// The launch's name after the update; at most 15 bytes, as the names it replaces, so that a
/// renamed record holds its name inline as before.
func updatedName(_ event: Int) -> String { "Renamed \(event)" }

/// Answers the list's page requests from bodies made as they are asked for, and counts them.
final class CountingTransport: GraphQLTransport {
    let pages = LaunchPageTransport(pageSize: launchesPerPage, pageCount: heldPages) {
        launchPageBody(page: $0, pageSize: launchesPerPage, pageCount: heldPages)
    }
    let requests = Atomic<Int>(0)

    func send(_ request: GraphQLHTTPRequest) async throws -> GraphQLHTTPResponse {
        requests.add(1, ordering: .relaxed)
        return try await pages.send(request)
    }
}

/// The memory of the process now, from `/proc/self/status`, in kilobytes: resident in all, and
/// resident anonymous (the heap and stacks, without the pages of code and mapped files).
func residentKilobytes() -> (resident: Int, anonymous: Int) {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else {
        return (0, 0)
    }
    func field(_ name: String) -> Int {
        guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix(name + ":") }) else {
            return 0
        }
        return Int(line.split(whereSeparator: \.isWhitespace).dropFirst().first ?? "") ?? 0
    }
    return (field("VmRSS"), field("RssAnon"))
}

/// A list of 100,000 launches kept live by a `LiveList` over the in-memory socket, and a task
/// reading its snapshots that stamps each event when the list shows it.
final class LiveLaunchList: Sendable {
    let events: Events
    let times: EventTimes
    let server: InMemoryWebSocketServer
    let transport: CountingTransport
    let pager: Pager<String, Launch>
    private let shownCount = Atomic<Int>(0)
    private let tasks = Mutex<[Task<Void, any Error>]>([])

    /// Loads the list, starts the live list and the reader of its snapshots, and waits until the
    /// subscription is in place and the catch-up it starts is done.
    /// - Parameters:
    ///   - events: the kind of events to feed.
    ///   - count: the most events a run feeds.
    init(events: Events, count: Int) async throws {
        self.events = events
        let times = EventTimes(count: count)
        self.times = times
        server = InMemoryWebSocketServer(times: times)
        transport = CountingTransport()
        let webSocket = GraphQLWebSocketClient(
            url: URL(fileURLWithPath: "/graphql"), transport: server, acknowledgementTimeout: nil)
        let client = GraphQLClient(
            endpoint: URL(fileURLWithPath: "/graphql"), transport: transport, store: GraphQLStore(),
            webSocket: webSocket)
        pager = ConnectionSource(
            client: client, document: try ConnectionDocument(launchListDocument), as: Launch.self
        ).makePager(configuration: try PagingConfiguration(pageSize: launchesPerPage, prefetchDistance: 0))
        for _ in 0..<heldPages { _ = try await pager.loadNext().value }
        guard pager.items.count == heldCount else {
            throw BenchmarkSetupError("the list holds \(pager.items.count) launches")
        }

        let snapshots = pager.snapshots
        let live = LiveList(pager: pager, client: client, subscription: events.subscription)
        let running = Task { try await live.run() }
        let reading = Task { [self] in try await read(snapshots) }
        tasks.withLock { $0 = [running, reading] }

        // In place: the server answered the ping after the subscribe; the catch-up (a head
        // refresh, the 1,001st request) is applied.
        try await waitUntil("the subscription in place and the list caught up") {
            self.server.socket?.subscription.inPlace == true
                && self.transport.requests.load(ordering: .relaxed) > heldPages
                && !self.pager.loadStates.isLoading
        }
        guard pager.items.count == heldCount, pager.items.first?.id == "0" else {
            throw BenchmarkSetupError("the catch-up changed the list: \(pager.items.count) launches")
        }
    }

    /// Ends the live list and the reader.
    func stop() {
        for task in tasks.withLock({ $0 }) { task.cancel() }
    }

    /// Reads every snapshot; stamps each event the first snapshot that shows it.
    private func read(_ snapshots: AsyncStream<PagingSnapshot<Launch>>) async throws {
        var next = 0
        for await snapshot in snapshots {
            let now = times.now()
            let shown: Int
            switch events {
            case .added:
                // The launch at the top is the newest event shown; every event before it is too.
                guard let top = snapshot.items.first, let id = Int(top.id), id >= heldCount else { continue }
                shown = id - heldCount + 1
            case .updated:
                var through = next
                while through < times.count, snapshot.items[updatedRow(through)].name == updatedName(through)
                {
                    through += 1
                }
                shown = through
            }
            guard shown > next else { continue }
            times.shown(next..<shown, at: now)
            next = shown
            shownCount.store(next, ordering: .releasing)
        }
    }

    /// Feeds events, one frame a millisecond, then waits until the list shows the last.
    /// - Parameter range: the events.
    func feed(_ range: Range<Int>) async throws {
        guard let socket = server.socket else { throw BenchmarkSetupError("no connection") }
        let clock = ContinuousClock()
        var deadline = clock.now
        for event in range {
            deadline = deadline.advanced(by: .milliseconds(1))
            try await clock.sleep(until: deadline, tolerance: nil)
            socket.push(event: event, data: events.data(event))
        }
        try await waitUntil("the list showing event \(range.upperBound - 1)") {
            self.shownCount.load(ordering: .acquiring) >= range.upperBound
        }
    }

    /// Polls a condition every millisecond, for at most a minute.
    private func waitUntil(_ what: String, _ condition: @Sendable () -> Bool) async throws {
        let limit = ContinuousClock.now.advanced(by: .seconds(60))
        while !condition() {
            guard ContinuousClock.now < limit else {
                throw BenchmarkSetupError("timed out waiting for \(what)")
            }
            try await Task.sleep(for: .milliseconds(1))
        }
    }
}

/// The metrics of this suite, as plain numbers.
enum LiveMetric {
    static func count(_ name: String) -> BenchmarkMetric {
        .custom(name, polarity: .prefersSmaller, useScalingFactor: false)
    }

    /// Per event: from `receive()` handing the frame to the client to the list showing the event.
    static let receivedToShown = count("received to shown (ns)")
    /// Per event: from the feeder queuing the frame to the list showing the event.
    static let pushedToShown = count("queued to shown (ns)")
    /// What each launch added leaves in resident memory, all and anonymous.
    static let residentPerLaunch = count("resident bytes per launch added")
    static let anonymousPerLaunch = count("anonymous resident bytes per launch added")
    /// Resident memory after 10,000 and 100,000 updates, all and anonymous, and their ratios.
    static let residentAt10k = count("resident after 10,000 events (kB)")
    static let residentAt100k = count("resident after 100,000 events (kB)")
    static let residentRatio = count("resident after 100,000 / after 10,000 (per mille)")
    static let anonymousAt10k = count("anonymous resident after 10,000 events (kB)")
    static let anonymousAt100k = count("anonymous resident after 100,000 events (kB)")
    static let anonymousRatio = count("anonymous resident after 100,000 / after 10,000 (per mille)")
    /// Anonymous resident growth per event over each half, from 10,000 to 55,000 and on to 100,000:
    /// whether what grows goes on growing.
    static let firstHalfGrowth = count("anonymous resident bytes per event, events 10,000-55,000")
    static let secondHalfGrowth = count("anonymous resident bytes per event, events 55,000-100,000")

    static func configuration(_ metrics: [BenchmarkMetric]) -> Benchmark.Configuration {
        Benchmark.Configuration(
            metrics: metrics, units: Dictionary(uniqueKeysWithValues: metrics.map { ($0, .count) }),
            warmupIterations: 0, maxDuration: .seconds(600), maxIterations: 1)
    }
}

/// The events of the latency run: the first `warmUp` are not measured.
let latencyWarmUp = 1_000
let latencyEvents = 10_000
/// The events of the memory run, and where the first reading is taken.
let memoryFirstReading = 10_000
let memoryMiddleReading = 55_000
let memoryEvents = 100_000

let benchmarks: @Sendable () -> Void = {
    let added = Shared<LiveLaunchList>()
    Benchmark(
        "live list: 100,000 held, 1,000 launchAdded a second, from the frame received to the list showing it",
        configuration: LiveMetric.configuration([
            LiveMetric.receivedToShown, LiveMetric.pushedToShown, LiveMetric.residentPerLaunch,
            LiveMetric.anonymousPerLaunch,
        ]),
        closure: { benchmark in
            let list = try added.get()
            try await list.feed(0..<latencyWarmUp)
            let before = residentKilobytes()
            try await list.feed(latencyWarmUp..<latencyEvents)
            let after = residentKilobytes()
            guard list.pager.items.count == heldCount + latencyEvents,
                list.pager.items.first?.id == String(heldCount + latencyEvents - 1)
            else { throw BenchmarkSetupError("the list does not show every launch added at its top") }
            let measured = latencyWarmUp..<latencyEvents
            for time in list.times.receivedToShown(measured) {
                benchmark.measurement(LiveMetric.receivedToShown, Int(time))
            }
            for time in list.times.pushedToShown(measured) {
                benchmark.measurement(LiveMetric.pushedToShown, Int(time))
            }
            benchmark.measurement(
                LiveMetric.residentPerLaunch, (after.resident - before.resident) * 1024 / measured.count)
            benchmark.measurement(
                LiveMetric.anonymousPerLaunch, (after.anonymous - before.anonymous) * 1024 / measured.count)
        },
        setup: { added.set(try await LiveLaunchList(events: .added, count: latencyEvents)) },
        teardown: {
            (try? added.get())?.stop()
            added.set(nil)
        })

    let updated = Shared<LiveLaunchList>()
    Benchmark(
        "live list: 100,000 held, 1,000 launchUpdated a second, resident after 100,000 events against 10,000",
        configuration: LiveMetric.configuration([
            LiveMetric.residentRatio, LiveMetric.residentAt10k, LiveMetric.residentAt100k,
            LiveMetric.anonymousRatio, LiveMetric.anonymousAt10k, LiveMetric.anonymousAt100k,
            LiveMetric.firstHalfGrowth, LiveMetric.secondHalfGrowth,
            LiveMetric.receivedToShown, LiveMetric.pushedToShown,
        ]),
        closure: { benchmark in
            let list = try updated.get()
            try await list.feed(0..<memoryFirstReading)
            let first = residentKilobytes()
            try await list.feed(memoryFirstReading..<memoryMiddleReading)
            let middle = residentKilobytes()
            try await list.feed(memoryMiddleReading..<memoryEvents)
            let second = residentKilobytes()
            guard list.pager.items.count == heldCount,
                list.pager.items[updatedRow(memoryEvents - 1)].name == updatedName(memoryEvents - 1)
            else { throw BenchmarkSetupError("the list does not show the updates") }
            benchmark.measurement(LiveMetric.residentAt10k, first.resident)
            benchmark.measurement(LiveMetric.residentAt100k, second.resident)
            benchmark.measurement(LiveMetric.residentRatio, second.resident * 1000 / max(first.resident, 1))
            benchmark.measurement(LiveMetric.anonymousAt10k, first.anonymous)
            benchmark.measurement(LiveMetric.anonymousAt100k, second.anonymous)
            benchmark.measurement(
                LiveMetric.anonymousRatio, second.anonymous * 1000 / max(first.anonymous, 1))
            benchmark.measurement(
                LiveMetric.firstHalfGrowth,
                (middle.anonymous - first.anonymous) * 1024 / (memoryMiddleReading - memoryFirstReading))
            benchmark.measurement(
                LiveMetric.secondHalfGrowth,
                (second.anonymous - middle.anonymous) * 1024 / (memoryEvents - memoryMiddleReading))
            let measured = latencyWarmUp..<memoryEvents
            for time in list.times.receivedToShown(measured) {
                benchmark.measurement(LiveMetric.receivedToShown, Int(time))
            }
            for time in list.times.pushedToShown(measured) {
                benchmark.measurement(LiveMetric.pushedToShown, Int(time))
            }
        },
        setup: { updated.set(try await LiveLaunchList(events: .updated, count: memoryEvents)) },
        teardown: {
            (try? updated.get())?.stop()
            updated.set(nil)
        })
}
