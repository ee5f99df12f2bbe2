import Foundation
import PagingGraphQL
import PagingTesting
import Testing
import ToolsLock

@testable import PagingCLI

/// A GraphQL server with one rocket whose launches page in a cycle: the first page (in the
/// rocket) ends at cursor A, the page after A at B, the page after B at A again. After 20
/// requests it answers with an error, so that an export that followed the cycle would fail the
/// test instead of hanging it.
private func cyclingLaunches(requests: Locked<Int>) -> @Sendable (ReceivedRequest, Int) -> CannedResponse {
    { request, _ in
        let count = requests.withLock { count -> Int in
            count += 1
            return count
        }
        guard count <= 20 else { return .json(#"{"errors": [{"message": "request limit of the test"}]}"#) }
        let variables = request.graphQLVariables
        guard variables["paging_id"] != nil else {
            return .json(
                """
                {"data": {"rocketConnection": {
                  "edges": [{"cursor": "r1", "node": {"paging_id": "R1", "paging_type": "Rocket", "id": "R1",
                    "name": "Falcon 9", "launches": {
                      "edges": [{"cursor": "l1", "node": {"id": "L1", "mission": {"name": "One"}}}],
                      "pageInfo": {"hasNextPage": true, "endCursor": "A"}, "totalCount": 3}}}],
                  "pageInfo": {"hasNextPage": false, "endCursor": "r1"}}}}
                """)
        }
        let (launch, next) = variables["innerAfter"] as? String == "A" ? ("L2", "B") : ("L3", "A")
        return .json(
            """
            {"data": {"paging_node": {"__typename": "Rocket", "launches": {
              "edges": [{"cursor": "c\(launch)", "node": {"id": "\(launch)", "mission": {"name": "\(launch)"}}}],
              "pageInfo": {"hasNextPage": true, "endCursor": "\(next)"}, "totalCount": 3}}}}
            """)
    }
}

/// A server like ``cyclingLaunches(requests:)`` whose rocket's launches page through cursors c0,
/// c1, … c(k-1), one launch a page (L0 in the rocket, L(i+1) after ci), and whose page after c(k-1)
/// leads back to c(back).
private func cyclingLaunches(pages k: Int, back: Int, requests: Locked<Int>)
    -> @Sendable (ReceivedRequest, Int) -> CannedResponse
{
    { request, _ in
        let count = requests.withLock { count -> Int in
            count += 1
            return count
        }
        guard count <= 40 else { return .json(#"{"errors": [{"message": "request limit of the test"}]}"#) }
        func page(_ launch: Int, next: Int) -> String {
            """
            "launches": {
              "edges": [{"cursor": "e\(launch)", "node": {"id": "L\(launch)", "mission": {"name": "L\(launch)"}}}],
              "pageInfo": {"hasNextPage": true, "endCursor": "c\(next)"}, "totalCount": \(k + 1)}
            """
        }
        let variables = request.graphQLVariables
        guard variables["paging_id"] != nil else {
            return .json(
                """
                {"data": {"rocketConnection": {
                  "edges": [{"cursor": "r1", "node": {"paging_id": "R1", "paging_type": "Rocket", "id": "R1",
                    "name": "Falcon 9", \(page(0, next: 0))}}],
                  "pageInfo": {"hasNextPage": false, "endCursor": "r1"}}}}
                """)
        }
        let after = (variables["innerAfter"] as? String).flatMap { Int($0.dropFirst()) } ?? 0
        return .json(
            """
            {"data": {"paging_node": {"__typename": "Rocket", \(page(after + 1, next: after + 1 < k ? after + 1 : back))}}}
            """)
    }
}

@Suite("paging fetch of nested connections whose inner cursors cycle")
struct NestedCycleTests {
    @Test(
        "random cycles of inner cursors, nested and flattened: each cursor asked for once, each launch written once"
    )
    func randomCycles() async throws {
        let seed = SeededGenerator.testSeed()
        print("NestedCycleTests.randomCycles seed: \(seed) (replay with PAGING_SEED=\(seed))")
        var random = SeededGenerator(seed: seed)
        for _ in 0..<8 {
            let k = Int.random(in: 1...6, using: &random)
            let back = Int.random(in: 0..<k, using: &random)
            let flatten = Bool.random(using: &random)
            let label = "seed \(seed): \(k) cursors, back to c\(back), \(flatten ? "flattened" : "nested")"
            let requests = Locked(0)
            try await ScriptedHTTPServer.withRunning(
                answer: cyclingLaunches(pages: k, back: back, requests: requests)
            ) { server in
                let run = await Command.run(
                    [
                        "fetch", "--endpoint", server.baseURL.absoluteString + "/graphql", "--query",
                        nestedQuery, "--page-size", "1",
                    ] + (flatten ? ["--flatten"] : []))
                #expect(run.status == 1, "\(label): \(run.standardError)")
                // A page that names its own cursor as the next is refused whole, before it is
                // written; one that leads back further is written, and the export stops after it.
                let selfLoop = back == k - 1
                let message =
                    selfLoop
                    ? "after cursor 'c\(back)' with that same cursor" : "with the next cursor 'c\(back)'"
                #expect(run.standardError.contains(message), "\(label): \(run.standardError)")
                // The rocket's page, then the page after each cursor once.
                #expect(requests.withLock { $0 } == 1 + k, "\(label)")
                if flatten {
                    let lines = try flatLines(run.standardOutput)
                    #expect(lines == (0...(selfLoop ? k - 1 : k)).map { "R1/L\($0)" }, "\(label)")
                } else {
                    #expect(run.standardOutput.isEmpty, "\(label)")
                }
            }
        }
    }

    @Test(
        "an inner connection that answers A, B, A stops the export with the repeated cursor's error, each launch written at most once",
        arguments: [false, true])
    func innerCursorsThatCycle(flatten: Bool) async throws {
        let requests = Locked(0)
        try await ScriptedHTTPServer.withRunning(answer: cyclingLaunches(requests: requests)) { server in
            let run = await Command.run(
                [
                    "fetch", "--endpoint", server.baseURL.absoluteString + "/graphql", "--query", nestedQuery,
                    "--page-size", "1",
                ] + (flatten ? ["--flatten"] : []))
            #expect(run.status == 1, "\(run.standardError)")
            let errors = run.standardError
            #expect(errors.contains("with the next cursor 'A'"), "\(errors)")
            #expect(errors.contains("already followed"), "\(errors)")
            #expect(errors.contains("of node 'R1'"), "\(errors)")
            // The rocket's page, then the pages after A and after B; A is not asked for again.
            #expect(requests.withLock { $0 } == 3)
            if flatten {
                // Each page's launches are written as they come: L1, L2 and L3 once each.
                let lines = try flatLines(run.standardOutput)
                #expect(lines == ["R1/L1", "R1/L2", "R1/L3"])
            } else {
                // The nested line is the rocket with all its launches: never complete, so never written.
                #expect(run.standardOutput.isEmpty)
            }
        }
    }
}
