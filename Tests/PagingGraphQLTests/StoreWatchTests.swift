import PagingLock
import PagingTestSupport
import PagingTesting
import Testing

@testable import PagingGraphQL
@testable import PagingGraphQLClient
@testable import PagingGraphQLStore

@Suite("GraphQLStore, watches", .timeLimit(.minutes(HangLimit.minutes(1))))
struct StoreWatchTests {
    static let detail =
        "query($id: ID!) { launch(id: $id) { __typename id site rocket { __typename id name } } }"

    static func launch(_ id: String, site: String, rocket: String = "Falcon") -> JSONValue {
        [
            "launch": [
                "__typename": "Launch", "id": .string(id), "site": .string(site),
                "rocket": ["__typename": "Rocket", "id": "r", "name": .string(rocket)],
            ]
        ]
    }

    @Test("a watch yields the current data, then once per change of what it read")
    func yieldsOncePerChange() async throws {
        let store = GraphQLStore()
        let operation = try StoreOperation(document: Self.detail, variables: ["id": "1"])
        try store.write(data: Self.launch("1", site: "A"), for: operation)
        let probe = WatchProbe(store.watch(operation))
        #expect(await probe.next() == Self.launch("1", site: "A"))

        try store.write(data: Self.launch("1", site: "B"), for: operation)
        #expect(await probe.next() == Self.launch("1", site: "B"))

        // The rocket is another record, changed through another query.
        let rockets = try StoreOperation(document: "{ rockets { __typename id name } }")
        try store.write(
            data: ["rockets": [["__typename": "Rocket", "id": "r", "name": "Heavy"]]], for: rockets)
        #expect(await probe.next() == Self.launch("1", site: "B", rocket: "Heavy"))

        store.modify(record: "Launch:1", fields: ["site": .scalar("C")])
        #expect(await probe.next() == Self.launch("1", site: "C", rocket: "Heavy"))
        #expect(probe.pending.isEmpty)
        await probe.cancel()
    }

    @Test("a watch does not wake for an unrelated record or a write of equal values")
    func ignoresUnrelatedChanges() async throws {
        let store = GraphQLStore()
        let operation = try StoreOperation(document: Self.detail, variables: ["id": "1"])
        try store.write(data: Self.launch("1", site: "A"), for: operation)
        let probe = WatchProbe(store.watch(operation))
        #expect(await probe.next() == Self.launch("1", site: "A"))
        let reads = store.watchReadCount

        let other = try StoreOperation(document: Self.detail, variables: ["id": "2"])
        // Another launch that shares Rocket:r, unchanged.
        try store.write(data: Self.launch("2", site: "X", rocket: "Falcon"), for: other)
        try store.write(data: Self.launch("1", site: "A"), for: operation)  // the same values again
        store.modify(record: "Launch:1", fields: ["year": .scalar(2020)])  // a field it does not read
        #expect(store.dirtyWatchCount == 0)

        try store.write(data: Self.launch("1", site: "B"), for: operation)
        #expect(await probe.next() == Self.launch("1", site: "B"))
        #expect(store.watchReadCount == reads + 1)
        await probe.cancel()
    }

    @Test("a change that leaves the data equal reads again but yields nothing")
    func equalDataIsNotYielded() async throws {
        let store = GraphQLStore()
        let pick = try StoreOperation(document: "{ pick { __typename id site } }")
        let both = try StoreOperation(document: "{ all { __typename id site } }")
        // Two records with equal fields but one: the watch reads __typename and site only.
        let shape = try StoreOperation(document: "{ pick { __typename site } }")
        try store.write(
            data: [
                "all": [
                    ["__typename": "Launch", "id": "1", "site": "A"],
                    ["__typename": "Launch", "id": "2", "site": "A"],
                ]
            ],
            for: both)
        try store.write(data: ["pick": ["__typename": "Launch", "id": "1", "site": "A"]], for: pick)
        let probe = WatchProbe(store.watch(shape))
        #expect(await probe.next() == ["pick": ["__typename": "Launch", "site": "A"]])
        let reads = store.watchReadCount

        try store.write(data: ["pick": ["__typename": "Launch", "id": "2", "site": "A"]], for: pick)
        try store.write(data: ["pick": ["__typename": "Launch", "id": "2", "site": "B"]], for: pick)
        #expect(await probe.next() == ["pick": ["__typename": "Launch", "site": "B"]])
        #expect(store.watchReadCount <= reads + 2)
        #expect(probe.pending.isEmpty)
        await probe.cancel()
    }

