import Foundation
import PagingExport
import PagingGraphQLClient
import ToolsLock

/// Reports an export's progress on standard error: a bar redrawn in place on a terminal, a plain
/// line now and then otherwise, or nothing. Time comes from an injected clock, so tests decide
/// when lines are due and what the rate is.
final class ProgressReporter: Sendable {
    /// How progress is shown.
    enum Style: Sendable, Equatable {
        /// A line redrawn in place (stderr is a terminal).
        case bar
        /// A plain line every `interval` (stderr is a file or a pipe).
        case lines(interval: Duration)
        /// Nothing (`--quiet`).
        case quiet
    }

    private struct State {
        var items = 0
        var pages = 0
        var total: Int?
        var innerNodes = 0
        var innerPages = 0
        var lastDrawn: Duration?
        var barShown = false
    }

    private let style: Style
    private let sink: TextSink
    private let now: @Sendable () -> Duration
    private let start: Duration
    private let state = Locked(State())

    /// Creates a reporter.
    /// - Parameters:
    ///   - style: bar, lines or quiet.
    ///   - sink: where the text goes (standard error).
    ///   - now: the clock.
    init(style: Style, sink: TextSink, now: @escaping @Sendable () -> Duration) {
        self.style = style
        self.sink = sink
        self.now = now
        self.start = now()
    }

    /// Records that a page was written.
    /// - Parameters:
    ///   - items: the items written so far in all.
    ///   - pages: the pages written so far.
    ///   - total: the size of the whole list, when known.
    func update(items: Int, pages: Int, total: Int?) {
        let time = now()
        let text: String? = state.withLock { state in
            state.items = items
            state.pages = pages
            state.total = total ?? state.total
            switch style {
            case .quiet:
                return nil
            case .bar:
                if let last = state.lastDrawn, time - last < .milliseconds(100) { return nil }
                state.lastDrawn = time
                state.barShown = true
                return "\r\u{1B}[K" + Self.bar(state, elapsed: time - start)
            case .lines(let interval):
                if let last = state.lastDrawn, time - last < interval { return nil }
                if state.lastDrawn == nil, time - start < interval { return nil }
                state.lastDrawn = time
                return Self.summary(state, elapsed: time - start) + "\n"
            }
        }
        if let text { sink.write(text) }
    }

    /// Records an export's report: its notices shown at once, its counts (those of inner
    /// connections after the outer ones, `inner: 340 nodes, 17 pages`) from now on.
    func report(_ progress: Exporter.Progress) {
        for notice in progress.notices { interject("paging: \(notice)\n") }
        state.withLock { state in
            state.innerNodes = progress.innerNodes
            state.innerPages = progress.innerPages
        }
        update(items: progress.items, pages: progress.pages, total: progress.totalCount)
    }

    /// Tells that a request is retried.
    func retrying(_ notice: RetryNotice) {
        guard style != .quiet else { return }
        let prefix = lineStart()
        sink.write(
            "\(prefix)retrying in \(Self.seconds(notice.delay)) (\(notice.retry) of \(notice.maximumRetries)): \(notice.reason)\n"
        )
    }

    /// Tells that the export waits for the server's rate limit to reset (`rate limit: waiting
    /// 1m 41s until 14:05:09 UTC (no request left)`), or gives up because the reset is too far.
    func rateLimited(_ notice: RateLimitNotice) {
        guard style != .quiet else { return }
        let prefix = lineStart()
        let until = notice.reset.map { " until \(Self.clockTime($0))" } ?? ""
        if notice.givesUp {
            sink.write(
                "\(prefix)rate limit: no request left\(until), \(Self.seconds(notice.delay)) from now, "
                    + "longer than the export waits (\(notice.reason))\n")
        } else {
            sink.write(
                "\(prefix)rate limit: waiting \(Self.seconds(notice.delay))\(until) (\(notice.reason))\n")
        }
    }

    /// What a line of its own starts with: the bar cleared, when one is shown (the next update
    /// draws it again).
    private func lineStart() -> String {
        state.withLock { state in
            defer { state.barShown = false }
            return state.barShown ? "\r\u{1B}[K" : ""
        }
    }

