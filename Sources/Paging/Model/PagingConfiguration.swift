/// How a pager loads: page sizes, how early it prefetches, how much it holds,
/// and how it refreshes.
///
/// Values are checked when the configuration is made:
///
/// ```swift
/// let configuration = try PagingConfiguration(
///     pageSize: 20, prefetchDistance: 10, maximumHeld: .pages(10))
/// ```
public struct PagingConfiguration: Sendable, Hashable {
    /// A limit on what a pager holds. Past it, pages at the far end from the
    /// last load are dropped; their keys are kept, so coming back loads them
    /// again.
    ///
    /// Memory: the items held stay within the limit however far the list is
    /// scrolled. What grows is one request per dropped page (the key it was
    /// loaded with and its count, tens of bytes), so that coming back loads
    /// exactly that page again, even from a source that pages forward only:
    /// O(pages dropped), about 0.6 MB after a million items in pages of 100.
    /// A refresh that restarts forgets them.
    public enum HeldLimit: Sendable, Hashable {
        /// At most this many pages.
        case pages(Int)
        /// At most this many items (the page just loaded is always kept).
        case items(Int)
    }

    /// What ``Pager/refresh()`` loads.
    public enum RefreshPolicy: Sendable, Hashable {
        /// Load the first page again, as at the start; the list then holds that
        /// page only.
        ///
        /// With ``PagingConfiguration/placeholders``, over a source that can jump
        /// (``Pager/canJump``), the page around the reader loads instead: the
        /// page a jump there would load (``Pager/jump(to:)``), with
        /// ``PagingConfiguration/jumpLoadSize`` items. The reader is where a jump
        /// in flight is going, or else the position last shown, or else the first
        /// item held. So the rows on screen are updated in place, and do not turn
        /// into placeholders to load again. When that page is the top of a list
        /// opened at its top, or the count above the items held is not known,
        /// the first page loads, as at the start.
        case restart
        /// Load again every page held, each with its own size, so the list
        /// keeps its length (TanStack Query's infinite queries do this): the
        /// held page nearest the list's first page is asked for with its own
        /// request, and the others with the fresh keys, in the directions the
        /// list was paged in. A list paged forward is refetched forward from
        /// its first held page; one paged backward only (a chat) backward
        /// from its last; one opened in the middle both ways.
        case refetchLoadedPages
        /// Load the first page and splice it in place of what it covers:
        /// items new at the top inserted, changed ones updated, removed ones
        /// removed, and the pages below it kept with no request (a feed or a
        /// list whose new items come at the top). A first page that reaches
        /// none of the items held is followed by the next, up to
        /// `maximumPages` pages; past them the list restarts with the pages
        /// loaded. See ``Pager/refreshHead(maximumPages:)``.
        case reattachHead(maximumPages: Int)
    }

    /// The number of items asked for by each load after the first.
    public let pageSize: Int
    /// The number of items asked for by the first load and by a restart.
    public let initialLoadSize: Int
    /// How close to an end, in items, a reported appearance must be to load
    /// the next page at that end. 0 loads when the last item appears.
    public let prefetchDistance: Int
    /// The most the pager holds; `nil` for no limit.
    public let maximumHeld: HeldLimit?
    /// What a refresh loads.
    public let refreshPolicy: RefreshPolicy
    /// Whether the list presents the whole list its source counts: a slot
    /// (a placeholder) for each item not loaded, around the items held, as
    /// far as the pages' ``Page/itemsBefore`` and ``Page/itemsAfter`` say
    /// (``PagingSnapshot/presented``). With placeholders, the indexes a
    /// pager takes (``Pager/itemAppeared(at:)``) and the changes it reports
    /// for the screen (``PagingSnapshot/presentedChange``) are positions in
    /// that whole list.
    public let placeholders: Bool
    /// How far from the items held, in items, a placeholder shown makes the
    /// pager jump to it (load the page around it, ``Pager/jump(to:)``)
    /// rather than load the pages between; `nil` never jumps on its own.
    public let jumpThreshold: Int?

