import Foundation
import PagingLock
import PagingTestSupport
import Testing

@testable import PagingExport

private func json(_ text: String, status: Int = 200, headers: [String: String] = [:])
    -> Result<GraphQLHTTPResponse, URLError>
{
    .success(GraphQLHTTPResponse(statusCode: status, headers: headers, body: Data(text.utf8)))
}

/// A transport that answers from a script, and records the requests; with no answer left, it
/// fails as a refused connection. (The client's tests have one too: test targets share no code,
/// and PagingTesting knows nothing of HTTP.)
final class AnsweringTransport: GraphQLTransport {
    private let answers: Lock<[Result<GraphQLHTTPResponse, URLError>]>
    private let requests = Lock<[GraphQLHTTPRequest]>([])

    init(_ answers: [Result<GraphQLHTTPResponse, URLError>]) { self.answers = Lock(answers) }

    var sent: [GraphQLHTTPRequest] { requests.withLock { $0 } }

    func send(_ request: GraphQLHTTPRequest) async throws -> GraphQLHTTPResponse {
        requests.withLock { $0.append(request) }
        guard let answer = answers.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) else {
            throw URLError(.cannotConnectToHost)
        }
        return try answer.get()
    }
}

/// An export source that answers from a script of pages by cursor (`start` for the first),
/// and records the cursors asked for.
final class ScriptedExportSource: ExportSource {
    private let pages: [String: ExportPage]
    private let asked = Lock<[String]>([])

    init(_ pages: [String: ExportPage]) { self.pages = pages }

    var cursorsAsked: [String] { asked.withLock { $0 } }

    func page(at cursor: String?, count: Int) async throws -> ExportPage {
        let name = cursor ?? "start"
        asked.withLock { $0.append(name) }
        guard let page = pages[name] else { throw URLError(.badServerResponse) }
        return page
    }
}

/// A source whose first page comes at once, and whose second is held until the load is cancelled.
final class HeldExportSource: ExportSource {
    private let first: ExportPage
    private let (reached, reachedContinuation) = AsyncStream.makeStream(of: Void.self)

    init(first: ExportPage) { self.first = first }

    /// Waits until the held page is asked for.
    func reachedHeldPage() async {
        var iterator = reached.makeAsyncIterator()
        _ = await iterator.next()
    }

    func page(at cursor: String?, count: Int) async throws -> ExportPage {
        guard cursor != nil else { return first }
        reachedContinuation.yield()
        // Held until the load is cancelled: iterating a stream nothing yields to ends then.
        let (never, _) = AsyncStream.makeStream(of: Void.self)
        for await _ in never {}
        throw CancellationError()
    }
}

/// A writer that keeps what it is given, a page per call.
final class CollectingWriter: ExportWriter {
    private let pages = Lock<[[JSONValue]]>([])
    var written: [[JSONValue]] { pages.withLock { $0 } }
    func write(_ items: [JSONValue]) throws { pages.withLock { $0.append(items) } }
}

