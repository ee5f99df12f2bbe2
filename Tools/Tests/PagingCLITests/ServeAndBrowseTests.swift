import Foundation
import LaunchServer
import PagingGraphQL
import Testing

@testable import PagingCLI

@Suite("paging serve and browse")
struct ServeAndBrowseTests {
    @Test("serve prints its URLs and a ready-to-run fetch that exports every launch, then stops on Ctrl-C")
    func serve() async throws {
        let run = await Command.run(["serve", "--port", "0"], interrupt: { handler in handler() })
        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.standardOutput.contains("The launch server is listening on http://127.0.0.1:"))
        #expect(run.standardOutput.contains("paging fetch --endpoint http://127.0.0.1:"))
        #expect(run.standardOutput.contains("Stopping the launch server"))
    }

    @Test("the fetch command serve prints works as printed")
    func serveExampleRuns() async throws {
        try await withLaunchServer { server in
            let banner = ServeCommand.banner(for: server)
            let line = try #require(
                banner.split(separator: "\n").first { $0.contains("paging fetch --endpoint") })
            // paging fetch --endpoint URL --query '...'
            let parts = line.trimmingCharacters(in: .whitespaces).components(separatedBy: " --query ")
            let endpoint = parts[0].replacingOccurrences(of: "paging fetch --endpoint ", with: "")
            let query = String(parts[1].dropFirst().dropLast())
            let run = await Command.run(["fetch", "--endpoint", endpoint, "--query", query])
            #expect(run.status == 0, "\(run.standardError)")
            #expect(run.outputLines.count == 100)
        }
    }

    @Test("serve --schedule-every refuses an interval out of range with exit 2, and prints the WebSocket URL")
    func scheduleEvery() async throws {
        let bad = await Command.run(["serve", "--port", "0", "--schedule-every", "0"])
        #expect(bad.status == 2)
        #expect(bad.standardError.contains("--schedule-every"))
        let run = await Command.run(
            ["serve", "--port", "0", "--schedule-every", "0.5"], interrupt: { handler in handler() })
        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.standardOutput.contains("Live     ws://127.0.0.1:"))
    }

    @Test("serve refuses a port out of range with exit 2")
    func badPort() async {
        let run = await Command.run(["serve", "--port", "70000"])
        #expect(run.status == 2)
        #expect(run.standardError.contains("--port"))
    }

    @Test("browse without a terminal prints each page of the connection with the fields asked for")
    func browsePrintsPages() async throws {
        try await withLaunchServer { server in
            let run = await Command.run([
                "browse", "--endpoint", server.graphQLURL.absoluteString, "--query", launchConnectionQuery,
                "--fields", "mission.name,site", "--page-size", "40",
            ])
            #expect(run.status == 0, "\(run.standardError)")
            #expect(run.outputLines.first == "Page 1: nodes 1–40")
            #expect(run.outputLines.contains { $0.contains("Page 3: nodes 81–100") })
            #expect(run.outputLines.last == "All 100 nodes loaded.")
            #expect(
                run.outputLines.contains { $0.hasPrefix("  FalconSat") && $0.contains("Kwajalein Atoll") })
        }
    }

    @Test("demo without a terminal prints each page as it loads and exits 0 after the last")
    func demoPrintsPages() async throws {
        let run = await Command.run(["demo", "--page-size", "30"])
        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.outputLines.first == "Page 1: launches 1–30")
        #expect(run.outputLines.contains("Page 4: launches 91–100"))
        #expect(run.outputLines.last == "All 100 launches loaded.")
        #expect(run.outputLines.contains { $0.contains("FalconSat") && $0.contains("Kwajalein Atoll") })
    }

    @Test("demo without a terminal retries pages that fail")
    func demoRetries() async throws {
        let run = await Command.run(["demo", "--failure-rate", "0.3", "--seed", "4"])
        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.outputLines.last == "All 100 launches loaded.")
    }

    @Test("a row template fills its placeholders from the node")
    func template() {
        let node: JSONValue = .object([
            "site": .string("KSC"), "mission": .object(["name": .string("Crew-1")]),
        ])
        #expect(NodeFormat.render(template: "{mission.name} from {site}!", node: node) == "Crew-1 from KSC!")
        #expect(NodeFormat.paths("a, b.c") == [["a"], ["b", "c"]])
    }
}