    /// A configuration with pages of 20 items, a prefetch distance of 20, no
    /// limit on what is held, refreshes that restart, and no placeholders.
    public static let `default` = PagingConfiguration(
        checkedPageSize: 20, initialLoadSize: 20, prefetchDistance: 20, maximumHeld: nil,
        refreshPolicy: .restart, placeholders: false, jumpThreshold: nil)

    /// How many items a jump asks for: enough that the item jumped to sits
    /// in the middle of its page, farther than the prefetch distance from
    /// both of its ends, so that a jump is one request (two near an end of
    /// the list): the larger of ``initialLoadSize`` and
    /// `pageSize + 2 × prefetchDistance + 2`. Within a limit of items held
    /// (``HeldLimit/items(_:)``), no more than that limit less a page (and no
    /// less than a page), so that the page after it fits beside it; a page
    /// that small may set off a prefetch at each end.
    /// - Complexity: O(1).
    public var jumpLoadSize: Int {
        let size = max(
            initialLoadSize,
            Self.saturatingSum(pageSize, Self.saturatingSum(Self.saturatingProduct(2, prefetchDistance), 2)))
        guard case .items(let limit) = maximumHeld else { return size }
        return min(size, max(pageSize, limit - pageSize))
    }

    /// Creates a configuration, checking every value.
    /// - Parameters:
    ///   - pageSize: items per load after the first; at least 1.
    ///   - initialLoadSize: items of the first load; at least 1; `pageSize`
    ///     when `nil`.
    ///   - prefetchDistance: how close to an end an appearing item triggers a
    ///     load; at least 0; `pageSize` when `nil`.
    ///   - maximumHeld: the most held, or `nil` for no limit. It must hold the
    ///     page in view and a prefetch distance on both sides: at least
    ///     `pageSize + 2 × prefetchDistance` items, and at least 2 pages.
    ///   - refreshPolicy: what a refresh loads.
    ///   - placeholders: whether to present the whole list the source
    ///     counts, with placeholders for what is not loaded.
    ///   - jumpThreshold: how far from the items held a placeholder shown
    ///     makes the pager jump to it; `nil` never jumps on its own. It needs
    ///     `placeholders`, and must be more than `prefetchDistance`.
    /// - Throws: ``PagingError`` with code ``PagingError/Code/invalidConfiguration``
    ///   naming the value and the rule it breaks.
    public init(
        pageSize: Int = 20,
        initialLoadSize: Int? = nil,
        prefetchDistance: Int? = nil,
        maximumHeld: HeldLimit? = nil,
        refreshPolicy: RefreshPolicy = .restart,
        placeholders: Bool = false,
        jumpThreshold: Int? = nil
    ) throws(PagingError) {
        guard pageSize >= 1 else {
            throw .invalidConfiguration("pageSize is \(pageSize), but a page must hold at least 1 item")
        }
        let initialLoadSize = initialLoadSize ?? pageSize
        guard initialLoadSize >= 1 else {
            throw .invalidConfiguration(
                "initialLoadSize is \(initialLoadSize), but the first load must ask for at least 1 item")
        }
        let prefetchDistance = prefetchDistance ?? pageSize
        guard prefetchDistance >= 0 else {
            throw .invalidConfiguration(
                "prefetchDistance is \(prefetchDistance), but it counts items from an end and cannot be negative"
            )
        }
        // Saturating: values near Int.max must give an answer, not a trap.
        let window = Self.saturatingSum(pageSize, Self.saturatingProduct(2, prefetchDistance))
        switch maximumHeld {
        case .pages(let pages):
            guard pages >= 2 else {
                throw .invalidConfiguration(
                    "maximumHeld is \(pages) page(s), but at least 2 are needed: the page in view and the one loading"
                )
            }
            let held = Self.saturatingProduct(pages, pageSize)
            guard held >= window else {
                let pagesNeeded = window / pageSize + (window % pageSize == 0 ? 0 : 1)
                throw .invalidConfiguration(
                    "maximumHeld is \(pages) pages of \(pageSize) items (\(held) items), too few to hold "
                        + "a page and the prefetch distance of \(prefetchDistance) on both sides (\(window) items); "
                        + "hold at least \(pagesNeeded) pages or lower prefetchDistance"
                )
            }
        case .items(let items):
            guard items >= window else {
                throw .invalidConfiguration(
                    "maximumHeld is \(items) items, too few to hold a page of \(pageSize) and the prefetch "
                        + "distance of \(prefetchDistance) on both sides; hold at least \(window) items")
            }
        case nil:
            break
        }
        if case .reattachHead(let maximumPages) = refreshPolicy, maximumPages < 1 {
            throw .invalidConfiguration(
                "refreshPolicy reattaches the head within \(maximumPages) page(s), but a head refresh loads at least 1"
            )
        }
        if let jumpThreshold {
            guard placeholders else {
                throw .invalidConfiguration(
                    "jumpThreshold is \(jumpThreshold), but jumps are to placeholders: set placeholders: true"
                )
            }
            guard jumpThreshold > prefetchDistance else {
                throw .invalidConfiguration(
                    "jumpThreshold is \(jumpThreshold), but it must be more than prefetchDistance "
                        + "(\(prefetchDistance)): a placeholder within the prefetch distance loads the next page"
                )
            }
        }
        self.init(
            checkedPageSize: pageSize, initialLoadSize: initialLoadSize, prefetchDistance: prefetchDistance,
            maximumHeld: maximumHeld, refreshPolicy: refreshPolicy, placeholders: placeholders,
            jumpThreshold: jumpThreshold)
    }

