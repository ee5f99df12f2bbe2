import Foundation
import PagingTesting
import Testing

@testable import LaunchServer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("Starting and stopping")
struct LaunchServerTests {
    @Test("starts on an ephemeral loopback port, serves, and stops")
    func startsAndStops() async throws {
        let server = try await LaunchServer.start()
        #expect(server.port > 0)
        #expect(server.baseURL.absoluteString == "http://127.0.0.1:\(server.port)")
        #expect(server.graphQLURL.absoluteString == "http://127.0.0.1:\(server.port)/graphql")
        let client = HTTPTestClient(baseURL: server.baseURL)
        #expect(try await client.send("GET", "/").status == 200)
        await server.stop()
        await server.stop()
        await #expect(throws: URLError.self) {
            _ = try await client.send("GET", "/")
        }
    }

    @Test("stop cancels a request held up in its handler once the grace period is over, and returns")
    func stopEndsAHeldRequest() async throws {
        // A handler that never ends by itself: the server's latency waits at a gate no one opens.
        let gate = FetchGate<Void>()
        var configuration = LaunchServerConfiguration()
        configuration.latency = .fixed(.nanoseconds(1))
        configuration.sleep = { _ in try await gate.pass(()) }
        configuration.shutdownGracePeriod = .milliseconds(100)
        let server = try await LaunchServer.start(configuration)
        let client = HTTPTestClient(baseURL: server.baseURL)
        let request = Task { try await client.graphQL("{ launches(pageSize: 1) { cursor } }") }
        _ = await gate.nextCall()
        // Before the grace period, stop() waited for the request for ever.
        await server.stop()
        #expect(gate.cancelledCalls.count == 1, "the held handler was not cancelled")
        _ = try? await request.value
    }

    @Test("two servers run side by side on different ports with their own data")
    func runsSideBySide() async throws {
        let first = try await LaunchServer.start()
        var configuration = LaunchServerConfiguration()
        configuration.dataset = .synthetic(count: 10)
        let second = try await LaunchServer.start(configuration)
        #expect(first.port != second.port)
        let firstList = try await HTTPTestClient(baseURL: first.baseURL).send(
            "GET", "/api/launches?per_page=1")
        let secondList = try await HTTPTestClient(baseURL: second.baseURL).send(
            "GET", "/api/launches?per_page=1")
        #expect(firstList.header("X-Total-Count") == "100")
        #expect(secondList.header("X-Total-Count") == "10")
        await first.stop()
        await second.stop()
    }

    @Test("refuses invalid configurations and busy ports with a clear error")
    func refusesBadConfigurations() async throws {
        var badPort = LaunchServerConfiguration()
        badPort.port = 70_000
        await #expect(throws: LaunchServerError.self) { _ = try await LaunchServer.start(badPort) }
        var badRate = LaunchServerConfiguration()
        badRate.faults = FaultInjection(rate: 2)
        await #expect(throws: LaunchServerError.self) { _ = try await LaunchServer.start(badRate) }

        let running = try await LaunchServer.start()
        var busy = LaunchServerConfiguration()
        busy.port = running.port
        do {
            let second = try await LaunchServer.start(busy)
            await second.stop()
            Issue.record("a second server bound the same port")
        } catch let error as LaunchServerError {
            #expect(error.description.contains("could not start"))
        }
        await running.stop()
    }
}