@Suite("RESTListSource: pages of a REST list, its next page and its cursors")
struct RESTListSourceTests {
    @Test("the next page in a body field, as a URL or as a token; the header fields go to the list's origin")
    func nextField() async throws {
        let transport = AnsweringTransport([
            json(#"{"items": [{"id": "1"}, {"id": "2"}], "paging": {"next": "/list?page=2"}}"#),
            json(#"{"items": [{"id": "3"}], "paging": {"next": null}}"#),
        ])
        let source = RESTListSource(
            start: URL(string: "http://example.com/list")!,
            locator: .bodyField(path: ["paging", "next"], tokenParameter: nil), headers: ["X-Key": "k"],
            transport: transport)
        let first = try await source.page(at: nil, count: 10)
        #expect(first.items.count == 2)
        #expect(first.next == "http://example.com/list?page=2")
        let second = try await source.page(at: first.next, count: 10)
        #expect(second.items == [.object(["id": .string("3")])])
        #expect(second.next == nil)
        #expect(transport.sent.map(\.method) == ["GET", "GET"])
        #expect(transport.sent.map { $0.headers["X-Key"] } == ["k", "k"])

        let tokens = AnsweringTransport([json(#"{"data": [{"id": "1"}], "nextPageToken": "abc"}"#)])
        let tokenSource = RESTListSource(
            start: URL(string: "http://example.com/files?q=x")!,
            locator: .bodyField(path: ["nextPageToken"], tokenParameter: "pageToken"), itemsPath: ["data"],
            transport: tokens)
        #expect(
            try await tokenSource.page(at: nil, count: 10).next
                == "http://example.com/files?q=x&pageToken=abc")
    }

    @Test(
        "a next page on another origin is asked for without the header fields, unless sendsHeaders allows it")
    func headersKeptToTheOrigin() async throws {
        let answers = {
            [
                json("[1]", headers: ["Link": #"<https://other.example.net/list?page=2>; rel="next""#]),
                json("[2]"),
            ]
        }
        let start = URL(string: "https://api.example.com/list")!
        let kept = AnsweringTransport(answers())
        let source = RESTListSource(start: start, headers: ["Authorization": "Bearer t"], transport: kept)
        let next = try await source.page(at: nil, count: 1).next
        _ = try await source.page(at: next, count: 1)
        #expect(kept.sent.map { $0.headers["Authorization"] } == ["Bearer t", nil])

        let anywhere = AnsweringTransport(answers())
        let trusting = RESTListSource(
            start: start, headers: ["Authorization": "Bearer t"], sendsHeaders: { _ in true },
            transport: anywhere)
        _ = try await trusting.page(at: try await trusting.page(at: nil, count: 1).next, count: 1)
        #expect(anywhere.sent.map { $0.headers["Authorization"] } == ["Bearer t", "Bearer t"])
    }

    @Test("a cursor with a skip count resumes inside its page; each item's cursor resumes right after it")
    func skipCursor() async throws {
        let transport = AnsweringTransport([json("[1, 2, 3, 4]")])
        let source = RESTListSource(start: URL(string: "http://example.com/a")!, transport: transport)
        let page = try await source.page(at: "http://example.com/a?page=3#paging-skip=2", count: 10)
        #expect(page.items == [.int(3), .int(4)])
        #expect(
            page.resumeCursors == [
                "http://example.com/a?page=3#paging-skip=3", "http://example.com/a?page=3#paging-skip=4",
            ])
        #expect(transport.sent.first?.url.absoluteString == "http://example.com/a?page=3")
    }

    @Test("cursors it did not make are refused before anything is sent")
    func malformedCursors() {
        for cursor in [
            "not a url", "http://example.com/a#paging-skip=x", "http://example.com/a#paging-skip=-1",
        ] {
            #expect(throws: ExportError.self, "\(cursor)") { try RESTListSource.validate(cursor: cursor) }
            do {
                try RESTListSource.validate(cursor: cursor)
            } catch {
                #expect(error.code == .malformedCursor)
            }
        }
        #expect(throws: Never.self) {
            try RESTListSource.validate(cursor: "http://example.com/a#paging-skip=7")
        }
    }

    @Test("an answer that cannot be used: a failing status, a body not JSON, no list; each with its code")
    func unusableAnswers() async throws {
        let cases: [(Result<GraphQLHTTPResponse, URLError>, ExportError.Code)] = [
            (json("<html>down</html>", status: 503), .httpStatus(503)),
            (json("<html>ok</html>"), .notJSON),
            (json(#"{"count": 3}"#), .noItems),
            (json(#"{"items": [], "next": {"a": 1}}"#), .malformedNextPage),
        ]
        for (answer, code) in cases {
            let source = RESTListSource(
                start: URL(string: "http://example.com/a")!,
                locator: .bodyField(path: ["next"], tokenParameter: nil),
                transport: AnsweringTransport([answer]))
            do {
                _ = try await source.page(at: nil, count: 1)
                Issue.record("expected \(code)")
            } catch let error as ExportError {
                #expect(error.code == code)
                #expect(error.url?.absoluteString == "http://example.com/a")
            }
        }
    }

    @Test("Link headers: the next target among several links, relative or absolute, commas in quotes")
    func linkHeader() {
        let base = URL(string: "http://example.com/api/launches?page=1")!
        let value =
            #"<http://example.com/api/launches?page=1>; rel="first", </api/launches?page=2>; rel="next", <x>; rel="last""#
        #expect(
            LinkHeader.target(of: "next", in: value, base: base)?.absoluteString
                == "http://example.com/api/launches?page=2")
        #expect(LinkHeader.target(of: "prev", in: value, base: base) == nil)
        let quoted = #"<a?x=1,2>; title="a, b"; rel="prev next""#
        #expect(
            LinkHeader.target(of: "NEXT", in: quoted, base: base)?.absoluteString
                == "http://example.com/api/a?x=1,2")
        #expect(LinkHeader.target(of: "next", in: nil, base: base) == nil)
    }
}

@Suite("JSONExportWriter: JSON Lines, and an array valid however the export ends")
struct JSONExportWriterTests {
    private final class Output: Sendable {
        let bytes = Lock(Data())
        var text: String { String(decoding: bytes.withLock { $0 }, as: UTF8.self) }
        func append(_ data: Data) { bytes.withLock { $0.append(data) } }
    }

    @Test("an array: empty, or one element a line, and continued after the elements a file held")
    func array() throws {
        let empty = Output()
        let none = JSONExportWriter(format: .array) { empty.append($0) }
        try none.finish()
        #expect(empty.text == "[]\n")

        let output = Output()
        let two = JSONExportWriter(format: .array) { output.append($0) }
        try two.write([.int(1)])
        try two.write([.object(["b": .string("b/c"), "a": .null])])
        try two.finish()
        #expect(output.text == "[\n1,\n{\"a\":null,\"b\":\"b/c\"}\n]\n")
        #expect(two.writtenCount == 2)

        // A resumed export: the file holds "[\n1,\n2" (its closing bracket taken off).
        let continued = Output()
        let more = JSONExportWriter(format: .array, continuedElements: 2) { continued.append($0) }
        try more.write([.int(3)])
        try more.finish()
        #expect("[\n1,\n2" + continued.text == "[\n1,\n2,\n3\n]\n")
    }

    @Test("lines: one compact value a line, nothing to close")
    func lines() throws {
        let output = Output()
        let writer = JSONExportWriter(format: .lines) { output.append($0) }
        try writer.write([.object(["id": .int(1)]), .string("two")])
        try writer.write([])
        try writer.finish()
        #expect(output.text == "{\"id\":1}\n\"two\"\n")
    }
}

@Suite(
    "Exporter: a whole list, page by page, on the engine's pager", .timeLimit(.minutes(HangLimit.minutes(1))))
struct ExporterTests {
    private func page(_ values: [Int], next: String?, total: Int? = nil) -> ExportPage {
        ExportPage(
            items: values.map { .int($0) }, resumeCursors: values.map { "after-\($0)" }, next: next,
            totalCount: total)
    }

    private func run(_ source: ScriptedExportSource, maximumItems: Int? = nil, maximumPages: Int? = nil)
        async -> (Exporter.Result, [Int])
    {
        let writer = CollectingWriter()
        let exporter = Exporter(
            source: source,
            settings: Exporter.Settings(pageSize: 2, maximumPages: maximumPages, maximumItems: maximumItems))
        let result = await exporter.run(into: writer)
        return (result, writer.written.joined().compactMap(\.intValue))
    }

    @Test(
        "a server that answers a page with its own cursor as the next one stops the export with a clear error"
    )
    func repeatedCursor() async throws {
        let source = ScriptedExportSource(["start": page([1, 2], next: "a"), "a": page([3, 4], next: "a")])
        let (result, items) = await run(source)
        #expect(items == [1, 2])
        #expect(result.pages == 1)
        #expect(result.resumeCursor == "a")
        guard case .failed(let error as ExportError) = result.ending else {
            Issue.record("expected an ExportError, got \(result.ending)")
            return
        }
        #expect(error.code == .repeatedCursor)
        #expect(error.message.contains("loop forever"))
    }

    @Test("a server whose cursors cycle (a, b, a) stops the export with a clear error instead of looping")
    func cyclingCursors() async throws {
        let source = ScriptedExportSource([
            "start": page([1, 2], next: "a"), "a": page([3, 4], next: "b"), "b": page([5, 6], next: "a"),
        ])
        // A page limit bounds the run, so that the test ends even if the cycle were followed.
        let (result, items) = await run(source, maximumPages: 20)
        // The page that leads back to a cursor already followed is not written.
        #expect(items == [1, 2, 3, 4])
        #expect(source.cursorsAsked == ["start", "a", "b"])
        #expect(result.resumeCursor == "b")
        guard case .failed(let error as ExportError) = result.ending else {
            Issue.record("expected an ExportError, got \(result.ending)")
            return
        }
        #expect(error.code == .repeatedCursor)
    }

    @Test("empty pages in the middle write nothing and the export goes on to the end")
    func emptyPages() async throws {
        let source = ScriptedExportSource([
            "start": page([1, 2], next: "a"), "a": page([], next: "b"), "b": page([3], next: nil),
        ])
        let (result, items) = await run(source)
        #expect(items == [1, 2, 3])
        #expect(result.pages == 3)
        #expect(result.resumeCursor == nil)
        guard case .completed = result.ending else {
            Issue.record("expected completion, got \(result.ending)")
            return
        }
    }

    @Test("a page larger than the item limit allows is cut, and the resume cursor is the last item written")
    func cutPage() async throws {
        let source = ScriptedExportSource(["start": page([1, 2, 3], next: "x")])
        let (result, items) = await run(source, maximumItems: 2)
        #expect(items == [1, 2])
        #expect(result.resumeCursor == "after-2")
        guard case .limitReached = result.ending else {
            Issue.record("expected the limit, got \(result.ending)")
            return
        }
    }

    @Test("a page that fails stops the export with the cursor before it; resumed there, the rest comes once")
    func failureAndResume() async throws {
        let failing = ScriptedExportSource(["start": page([1, 2], next: "a"), "a": page([3, 4], next: "b")])
        let (stopped, first) = await run(failing)
        #expect(first == [1, 2, 3, 4])
        #expect(stopped.resumeCursor == "b")
        guard case .failed(let error as URLError) = stopped.ending else {
            Issue.record("expected the source's error, got \(stopped.ending)")
            return
        }
        #expect(error.code == .badServerResponse)

        let rest = ScriptedExportSource(["b": page([5], next: nil)])
        let writer = CollectingWriter()
        let resumed = await Exporter(source: rest, settings: Exporter.Settings(pageSize: 2, resume: "b"))
            .run(into: writer)
        #expect(writer.written.joined().compactMap(\.intValue) == [5])
        #expect(rest.cursorsAsked == ["b"])
        #expect(resumed.resumeCursor == nil)
    }

    @Test("started: one progress report a page, with the list's total when told, then the result")
    func progressSequence() async throws {
        let source = ScriptedExportSource([
            "start": page([1, 2], next: "a", total: 3), "a": page([3], next: nil, total: 3),
        ])
        let writer = CollectingWriter()
        let export = Exporter(source: source, settings: Exporter.Settings(pageSize: 2)).start(into: writer)
        var progress: [Exporter.Progress] = []
        for await step in export.progress { progress.append(step) }
        #expect(
            progress == [
                Exporter.Progress(items: 2, pages: 1, totalCount: 3),
                Exporter.Progress(items: 3, pages: 2, totalCount: 3),
            ])
        let result = await export.result
        #expect(result.items == 3)
        #expect(result.resumeCursor == nil)
        #expect(writer.written.count == 2)
    }

    @Test(
        "cancelled while a page loads: that page is not written, and the export resumes there, nothing repeated"
    )
    func cancelAndResume() async throws {
        let held = HeldExportSource(first: page([1, 2], next: "a"))
        let writer = CollectingWriter()
        let export = Exporter(source: held, settings: Exporter.Settings(pageSize: 2)).start(into: writer)
        var reports = export.progress.makeAsyncIterator()
        #expect(await reports.next() == Exporter.Progress(items: 2, pages: 1))
        await held.reachedHeldPage()
        export.cancel()

        let result = await export.result
        guard case .interrupted = result.ending else {
            Issue.record("expected an interruption, got \(result.ending)")
            return
        }
        #expect(result.resumeCursor == "a")
        #expect(writer.written.joined().compactMap(\.intValue) == [1, 2])

        let rest = ScriptedExportSource(["a": page([3], next: nil)])
        let resumed = await Exporter(
            source: rest, settings: Exporter.Settings(pageSize: 2, resume: result.resumeCursor)
        )
        .run(into: writer)
        #expect(resumed.items == 1)
        #expect(writer.written.joined().compactMap(\.intValue) == [1, 2, 3])
    }

    @Test("a writer that fails stops the export before the next page, its cursor the one before the page")
    func writeFailure() async throws {
        struct Full: Error {}
        struct FailingWriter: ExportWriter {
            func write(_ items: [JSONValue]) throws { throw Full() }
        }
        let source = ScriptedExportSource(["start": page([1, 2], next: "a"), "a": page([3], next: nil)])
        let result = await Exporter(source: source, settings: Exporter.Settings(pageSize: 2)).run(
            into: FailingWriter())
        #expect(source.cursorsAsked == ["start"])
        #expect(result.items == 0)
        #expect(result.resumeCursor == nil, "the first page: the export starts over")
        guard case .failed(let error as ExportError) = result.ending else {
            Issue.record("expected an ExportError, got \(result.ending)")
            return
        }
        #expect(error.code == .writeFailed)
    }

    @Test("GraphQL errors next to a page's data: refused by default, or written and counted when accepted")
    func partialData() async throws {
        var partial = page([1, 2], next: nil)
        partial.errors = [GraphQLResponseError(message: "Cannot return null for Launch.site")]
        partial.itemsWithErrors = [1]
        partial.missingItems = 1

        let refused = await Exporter(source: ScriptedExportSource(["start": partial])).run(
            into: CollectingWriter())
        guard case .failed(let error as PartialDataError) = refused.ending else {
            Issue.record("expected a PartialDataError, got \(refused.ending)")
            return
        }
        #expect(error.report.errors.map(\.message) == ["Cannot return null for Launch.site"])
        #expect(refused.items == 0)

        let reports = Lock<[Int]>([])
        let writer = CollectingWriter()
        let accepted = await Exporter(
            source: ScriptedExportSource(["start": partial]),
            partialData: .accept { report, missing in
                reports.withLock { $0.append(report.errors.count + 10 * missing) }
            }
        ).run(into: writer)
        #expect(writer.written.joined().compactMap(\.intValue) == [1, 2])
        #expect(accepted.itemsWithNulls == 1)
        #expect(reports.withLock { $0 } == [11], "one error, one item missing")
    }

    @Test("settings that cannot be used fail the export before any request")
    func invalidSettings() async throws {
        let source = ScriptedExportSource([:])
        let result = await Exporter(source: source, settings: Exporter.Settings(pageSize: 0)).run(
            into: CollectingWriter())
        #expect(source.cursorsAsked.isEmpty)
        guard case .failed(let error as ExportError) = result.ending else {
            Issue.record("expected an ExportError, got \(result.ending)")
            return
        }
        #expect(error.code == .invalidSettings)
    }
}

@Suite("JSONExportFile: replaced by a new export, continued by a resumed one, never left half-written")
struct JSONExportFileTests {
    private static func folder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appending(
            path: "paging-export-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    private static func text(_ url: URL) throws -> String { try String(contentsOf: url, encoding: .utf8) }

    @Test(
        "a continued array is cut before its closing bracket and stays valid JSON whatever is added",
        arguments: [
            ("[\n{\"a\":1},\n{\"a\":2}\n]\n", 2, "[\n{\"a\":1},\n{\"a\":2},\n3\n]\n"),
            ("[]\n", 0, "[\n3\n]\n"),
            ("  [ 1 , 2 ]  ", 2, "  [ 1 , 2,\n3\n]\n"),
            ("\n", 0, "[\n3\n]\n"),
        ])
    func continuedArray(old: String, elements: Int, continued: String) throws {
        let (prefix, count) = try JSONExportFile.arrayPrefix(of: Data(old.utf8), url: URL(filePath: "/f"))
        #expect(count == elements)
        let output = Lock(prefix)
        let writer = JSONExportWriter(format: .array, continuedElements: count) { data in
            output.withLock { $0.append(data) }
        }
        try writer.write([.int(3)])
        try writer.finish()
        #expect(String(decoding: output.withLock { $0 }, as: UTF8.self) == continued)
    }

    @Test(
        "text that is not one JSON array cannot be continued",
        arguments: ["{\"a\":1}\n{\"a\":2}\n", "[1,", "7"])
    func notAnArray(old: String) {
        #expect(throws: ExportError.self) {
            try JSONExportFile.arrayPrefix(of: Data(old.utf8), url: URL(filePath: "/f"))
        }
    }

    @Test(
        "a resumed array is written beside the file and put in its place on close; discarded, the file is as it was"
    )
    func arrayContinuedBesideTheFile() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appending(path: "list.json")
        let first = try JSONExportFile.open(url, format: .array, continuing: false)
        try first.write([.int(1), .int(2)])
        try first.close()
        #expect(try Self.text(url) == "[\n1,\n2\n]\n")

        let failed = try JSONExportFile.open(url, format: .array, continuing: true)
        #expect(failed.keepsFileUntilClosed)
        #expect(failed.continuedElements == 2)
        try failed.write([.int(3)])
        failed.discard()
        #expect(try Self.text(url) == "[\n1,\n2\n]\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["list.json"])

        let resumed = try JSONExportFile.open(url, format: .array, continuing: true)
        try resumed.write([.int(3)])
        #expect(try Self.text(url) == "[\n1,\n2\n]\n", "the file holds what it held until close")
        try resumed.close()
        #expect(try Self.text(url) == "[\n1,\n2,\n3\n]\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["list.json"])
    }

    @Test("resumed lines are appended, after a newline the last line lacked; a new export replaces the file")
    func linesAppendedOrReplaced() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appending(path: "list.jsonl")
        try Data("1\n2".utf8).write(to: url)
        let resumed = try JSONExportFile.open(url, format: .lines, continuing: true)
        try resumed.write([.int(3)])
        try resumed.close()
        #expect(try Self.text(url) == "1\n2\n3\n")

        let new = try JSONExportFile.open(url, format: .lines, continuing: false)
        try new.write([.int(4)])
        try new.close()
        #expect(try Self.text(url) == "4\n")
    }

    @Test("a resumed export refuses a file in the other format, and leaves it as it was")
    func otherFormatRefused() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let array = folder.appending(path: "list.json")
        let lines = folder.appending(path: "list.jsonl")
        try Data("[\n1\n]\n".utf8).write(to: array)
        try Data("{\"a\":1}\n{\"a\":2}\n".utf8).write(to: lines)
        for (url, format) in [(array, JSONExportWriter.Format.lines), (lines, .array)] {
            let before = try Data(contentsOf: url)
            do {
                _ = try JSONExportFile.open(url, format: format, continuing: true)
                Issue.record("\(url.lastPathComponent) was opened as \(format)")
            } catch {
                #expect(error.code == .outputInOtherFormat)
            }
            #expect(try Data(contentsOf: url) == before)
        }
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == [
                "list.json", "list.jsonl",
            ])
    }
}
