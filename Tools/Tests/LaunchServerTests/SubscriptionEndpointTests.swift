import Foundation
import Testing
import WSCore

@testable import LaunchServer

/// GraphQL subscriptions over a real WebSocket on loopback: the handshake, `launchAdded` and
/// `launchUpdated` fed by mutations and by the server's schedule, and the protocol's errors,
/// each closing the socket with its code while the server goes on serving.
@Suite("Subscriptions over WebSocket", .timeLimit(.minutes(30)))
struct SubscriptionEndpointTests {
    static let added = "subscription { launchAdded { id mission { name } site isBooked } }"
    static let updated = "subscription { launchUpdated { id isBooked } }"

    /// The launch a `next` message carries under a field, as (id, mission name, site).
    static func launch(in message: [String: Any]?, field: String) -> (
        id: String, name: String?, site: String?
    )? {
        guard let payload = message?["payload"] as? [String: Any],
            let data = payload["data"] as? [String: Any],
            let launch = data[field] as? [String: Any], let id = launch["id"] as? String
        else { return nil }
        let mission = launch["mission"] as? [String: Any]
        return (id, mission?["name"] as? String, launch["site"] as? String)
    }

    struct Scheduled: Decodable {
        struct Launch: Decodable { let id: String }
        let scheduleLaunch: Launch
    }

    /// Schedules a launch through the schema (as `POST /graphql` would) and returns its id.
    static func schedule(_ server: LaunchServer, _ mission: String, site: String = "KSC LC 39A") async throws
        -> String
    {
        let response = try await server.graphQL(
            #"mutation { scheduleLaunch(mission: "\#(mission)", site: "\#(site)") { id } }"#,
            as: Scheduled.self)
        return try #require(response.data?.scheduleLaunch.id)
    }