    @Test("a watch waits while its read misses and yields once the data is complete")
    func waitsForMissingData() async throws {
        let store = GraphQLStore()
        let operation = try StoreOperation(document: Self.detail, variables: ["id": "1"])
        let probe = WatchProbe(store.watch(operation))
        let partial = try StoreOperation(
            document: "query($id: ID!) { launch(id: $id) { __typename id site } }", variables: ["id": "1"])
        try store.write(data: ["launch": ["__typename": "Launch", "id": "1", "site": "A"]], for: partial)
        try store.write(data: Self.launch("1", site: "A"), for: operation)
        #expect(await probe.next() == Self.launch("1", site: "A"))
        await probe.cancel()
    }

    @Test("cancelling the consuming task ends the watch and unregisters it")
    func cancellationUnregisters() async throws {
        let store = GraphQLStore()
        let operation = try StoreOperation(document: Self.detail, variables: ["id": "1"])
        try store.write(data: Self.launch("1", site: "A"), for: operation)
        let probes = (0..<3).map { _ in WatchProbe(store.watch(operation)) }
        for probe in probes { #expect(await probe.next() == Self.launch("1", site: "A")) }
        #expect(store.liveWatchCount == 3)
        for probe in probes { await probe.cancel() }
        #expect(probes.allSatisfy { $0.isFinished })
        #expect(store.liveWatchCount == 0)
        #expect(store.state.withLock { $0.watchIndex.isEmpty })
        try store.write(data: Self.launch("1", site: "B"), for: operation)
    }

    @Test("leaving a for-await loop drops the iterator and unregisters the watch")
    func droppingTheIteratorUnregisters() async throws {
        let store = GraphQLStore()
        let operation = try StoreOperation(document: Self.detail, variables: ["id": "1"])
        try store.write(data: Self.launch("1", site: "A"), for: operation)
        weak var registration: WatchRegistration?
        do {
            var iterator = store.watch(operation).makeAsyncIterator()
            registration = iterator.registration
            #expect(store.liveWatchCount == 1)
            #expect(await iterator.next() == Self.launch("1", site: "A"))
        }
        #expect(registration == nil)
        #expect(store.liveWatchCount == 0)

        for await data in store.watch(operation) {
            #expect(data == Self.launch("1", site: "A"))
            break
        }
        #expect(store.liveWatchCount == 0)
    }

    @Test("a task cancelled before it iterates ends at once")
    func cancelledBeforeIterating() async throws {
        let store = GraphQLStore()
        let operation = try StoreOperation(document: Self.detail, variables: ["id": "1"])
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            var count = 0
            for await _ in store.watch(operation) { count += 1 }
            return count
        }
        #expect(await task.value == 0)
        #expect(store.liveWatchCount == 0)
    }

    @Test("observers hear of each write once, with the changed fields, until cancelled or released")
    func observers() throws {
        let store = GraphQLStore()
        let operation = try StoreOperation(document: Self.detail, variables: ["id": "1"])
        let recorder = Recorder<StoreChange>()
        let observation = store.observe { recorder.record($0) }
        var released: StoreObservation? = store.observe { _ in Issue.record("a released observer was called")
        }
        released = nil
        _ = released

        try store.write(data: Self.launch("1", site: "A"), for: operation)
        try store.write(data: Self.launch("1", site: "A"), for: operation)
        try store.write(data: Self.launch("1", site: "B"), for: operation)
        #expect(recorder.recorded.count == 2)
        #expect(recorder.recorded.last?.fieldsByRecord == ["Launch:1": ["site"]])
        observation.cancel()
        observation.cancel()
        try store.write(data: Self.launch("1", site: "C"), for: operation)
        #expect(recorder.recorded.count == 2)
    }