    /// Writes text that is not progress (a warning), with `--quiet` too: the bar, when one is
    /// shown, is cleared first and drawn again with the next update.
    /// - Parameter text: the text, ending with a newline.
    func interject(_ text: String) {
        let prefix = state.withLock { state in
            guard state.barShown else { return "" }
            state.barShown = false
            state.lastDrawn = nil
            return "\r\u{1B}[K"
        }
        sink.write(prefix + text)
    }

    /// Ends the progress output with a final line.
    /// - Parameter outcome: what happened, such as `done`.
    func finish(_ outcome: String) {
        guard style != .quiet else { return }
        let time = now()
        let text = state.withLock { state in
            let prefix = state.barShown ? "\r\u{1B}[K" : ""
            state.barShown = false
            return prefix + "\(outcome): \(Self.summary(state, elapsed: time - start, estimate: false))\n"
        }
        sink.write(text)
    }

    /// The items and pages so far.
    var counts: (items: Int, pages: Int) { state.withLock { ($0.items, $0.pages) } }

    private static func rate(_ state: State, elapsed: Duration) -> Double? {
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        guard seconds > 0 else { return nil }
        return Double(state.items) / seconds
    }

    /// `340 items, 17 pages, 210 items/s, 34%, about 3s left`.
    private static func summary(_ state: State, elapsed: Duration, estimate: Bool = true) -> String {
        var parts = [
            "\(state.items) item\(state.items == 1 ? "" : "s")",
            "\(state.pages) page\(state.pages == 1 ? "" : "s")",
        ]
        let rate = rate(state, elapsed: elapsed)
        if let rate { parts.append("\(Int(rate.rounded())) items/s") }
        if state.innerPages > 0 { parts.append(innerText(state)) }
        if let total = state.total, total > 0 {
            parts.append("\(min(100, state.items * 100 / total))% of \(total)")
            if estimate, let rate, rate > 0, total > state.items {
                parts.append("about \(seconds(.seconds(Double(total - state.items) / rate))) left")
            }
        }
        return parts.joined(separator: ", ")
    }

    /// `[#######-------------]  34%  340/1000 items  17 pages  210/s  ETA 0:03`.
    private static func bar(_ state: State, elapsed: Duration) -> String {
        let rate = rate(state, elapsed: elapsed)
        let rateText = rate.map { " \(Int($0.rounded()))/s" } ?? ""
        let inner = state.innerPages > 0 ? "  " + innerText(state) : ""
        guard let total = state.total, total > 0 else {
            return "\(state.items) items  \(state.pages) pages\(rateText)\(inner)"
        }
        let fraction = min(1, Double(state.items) / Double(total))
        let width = 24
        let filled = Int((fraction * Double(width)).rounded(.down))
        var text =
            "[" + String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled) + "] "
        text += String(format: "%3d%%", Int((fraction * 100).rounded(.down)))
        text += "  \(state.items)/\(total) items  \(state.pages) pages\(rateText)"
        if let rate, rate > 0, total > state.items {
            let left = Int((Double(total - state.items) / rate).rounded(.up))
            text += "  ETA \(left / 60):" + String(format: "%02d", left % 60)
        }
        return text + inner
    }

    /// `inner: 340 nodes, 17 pages`: the inner connections' pages of a nested export.
    private static func innerText(_ state: State) -> String {
        "inner: \(state.innerNodes) node\(state.innerNodes == 1 ? "" : "s"), \(state.innerPages) page\(state.innerPages == 1 ? "" : "s")"
    }

    /// `1.5s`, `12s`, `2m 5s`.
    static func seconds(_ duration: Duration) -> String {
        let value = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
        if value < 10 { return String(format: "%.1fs", value) }
        let whole = Int(value.rounded())
        return whole < 60 ? "\(whole)s" : "\(whole / 60)m \(whole % 60)s"
    }

    /// The time of day of a reset, for the progress line: `14:05:09 UTC`.
    static func clockTime(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "HH:mm:ss 'UTC'"
        return formatter.string(from: date)
    }
}