    @Test("launchAdded delivers each launch scheduled, once, in the order scheduled; complete stops it")
    func launchAdded() async throws {
        try await withLaunchServer { server in
            let close = try await withSocket(server) { socket in
                #expect(try await socket.initialize() == #"{"type":"connection_ack"}"#)
                try await socket.subscribe(id: "live", Self.added)
                await server.store.events.waitUntilCount { $0 == 1 }
                var scheduled: [String] = []
                for mission in ["Alpha", "Beta", "Gamma"] {
                    scheduled.append(try await Self.schedule(server, mission))
                }
                for (index, mission) in ["Alpha", "Beta", "Gamma"].enumerated() {
                    let message = try await socket.nextObject()
                    #expect(message?["type"] as? String == "next")
                    #expect(message?["id"] as? String == "live")
                    let launch = Self.launch(in: message, field: "launchAdded")
                    #expect(launch?.id == scheduled[index])
                    #expect(launch?.name == mission)
                    #expect(launch?.site == "KSC LC 39A")
                }
                try await socket.send(#"{"id":"live","type":"complete"}"#)
                await server.store.events.waitUntilCount { $0 == 0 }
            }
            // The client closed the socket; the server answered with the same code.
            #expect(close?.closeCode == .normalClosure)
        }
    }

    @Test("a scheduled launch heads the newest-first connection")
    func scheduledLaunchHeadsTheList() async throws {
        try await withLaunchServer { server in
            let id = try await Self.schedule(server, "Head")
            struct Page: Decodable {
                struct Connection: Decodable {
                    struct Edge: Decodable { let node: LaunchBody }
                    let edges: [Edge]
                }
                let launchConnection: Connection
            }
            let page = try await server.graphQL(
                "{ launchConnection(first: 2) { edges { node { id site mission { name } } } } }",
                as: Page.self)
            #expect(page.data?.launchConnection.edges.first?.node.id == id)
            #expect(page.data?.launchConnection.edges.first?.node.mission?.name == "Head")

            let empty = try await server.graphQL(
                #"mutation { scheduleLaunch(mission: "  ") { id } }"#, as: Scheduled.self)
            #expect(empty.messages == ["Argument `mission` of `scheduleLaunch` must not be empty."])
            #expect(empty.errors?.first?.extensions?["code"] == "BAD_USER_INPUT")
        }
    }

    @Test("two subscriptions on one socket each get every launch; an id completed is not answered again")
    func multiplexed() async throws {
        try await withLaunchServer { server in
            try await withSocket(server) { socket in
                _ = try await socket.initialize()
                try await socket.subscribe(id: "a", Self.added)
                try await socket.subscribe(id: "b", Self.added)
                await server.store.events.waitUntilCount { $0 == 2 }
                let first = try await Self.schedule(server, "One")
                var seen: [String: String] = [:]
                for _ in 0..<2 {
                    let message = try await socket.nextObject()
                    let id = try #require(message?["id"] as? String)
                    seen[id] = Self.launch(in: message, field: "launchAdded")?.id
                }
                #expect(seen == ["a": first, "b": first])

                try await socket.send(#"{"id":"a","type":"complete"}"#)
                await server.store.events.waitUntilCount { $0 == 1 }
                let second = try await Self.schedule(server, "Two")
                let message = try await socket.nextObject()
                #expect(message?["id"] as? String == "b")
                #expect(Self.launch(in: message, field: "launchAdded")?.id == second)
                // Reused after its complete, an id is a new subscription, answered from now on.
                try await socket.subscribe(id: "a", Self.added)
                await server.store.events.waitUntilCount { $0 == 2 }
                let third = try await Self.schedule(server, "Three")
                var after: [String: String] = [:]
                for _ in 0..<2 {
                    let message = try await socket.nextObject()
                    let id = try #require(message?["id"] as? String)
                    after[id] = Self.launch(in: message, field: "launchAdded")?.id
                }
                #expect(after == ["a": third, "b": third])
            }
            await server.store.events.waitUntilCount { $0 == 0 }
        }
    }

    @Test("launchUpdated delivers a booking and its cancellation")
    func launchUpdated() async throws {
        try await withLaunchServer { server in
            try await withSocket(server) { socket in
                _ = try await socket.initialize()
                try await socket.subscribe(id: "1", Self.updated)
                await server.store.events.waitUntilCount { $0 == 1 }
                struct Booked: Decodable {}
                _ = try await server.graphQL(
                    #"mutation { bookTrips(launchIds: ["5"]) { success } }"#,
                    as: [String: [String: Bool]].self)
                // Booking a launch already booked changes nothing and sends nothing.
                _ = try await server.graphQL(
                    #"mutation { bookTrips(launchIds: ["5"]) { success } }"#,
                    as: [String: [String: Bool]].self)
                _ = try await server.graphQL(
                    #"mutation { cancelTrip(launchId: "5") { success } }"#, as: [String: [String: Bool]].self)
                var states: [Bool] = []
                for _ in 0..<2 {
                    let message = try await socket.nextObject()
                    let payload = message?["payload"] as? [String: Any]
                    let launch = (payload?["data"] as? [String: Any])?["launchUpdated"] as? [String: Any]
                    #expect(launch?["id"] as? String == "5")
                    states.append(try #require(launch?["isBooked"] as? Bool))
                }
                #expect(states == [true, false])
            }
        }
    }

    @Test("the server's schedule adds launches on its own, delivered in order")
    func schedule() async throws {
        try await withLaunchServer({ $0.scheduleEvery = .milliseconds(20) }) { server in
            try await withSocket(server) { socket in
                _ = try await socket.initialize()
                try await socket.subscribe(id: "1", Self.added)
                var names: [String] = []
                var sites: [String] = []
                for _ in 0..<3 {
                    let launch = Self.launch(in: try await socket.nextObject(), field: "launchAdded")
                    names.append(try #require(launch?.name))
                    sites.append(try #require(launch?.site))
                }
                // The subscription may start after the first few were scheduled: the names run on.
                let numbers = names.compactMap {
                    Int($0.replacingOccurrences(of: "Scheduled mission ", with: ""))
                }
                #expect(numbers.count == 3)
                if let first = numbers.first {
                    #expect(numbers == [first, first + 1, first + 2])
                    #expect(
                        sites
                            == (0..<3).map {
                                LaunchScheduler.sites[(first - 1 + $0) % LaunchScheduler.sites.count]
                            })
                }
            }
        }
    }

    @Test("a query or a mutation over the socket gets one next and complete")
    func queryOverSocket() async throws {
        try await withLaunchServer { server in
            try await withSocket(server) { socket in
                _ = try await socket.initialize()
                try await socket.subscribe(id: "q", #"{ launch(id: "1") { mission { name } } }"#)
                #expect(
                    try await socket.next()
                        == #"{"id":"q","payload":{"data":{"launch":{"mission":{"name":"FalconSat"}}}},"type":"next"}"#
                )
                #expect(try await socket.next() == #"{"id":"q","type":"complete"}"#)
            }
        }
    }

    @Test("a subscription that does not validate gets error and no complete; the socket stays open")
    func invalidSubscription() async throws {
        try await withLaunchServer { server in
            try await withSocket(server) { socket in
                _ = try await socket.initialize()
                try await socket.subscribe(id: "bad", "subscription { launchRemoved { id } }")
                let message = try await socket.nextObject()
                #expect(message?["type"] as? String == "error")
                #expect(message?["id"] as? String == "bad")
                let errors = message?["payload"] as? [[String: Any]]
                #expect((errors?.first?["message"] as? String)?.contains("launchRemoved") == true)
                try await socket.send(#"{"type":"ping","payload":{"n":1}}"#)
                #expect(try await socket.next() == #"{"payload":{"n":1},"type":"pong"}"#)
            }
        }
    }

    @Test(
        "each break of the protocol closes the socket with its code",
        arguments: [
            (
                [
                    "{\"id\":\"1\",\"type\":\"subscribe\",\"payload\":{\"query\":\"subscription { launchAdded { id } }\"}}"
                ], 4401
            ),
            (["{\"type\":\"connection_init\"}", "{\"type\":\"connection_init\"}"], 4429),
            (["{\"type\":\"connection_init\"}", "not json"], 4400),
            (["{\"type\":\"connection_init\"}", "{\"type\":\"next\",\"id\":\"1\",\"payload\":{}}"], 4400),
            (["{\"type\":\"connection_init\"}", "{\"type\":\"launch\"}"], 4400),
            (
                [
                    "{\"type\":\"connection_init\"}",
                    "{\"id\":\"1\",\"type\":\"subscribe\",\"payload\":{\"query\":\"subscription { launchAdded { id } }\"}}",
                    "{\"id\":\"1\",\"type\":\"subscribe\",\"payload\":{\"query\":\"subscription { launchAdded { id } }\"}}",
                ], 4409
            ),
        ] as [([String], Int)]
    )
    func protocolErrors(frames: [String], code: Int) async throws {
        try await withLaunchServer { server in
            let close = try await withSocket(server) { socket in
                for frame in frames { try await socket.send(frame) }
                // Read until the server closes the socket.
                while try await socket.next() != nil {}
            }
            #expect(close?.closeCode == .unknown(UInt16(code)))
            #expect(close?.reason?.isEmpty == false)
            await server.store.events.waitUntilCount { $0 == 0 }
        }
    }

    @Test("a binary frame closes with 4400, a message over the limit with 1009")
    func frameKinds() async throws {
        try await withLaunchServer({ $0.maximumMessageSize = 1_000 }) { server in
            let binary = try await withSocket(server) { socket in
                try await socket.sendBinary([1, 2, 3])
                while try await socket.next() != nil {}
            }
            #expect(binary?.closeCode == .unknown(4400))
            let large = try await withSocket(server) { socket in
                _ = try await socket.initialize()
                try await socket.send(
                    #"{"type":"ping","payload":{"pad":""# + String(repeating: "x", count: 2_000) + #""}}"#)
                while try await socket.next() != nil {}
            }
            #expect(large?.closeCode == .messageTooLarge)
        }
    }

    @Test("a socket that sends no connection_init in time is closed with 4408")
    func initTimeout() async throws {
        try await withLaunchServer({ $0.subscriptionInitTimeout = .milliseconds(50) }) { server in
            let close = try await withSocket(server) { socket in
                while try await socket.next() != nil {}
            }
            #expect(close?.closeCode == .unknown(4408))
        }
    }

    @Test("connection_init must carry the authorization the server asks for, or the socket closes with 4403")
    func authorization() async throws {
        try await withLaunchServer({ $0.subscriptionAuthorization = "Bearer s3cret" }) { server in
            let refused = try await withSocket(server) { socket in
                try await socket.send(
                    #"{"type":"connection_init","payload":{"authorization":"Bearer wrong"}}"#)
                while try await socket.next() != nil {}
            }
            #expect(refused?.closeCode == .unknown(4403))
            let missing = try await withSocket(server) { socket in
                try await socket.send(#"{"type":"connection_init"}"#)
                while try await socket.next() != nil {}
            }
            #expect(missing?.closeCode == .unknown(4403))
            try await withSocket(server) { socket in
                let ack = try await socket.initialize(payload: #"{"authorization":"Bearer s3cret"}"#)
                #expect(ack == #"{"type":"connection_ack"}"#)
            }
        }
    }

    @Test("a socket that does not offer graphql-transport-ws is closed with 4406")
    func subprotocol() async throws {
        try await withLaunchServer { server in
            let close = try await withSocket(server, subprotocol: nil) { socket in
                try await socket.send(#"{"type":"connection_init"}"#)
                while try await socket.next() != nil {}
            }
            #expect(close?.closeCode == .unknown(4406))
        }
    }

    @Test("a client that drops its socket mid-subscription leaves no subscriber behind")
    func droppedSocket() async throws {
        try await withLaunchServer { server in
            for _ in 0..<5 {
                try await withSocket(server) { socket in
                    _ = try await socket.initialize()
                    try await socket.subscribe(id: "1", Self.added)
                    try await socket.subscribe(id: "2", Self.updated)
                    await server.store.events.waitUntilCount { $0 == 2 }
                }
                await server.store.events.waitUntilCount { $0 == 0 }
            }
            // The server still serves.
            try await withSocket(server) { socket in
                let ack = try await socket.initialize()
                #expect(ack == #"{"type":"connection_ack"}"#)
            }
        }
    }
}

/// The fan-out of events to subscriptions, without a socket.
@Suite("Launch events")
struct LaunchEventsTests {
    static func launch(_ number: Int64) -> Launch {
        Launch(
            number: number, launchDate: number,
            mission: Mission(name: "M\(number)", missionPatchSmall: nil, missionPatchLarge: nil),
            site: nil, rocket: RocketCatalog.rockets[0], isBooked: false, pushKey: "k\(number)")
    }

    @Test("each subscriber gets the events of its kind, in order")
    func kinds() async throws {
        let events = LaunchEvents()
        let added = events.stream(of: .added)
        let updated = events.stream(of: .updated)
        events.publish(.added, [Self.launch(1), Self.launch(2)])
        events.publish(.updated, [Self.launch(1)])
        events.publish(.added, [Self.launch(3)])
        var addedIterator = added.makeAsyncIterator()
        var numbers: [Int64] = []
        for _ in 0..<3 { numbers.append(try #require(try await addedIterator.next()).number) }
        #expect(numbers == [1, 2, 3])
        var updatedIterator = updated.makeAsyncIterator()
        #expect(try await updatedIterator.next()?.number == 1)
    }

    @Test("a subscriber that falls a backlog behind is ended with an error, after every event it kept")
    func overflow() async throws {
        let events = LaunchEvents()
        let stream = events.stream(of: .added)
        events.publish(.added, (1...Int64(LaunchEvents.backlog + 1)).map(Self.launch))
        var received = 0
        var failure: (any Error)?
        do {
            for try await launch in stream {
                received += 1
                #expect(launch.number == Int64(received))
            }
        } catch {
            failure = error
        }
        #expect(received == LaunchEvents.backlog)
        #expect(failure is LaunchEvents.Overflow)
    }
}
