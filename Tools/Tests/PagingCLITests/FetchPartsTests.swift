import Foundation
import PagingGraphQL
import PagingTesting
import Testing
import ToolsLock

@testable import PagingCLI

/// A transport that answers from a script, and records the requests.
final class ScriptedTransport: GraphQLTransport {
    private let answers: Locked<[Result<GraphQLHTTPResponse, URLError>]>
    private let requests = Locked<[GraphQLHTTPRequest]>([])

    init(_ answers: [Result<GraphQLHTTPResponse, URLError>]) {
        self.answers = Locked(answers)
    }

    var sent: [GraphQLHTTPRequest] { requests.withLock { $0 } }

    func send(_ request: GraphQLHTTPRequest) async throws -> GraphQLHTTPResponse {
        requests.withLock { $0.append(request) }
        let answer = answers.withLock { $0.isEmpty ? nil : $0.removeFirst() }
        guard let answer else { throw URLError(.cannotConnectToHost) }
        return try answer.get()
    }
}

private func json(_ text: String, status: Int = 200, headers: [String: String] = [:]) -> Result<
    GraphQLHTTPResponse, URLError
> {
    .success(GraphQLHTTPResponse(statusCode: status, headers: headers, body: Data(text.utf8)))
}

@Suite("fetch's retries, REST pages and progress")
struct FetchPartsTests {
    @Test("a REST list with the next page in a body field, as a URL or as a token")
    func nextField() async throws {
        let transport = ScriptedTransport([
            json(#"{"items": [{"id": "1"}, {"id": "2"}], "paging": {"next": "/list?page=2"}}"#),
            json(#"{"items": [{"id": "3"}], "paging": {"next": null}}"#),
        ])
        let start = URL(string: "http://example.com/list")!
        let source = RESTExportSource(
            start: start, locator: .bodyField(path: ["paging", "next"], tokenParameter: nil),
            itemsPath: nil, headers: HeaderScope(start: start, fields: ["X-Key": "k"]), timeout: .seconds(5),
            transport: transport)
        let first = try await source.page(at: nil, count: 10)
        #expect(first.items.count == 2)
        #expect(first.next == "http://example.com/list?page=2")
        let second = try await source.page(at: first.next, count: 10)
        #expect(second.items == [.object(["id": .string("3")])])
        #expect(second.next == nil)
        #expect(transport.sent.map(\.method) == ["GET", "GET"])
        #expect(transport.sent.first?.headers["X-Key"] == "k")

        let tokens = ScriptedTransport([json(#"{"data": [{"id": "1"}], "nextPageToken": "abc"}"#)])
        let files = URL(string: "http://example.com/files?q=x")!
        let tokenSource = RESTExportSource(
            start: files, locator: .bodyField(path: ["nextPageToken"], tokenParameter: "pageToken"),
            itemsPath: ["data"], headers: HeaderScope(start: files, fields: [:]), timeout: .seconds(5),
            transport: tokens)
        #expect(
            try await tokenSource.page(at: nil, count: 10).next
                == "http://example.com/files?q=x&pageToken=abc")
    }

    @Test("Link headers: the next target among several links, relative or absolute")
    func linkHeader() {
        let base = URL(string: "http://example.com/api/launches?page=1")!
        let value =
            #"<http://example.com/api/launches?page=1>; rel="first", </api/launches?page=2>; rel="next", <x>; rel="last""#
        #expect(
            LinkHeader.target(of: "next", in: value, base: base)?.absoluteString
                == "http://example.com/api/launches?page=2")
        #expect(LinkHeader.target(of: "prev", in: value, base: base) == nil)
    }

    @Test("progress: plain lines every interval of the injected clock, with rate, percentage and time left")
    func progressLines() {
        let clock = ManualClock()
        let output = TextBuffer()
        let progress = ProgressReporter(
            style: .lines(interval: .seconds(2)), sink: output.sink, now: clock.now)
        clock.advance(by: .seconds(1))
        progress.update(items: 50, pages: 1, total: 200)
        #expect(output.text.isEmpty)
        clock.advance(by: .seconds(1))
        progress.update(items: 100, pages: 2, total: 200)
        #expect(output.text == "100 items, 2 pages, 50 items/s, 50% of 200, about 2.0s left\n")
        clock.advance(by: .seconds(1))
        progress.update(items: 150, pages: 3, total: 200)
        #expect(output.text.split(separator: "\n").count == 1)
        clock.advance(by: .seconds(1))
        progress.finish("done")
        #expect(output.text.hasSuffix("done: 150 items, 3 pages, 38 items/s, 75% of 200\n"))
    }

    @Test("progress: a bar redrawn in place on a terminal, and nothing with --quiet")
    func progressBar() {
        let clock = ManualClock()
        let output = TextBuffer()
        let bar = ProgressReporter(style: .bar, sink: output.sink, now: clock.now)
        clock.advance(by: .seconds(2))
        bar.update(items: 25, pages: 1, total: 100)
        #expect(
            output.text.hasPrefix(
                "\r\u{1B}[K[######------------------]  25%  25/100 items  1 pages 13/s  ETA 0:06"))
        let quiet = TextBuffer()
        let silent = ProgressReporter(style: .quiet, sink: quiet.sink, now: clock.now)
        silent.update(items: 1, pages: 1, total: nil)
        silent.finish("done")
        #expect(quiet.text.isEmpty)
    }

    @Test("a JSON array stays valid however few items were written")
    func slurpSink() throws {
        let empty = TextBuffer()
        let sink = JSONSink(format: .array) { empty.sink.write(String(decoding: $0, as: UTF8.self)) }
        try sink.finish()
        #expect(empty.text == "[]\n")
        let output = TextBuffer()
        let two = JSONSink(format: .array) { output.sink.write(String(decoding: $0, as: UTF8.self)) }
        try two.write([.int(1)])
        try two.write([.object(["a": .string("b/c")])])
        try two.finish()
        #expect(output.text == "[\n1,\n{\"a\":\"b/c\"}\n]\n")
    }

    @Test("the connection gets @connection when it pages by after: and selects pageInfo")
    func markConnection() throws {
        let document = try PageableDocument.make(
            "query($n: Int, $c: String) { viewer { list: items(first: $n, after: $c) { nodes { id } pageInfo { endCursor } } } }",
            connectionKey: nil, operationName: nil)
        #expect(document.variables.first == "n")
        #expect(document.variables.after == "c")
        #expect(document.connectionFieldName == "items")
        #expect(throws: CLIError.self) {
            try PageableDocument.make(
                "query($a: String, $b: String) { x(after: $a) { nodes { id } } y(after: $b) { nodes { id } } }",
                connectionKey: nil, operationName: nil)
        }
    }
}

/// An export source over pages in memory, scripted by cursor, that records the cursors asked.
final class ScriptedExportSource: ExportSource {
    private let pages: [String: ExportPage]
    private let asked = Locked<[String]>([])

