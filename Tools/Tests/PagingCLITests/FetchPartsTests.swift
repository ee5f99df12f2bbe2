import Foundation
import PagingGraphQL
import PagingTesting
import Testing

@testable import PagingCLI

/// The parts of `paging fetch` of its own: its progress line and its reading of a document.
/// (The exporter, the REST source and the writers are PagingExport's, tested in the root
/// package.)
@Suite("fetch's progress and documents")
struct FetchPartsTests {
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
}