    private static func saturatingSum(_ a: Int, _ b: Int) -> Int {
        let (sum, overflow) = a.addingReportingOverflow(b)
        return overflow ? .max : sum
    }

    private static func saturatingProduct(_ a: Int, _ b: Int) -> Int {
        let (product, overflow) = a.multipliedReportingOverflow(by: b)
        return overflow ? .max : product
    }

    private init(
        checkedPageSize pageSize: Int, initialLoadSize: Int, prefetchDistance: Int, maximumHeld: HeldLimit?,
        refreshPolicy: RefreshPolicy, placeholders: Bool, jumpThreshold: Int?
    ) {
        self.pageSize = pageSize
        self.initialLoadSize = initialLoadSize
        self.prefetchDistance = prefetchDistance
        self.maximumHeld = maximumHeld
        self.refreshPolicy = refreshPolicy
        self.placeholders = placeholders
        self.jumpThreshold = jumpThreshold
    }

    /// The prefetch distance that keeps a reader who consumes items at a
    /// steady rate from ever waiting for a page: the items read while one page
    /// loads, doubled for safety, and at least one.
    ///
    /// ```swift
    /// // One item a millisecond, pages that take 20 ms: prefetch 40 items ahead.
    /// let distance = PagingConfiguration.suggestedPrefetchDistance(
    ///     itemsPerSecond: 1000, pageLatency: .milliseconds(20))
    /// ```
    /// - Parameters:
    ///   - itemsPerSecond: how fast the reader consumes items.
    ///   - pageLatency: how long a page takes to load.
    /// - Returns: a distance in items.
    public static func suggestedPrefetchDistance(itemsPerSecond: Double, pageLatency: Duration) -> Int {
        let seconds =
            Double(pageLatency.components.seconds) + Double(pageLatency.components.attoseconds) * 1e-18
        let itemsDuringLoad = (itemsPerSecond * seconds).rounded(.up)
        guard itemsDuringLoad.isFinite, itemsDuringLoad > 0 else { return 1 }
        return Int(min(itemsDuringLoad * 2, Double(Int.max / 4)))
    }
}