    @Test("the change stream delivers every change in order and unregisters when dropped")
    func changeStream() async throws {
        let store = GraphQLStore()
        let operation = try StoreOperation(document: Self.detail, variables: ["id": "1"])
        do {
            let changes = store.changes()
            try store.write(data: Self.launch("1", site: "A"), for: operation)
            try store.write(data: Self.launch("1", site: "B"), for: operation)
            var iterator = changes.makeAsyncIterator()
            #expect(await iterator.next()?.records.contains("Launch:1") == true)
            #expect(await iterator.next()?.fieldsByRecord == ["Launch:1": ["site"]])
            #expect(store.state.withLock { $0.observers.count } == 1)
        }
        #expect(store.state.withLock { $0.observers.count } == 0)
    }

    @Test("a fragment watch follows its record")
    func fragmentWatch() async throws {
        let store = GraphQLStore()
        let operation = try StoreOperation(document: Self.detail, variables: ["id": "1"])
        try store.write(data: Self.launch("1", site: "A"), for: operation)
        let fragment = try StoreFragment(document: "fragment Site on Launch { site }")
        let probe = WatchProbe(store.watch(fragment, at: "Launch:1"))
        #expect(await probe.next() == ["site": "A"])
        try store.write(data: Self.launch("1", site: "B"), for: operation)
        #expect(await probe.next() == ["site": "B"])
        await probe.cancel()
        #expect(store.liveWatchCount == 0)
    }

    @Test("a watch is iterated on the main actor")
    @MainActor
    func mainActorIteration() async throws {
        let store = GraphQLStore()
        let operation = try StoreOperation(document: Self.detail, variables: ["id": "1"])
        try store.write(data: Self.launch("1", site: "A"), for: operation)
        var seen: [JSONValue] = []
        for await data in store.watch(operation) {
            seen.append(data)
            if seen.count == 2 { break }
            try store.write(data: Self.launch("1", site: "B"), for: operation)
        }
        #expect(seen == [Self.launch("1", site: "A"), Self.launch("1", site: "B")])
        #expect(store.liveWatchCount == 0)
    }

    @Test("an observer may read and write the store from its handler")
    func reentrantObserver() throws {
        let store = GraphQLStore()
        let operation = try StoreOperation(document: Self.detail, variables: ["id": "1"])
        let recorder = Recorder<StoreChange>()
        let observation = store.observe { change in
            recorder.record(change)
            if change.contains(record: "Launch:1", field: "site") {
                _ = store.read(operation)
                store.modify(record: "Audit:1", fields: ["seen": .scalar(true)])
            }
        }
        try store.write(data: Self.launch("1", site: "A"), for: operation)
        #expect(recorder.recorded.count == 2)
        #expect(store.record(for: "Audit:1")?["seen"] == .scalar(true))
        observation.cancel()
    }

    @Test("concurrent writers and watches settle on the last write")
    func concurrentWritersAndWatches() async throws {
        let store = GraphQLStore()
        let operations = try (1...4).map {
            try StoreOperation(document: Self.detail, variables: ["id": .string(String($0))])
        }
        for operation in operations {
            try store.write(
                data: Self.launch(operation.variables["id"]?.stringValue ?? "", site: "start"), for: operation
            )
        }
        let probes = operations.map { WatchProbe(store.watch($0)) }
        for (probe, operation) in zip(probes, operations) {
            #expect(
                await probe.next() == Self.launch(operation.variables["id"]?.stringValue ?? "", site: "start")
            )
        }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for writer in 0..<4 {
                group.addTask {
                    for step in 0..<200 {
                        let operation = operations[(writer + step) % operations.count]
                        let id = operation.variables["id"]?.stringValue ?? ""
                        try store.write(
                            data: Self.launch(id, site: "w\(writer)s\(step)", rocket: "R\(step % 3)"),
                            for: operation)
                        _ = store.read(operations[step % operations.count])
                    }
                }
            }
            try await group.waitForAll()
        }
        // A final write of known values: every watch ends on it.
        for operation in operations {
            let id = operation.variables["id"]?.stringValue ?? ""
            try store.write(data: Self.launch(id, site: "end", rocket: "Final"), for: operation)
        }
        for (probe, operation) in zip(probes, operations) {
            let expected = Self.launch(
                operation.variables["id"]?.stringValue ?? "", site: "end", rocket: "Final")
            var last = await probe.next()
            while let value = last, value != expected { last = await probe.next() }
            #expect(last == expected)
        }
        for probe in probes { await probe.cancel() }
        #expect(store.liveWatchCount == 0)
    }
}
