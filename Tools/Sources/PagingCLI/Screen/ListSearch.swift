import Paging
import ToolsLock

/// A list screen's search as you type: a `QueryList` of lists by search text (the empty text is
/// the whole list), fed through a `Debouncer`, so that typing fast switches the list once, after
/// the last key.
///
/// The session asks for switches with ``type(_:)`` and ``switchNow(_:)``, hears of those the
/// typing makes through ``onSwitch``, and reads the list shown with ``readShown()``.
@MainActor
final class ListSearch<Key: Hashable & Sendable, Item: Identifiable & Sendable> where Item.ID: Sendable {
    /// The lists, by search text.
    let lists: QueryList<String, Key, Item>
    /// The number of matches the server gave for each search text, for the footer.
    nonisolated let matches: MatchCounts
    /// Called with the load of each switch the typing makes, as it starts (not of
    /// ``switchNow(_:)``'s, which it returns).
    var onSwitch: (@Sendable (PageLoad) -> Void)?
    private let interval: Duration
    private lazy var typing = Debouncer<String, ContinuousClock>(for: interval) { [weak self] text in
        guard let self else { return }
        self.onSwitch?(self.lists.switchTo(text))
    }

    /// Creates a search over lists made by `source`, whose whole list (the empty text) is shown
    /// first.
    /// - Parameters:
    ///   - interval: how long the text must stay before the list switches.
    ///   - capacity: how many searches' lists are kept, to show again with no request.
    ///   - configuration: the configuration of every list's pager.
    ///   - matches: where `source`'s lists count their matches.
    ///   - source: the page source of a search text.
    init(
        interval: Duration = .milliseconds(250), capacity: Int = 5, configuration: PagingConfiguration,
        matches: MatchCounts = MatchCounts(),
        source: @escaping @Sendable (String) -> any PageSource<Key, Item>
    ) {
        self.interval = interval
        self.matches = matches
        // Going back to the whole list (or an earlier search) shows it at once, then splices in
        // what is new at its top.
        lists = QueryList(
            query: "", capacity: capacity, whileLoading: .keepPrevious, onReturn: .refreshHead,
            configuration: configuration, source: source)
    }

    private var readings = 0

    /// The text the list shown is for, its pager, and the number of this reading: a reading with
    /// a greater number was made later, so a reader that gets them out of order keeps the latest.
    func readShown() -> (query: String, pager: Pager<Key, Item>, reading: Int) {
        readings += 1
        return (lists.query, lists.list.pager, readings)
    }

    /// The text typed so far: the list switches to it once no other text comes for the interval.
    func type(_ text: String) {
        typing.send(text)
    }

    /// Switches to `text` now, without waiting for the interval.
    /// - Returns: the switch's load.
    @discardableResult
    func switchNow(_ text: String) -> PageLoad {
        typing.cancel()
        return lists.switchTo(text)
    }
}

/// The number of launches that match each search text, as the server last said.
final class MatchCounts: Sendable {
    private let counts = Locked<[String: Int]>([:])

    /// An empty record.
    init() {}

    /// Records the number of matches of `text`.
    func record(_ count: Int, for text: String) {
        counts.withLock { $0[text] = count }
    }

    /// The number of matches of `text`, if the server said.
    subscript(text: String) -> Int? {
        counts.withLock { $0[text] }
    }
}
