import Foundation
import PagingTesting
import Testing

@testable import LaunchServer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("Latency and faults")
struct FaultInjectionTests {
    @Test("the same seed gives the same decisions, another seed others")
    func isDeterministic() {
        func decisions(seed: UInt64) -> [FaultDecision] {
            let injector = FaultInjector(
                latency: .random(.milliseconds(10) ... .milliseconds(500)), faults: FaultInjection(rate: 0.3),
                seed: seed)
            return (0..<200).map { _ in injector.next() }
        }
        print("FaultInjectionTests.isDeterministic seeds: 1, 2")
        let first = decisions(seed: 1)
        #expect(first == decisions(seed: 1))
        #expect(first != decisions(seed: 2))
        #expect(first.allSatisfy { (Duration.milliseconds(10) ... .milliseconds(500)).contains($0.delay) })
        let failures = first.filter { $0.fault != nil }.count
        #expect((30...90).contains(failures), "about 30% of 200 fail: \(failures)")
        #expect(Set(first.compactMap(\.fault)) == Set(FaultKind.allCases))
    }

    @Test("rate 0 never fails, rate 1 always fails with a configured kind, fixed latency is exact")
    func ratesAndKinds() {
        let never = FaultInjector(
            latency: .fixed(.milliseconds(80)), faults: FaultInjection(rate: 0), seed: 9)
        #expect(
            (0..<100).map { _ in never.next() }.allSatisfy {
                $0 == FaultDecision(delay: .milliseconds(80), fault: nil)
            })
        let always = FaultInjector(
            latency: .none, faults: FaultInjection(rate: 1, kinds: [.droppedConnection]), seed: 9)
        #expect(
            (0..<100).map { _ in always.next() }.allSatisfy {
                $0 == FaultDecision(delay: .zero, fault: .droppedConnection)
            })
    }

    @Test("the server waits the configured latency through the injected sleep function")
    func appliesLatency() async throws {
        let recorder = Recorder<Duration>()
        let sleep = recorder.sleep
        try await withLaunchServer({ configuration in
            configuration.latency = .fixed(.milliseconds(250))
            configuration.sleep = sleep
        }) { server in
            let client = HTTPTestClient(baseURL: server.baseURL)
            let list = try await client.send("GET", "/api/launches?per_page=1")
            #expect(list.status == 200)
            let graphQL = try await client.graphQL("{ rockets { id } }")
            #expect(graphQL.status == 200)
            #expect(recorder.recorded == [.milliseconds(250), .milliseconds(250)])
        }
    }

    @Test("an injected HTTP error is a 500 with a JSON body")
    func httpError() async throws {
        try await withLaunchServer({ $0.faults = FaultInjection(rate: 1, kinds: [.httpError]) }) { server in
            let client = HTTPTestClient(baseURL: server.baseURL)
            let reply = try await client.graphQL("{ rockets { id } }")
            #expect(reply.status == 500)
            #expect(reply.errorMessage?.contains("Injected fault") == true)
        }
    }

    @Test("an injected GraphQL error is a 200 with null data and an INJECTED_FAULT error")
    func graphQLError() async throws {
        try await withLaunchServer({ $0.faults = FaultInjection(rate: 1, kinds: [.graphQLError]) }) {
            server in
            let client = HTTPTestClient(baseURL: server.baseURL)
            let reply = try await client.graphQL("{ rockets { id } }")
            #expect(reply.status == 200)
            let body = try JSONDecoder().decode(GraphQLResponse<[String: String]>.self, from: reply.body)
            #expect(body.data == nil)
            #expect(body.errors?.first?.extensions?["code"] == "INJECTED_FAULT")
            let rest = try await client.send("GET", "/api/launches")
            #expect(rest.status == 500, "REST routes answer a GraphQL fault with a 500")
        }
    }

    @Test("an injected dropped connection closes it without a response")
    func droppedConnection() async throws {
        try await withLaunchServer({ $0.faults = FaultInjection(rate: 1, kinds: [.droppedConnection]) }) {
            server in
            let client = HTTPTestClient(baseURL: server.baseURL)
            await #expect(throws: URLError.self) {
                _ = try await client.graphQL("{ rockets { id } }")
            }
        }
    }

    @Test("with a seed, exactly the predicted requests fail, and retrying them succeeds")
    func predictedFailures() async throws {
        let seed: UInt64 = 12_345
        print("FaultInjectionTests.predictedFailures seed: \(seed)")
        let faults = FaultInjection(rate: 0.4, kinds: [.httpError])
        let oracle = FaultInjector(latency: .none, faults: faults, seed: seed)
        let predicted = (0..<30).map { _ in oracle.next().fault != nil }
        try await withLaunchServer({ configuration in
            configuration.faults = faults
            configuration.seed = seed
        }) { server in
            let client = HTTPTestClient(baseURL: server.baseURL)
            var observed: [Bool] = []
            for _ in 0..<30 {
                observed.append(try await client.send("GET", "/api/launches?per_page=1").status == 500)
            }
            #expect(observed == predicted)
            #expect(observed.contains(true) && observed.contains(false))
        }
    }
}