    init(_ pages: [String: ExportPage]) { self.pages = pages }

    var cursorsAsked: [String] { asked.withLock { $0 } }

    func page(at cursor: String?, count: Int) async throws -> ExportPage {
        let name = cursor ?? "start"
        asked.withLock { $0.append(name) }
        guard let page = pages[name] else { throw URLError(.badServerResponse) }
        return page
    }
}

@Suite("the exporter on the engine's pager")
struct ExporterTests {
    private func page(_ values: [Int], next: String?) -> ExportPage {
        ExportPage(
            items: values.map { .int($0) }, resumeCursors: values.map { "after-\($0)" }, next: next,
            totalCount: nil)
    }

    private func run(_ source: ScriptedExportSource, maximumItems: Int? = nil, maximumPages: Int? = nil)
        async -> (
            Exporter.Result, [String]
        )
    {
        let written = Locked<[String]>([])
        let sink = JSONSink(format: .lines) { data in
            written.withLock { $0.append(String(decoding: data, as: UTF8.self)) }
        }
        let exporter = Exporter(
            source: source,
            settings: Exporter.Settings(
                pageSize: 2, maximumPages: maximumPages, maximumItems: maximumItems, resume: nil))
        let result = await exporter.run(
            into: sink, progress: ProgressReporter(style: .quiet, sink: TextBuffer().sink, now: { .zero }))
        return (result, written.withLock { $0.joined().split(separator: "\n").map(String.init) })
    }

    @Test(
        "a server that answers a page with its own cursor as the next one stops the export with a clear error"
    )
    func repeatedCursor() async throws {
        let source = ScriptedExportSource([
            "start": page([1, 2], next: "a"),
            "a": page([3, 4], next: "a"),
        ])
        let (result, lines) = await run(source)
        #expect(lines == ["1", "2"])
        #expect(result.pages == 1)
        #expect(result.resumeCursor == "a")
        guard case .failed(let error) = result.ending else {
            Issue.record("expected a failure, got \(result.ending)")
            return
        }
        #expect("\(error)".contains("loop forever"))
    }

    @Test("a server whose cursors cycle (a, b, a) stops the export with a clear error instead of looping")
    func cyclingCursors() async throws {
        let source = ScriptedExportSource([
            "start": page([1, 2], next: "a"),
            "a": page([3, 4], next: "b"),
            "b": page([5, 6], next: "a"),
        ])
        // --max-pages bounds the run, so that the test ends even if the cycle were followed.
        let (result, lines) = await run(source, maximumPages: 20)
        // The page that leads back to a cursor already followed is not written.
        #expect(lines == ["1", "2", "3", "4"])
        #expect(source.cursorsAsked == ["start", "a", "b"])
        #expect(result.resumeCursor == "b")
        guard case .failed(let error) = result.ending else {
            Issue.record("expected a failure, got \(result.ending)")
            return
        }
        #expect("\(error)".contains("loop forever"))
    }

    @Test("empty pages in the middle write nothing and the export goes on to the end")
    func emptyPages() async throws {
        let source = ScriptedExportSource([
            "start": page([1, 2], next: "a"),
            "a": page([], next: "b"),
            "b": page([3], next: nil),
        ])
        let (result, lines) = await run(source)
        #expect(lines == ["1", "2", "3"])
        #expect(result.pages == 3)
        #expect(result.resumeCursor == nil)
        #expect(source.cursorsAsked == ["start", "a", "b"])
    }

    @Test("a page larger than --max-items allows is cut, and the resume cursor is the last item written")
    func cutPage() async throws {
        let source = ScriptedExportSource(["start": page([1, 2, 3], next: "x")])
        let (result, lines) = await run(source, maximumItems: 2)
        #expect(lines == ["1", "2"])
        #expect(result.resumeCursor == "after-2")
        guard case .limitReached = result.ending else {
            Issue.record("expected the limit, got \(result.ending)")
            return
        }
    }
}
