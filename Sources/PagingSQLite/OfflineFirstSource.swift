public import Foundation
public import Paging
import PagingGraphQLCore
import PagingLock

/// A place in a list kept in a ``LocalListFile``: the key of an
/// ``OfflineFirstSource``'s pages.
///
/// It is the stored position of the item a page continues from (after it,
/// or before it), not an index: items inserted or removed elsewhere in the
/// list, locally, do not move it. A key also names the version of the list
/// it was read from (when that list was last replaced by a refresh), so
/// that positions a refresh in another process used again are new keys.
public struct LocalPosition: Hashable, Sendable, CustomStringConvertible {
    /// The stored position.
    public let position: Int64
    /// When the list the position is in was last replaced (seconds since
    /// 1970); 0 when not known.
    let listRefreshedAt: Double

    /// Creates a place.
    /// - Parameter position: the stored position.
    public init(_ position: Int64) {
        self.init(position, in: 0)
    }

    /// A place in the version of a list replaced at a time.
    init(_ position: Int64, in listRefreshedAt: Double) {
        self.position = position
        self.listRefreshedAt = listRefreshedAt
    }

    /// `@position`.
    public var description: String { "@\(position)" }
}

/// Any page source paired with a list kept on disk, so that a list opens
/// from the file, offline too, and pages on from the network where the
/// file ends (the idea of Android Paging's `RemoteMediator`).
///
/// The pager reads pages from the file first. At the end of what the file
/// holds, the source asks its remote source for the next page, from the key
/// the file kept, writes the page and that page's next key in one
/// transaction, and returns it. A refresh (every `.initial` load after the
/// first, as `refresh()` sends) asks the remote source for its first page
/// and replaces the list in one transaction; until the remote source
/// answers, the file is left as it is.
///
/// Opening (the first `.initial` load) shows the stored list without a
/// request when the file holds it and it is not older than `staleAfter`;
/// otherwise it refreshes, and when that fails (the network is down) it
/// shows the stored list, if there is one, and ``isOffline`` says so.
///
/// ```swift
/// let source = OfflineFirstSource(
///     remote: RelayCursorSource(...), file: try LocalListFile(path: path), list: "launches",
///     staleAfter: .seconds(3600))
/// let list = PagedList(source: source)
/// ```
///
/// It is a page source like any other: every guarantee of the pager holds
/// over it (joined loads, no stale page after a refresh, retries). A window
/// (`maximumHeld`) that dropped stored pages reads them again from the
/// file, in both directions, with no request: the pager marks such reloads
/// (`PageRequest.isReload`), so a reload of the first page is not taken for
/// a refresh. Items are stored as JSON through `Codable`, the remote keys
/// too, and an `Identifiable` item's id beside it.
///
/// Local edits are written through with ``update(_:)``,
/// ``insert(_:at:)`` and ``remove(id:)`` (for `Identifiable` items with a
/// `Codable` id), beside the same edit on the list:
///
/// ```swift
/// list.update(booked)                // the screen, at once
/// try await source.update(booked)    // the file: the next run shows it too
/// ```
///
/// Over a store-backed remote source of PagingGraphQL (a `ConnectionSource`
/// whose client has a store), the rows of the pages the source loads from
/// the network follow the store as they would without the file: a
/// mutation's answer updates them, with no request. It asks its remote
/// source with `PageRequest.forwarded(to:count:)`, which keeps what the
/// pager lends the load. The rows of pages read from the file do not follow
/// until a refresh loads them from the network; an update is not written
/// to the file (write it with ``update(_:)``).
///
/// Pages are keyed by a stored position (``LocalPosition``), not an index,
/// so an edit does not move the pages a pager holds keys to.
///
/// Two processes may share one list in one file (an app and its widget or
/// extension in one app group), each with its own source: the file's
/// transactions keep it whole, and each source reads after where its last
/// item is now. A page the other stored is read from the file, with no
/// request (when both asked the server for the same page at once, it is
/// stored once); the other's local edits show in the pages read after
/// them; after the other refreshed the list, paging goes on after the same
/// item in the new list. When the new list lacks that item, paging goes on
/// from the network after it, in memory, if it was the file's last item
/// (the file keeps the other's list); otherwise from the new list's start,
/// the pager dropping the items it shows already. So no item is repeated
/// or skipped. The pages a pager holds do not change when the other
/// process writes: its next refresh shows the file as it is.
///
/// When the file cannot take a page (a full or read-only disk), the page is
/// shown all the same and the list goes on in memory, from the remote
/// source, without the file; ``lastWriteError`` says why. The file keeps
/// what it held, and the next refresh that can write it replaces the list
/// there again. (Pages past the file's end that a window drops in that
/// state cannot be read again until then.)
public struct OfflineFirstSource<Remote: PageSource>: PageSource
where Remote.Item: Codable, Remote.Key: Codable {
    /// A position in the stored list.
    public typealias Key = LocalPosition
    /// The remote source's items.
    public typealias Item = Remote.Item

    /// The source the pages come from when the file does not hold them.
    public let remote: Remote
    /// The file that keeps the list.
    public let file: LocalListFile
    /// The list's key in the file.
    public let list: String
    /// How old a stored list may be and still open without a refresh;
    /// `nil`: any age.
    public let staleAfter: Duration?
    private let now: @Sendable () -> Date
    private let status = Lock(Status())

    private struct Status {
        var opened = false
        var offline = false
        /// Whether the list's first page is the file's (read from it, or
        /// written to it by the last refresh).
        var firstPageStored = false
        /// Set when a page could not be written (a full or read-only disk):
        /// the list goes on in memory from here, paging from the remote key
        /// after `end`, and the file is left alone until a refresh writes
        /// the list anew.
        var unsaved: (end: Int64, nextKey: Remote.Key?)?
        /// The failure that set `unsaved`.
        var writeError: SQLiteFileError?
        /// The last item of each page handed out with a next key, by that
        /// key: its stored id, and the remote key after it when it was the
        /// file's last item. A next page is read after where that item is
        /// now, so that another process's appends, edits and refreshes of
        /// the same list never repeat or skip one. (One entry a page.)
        var handedOut: [LocalPosition: HandedOut] = [:]
    }

    private struct HandedOut {
        let id: String
        let remoteNext: Data?
    }

    /// Where the list goes on after a key.
    private enum Continuation {
        /// In the file, after a position (from the start when `nil`).
        case file(after: Int64?)
        /// From the remote source, after a key (encoded), in memory.
        case remote(Data)
    }

    /// Creates a source.
    /// - Parameters:
    ///   - remote: where pages come from when the file does not hold them.
    ///   - file: the file that keeps the list.
    ///   - list: the list's key in the file; one list per key.
    ///   - staleAfter: how old a stored list may be and still open without
    ///     a refresh; `nil` (the default): any age.
    ///   - now: the current time (a test's clock).
    public init(
        remote: Remote, file: LocalListFile, list: String, staleAfter: Duration? = nil,
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.remote = remote
        self.file = file
        self.list = list
        self.staleAfter = staleAfter
        self.now = now
    }

    /// Whether the last time the source asked its remote source, the request
    /// failed and the stored list was shown instead.
    public var isOffline: Bool { status.withLock { $0.offline } }

    /// Why the last page could not be written to the file, while the list
    /// goes on in memory without it; `nil` once a refresh wrote the list
    /// again.
    public var lastWriteError: SQLiteFileError? { status.withLock { $0.writeError } }

    /// When the stored list was last replaced from the remote source, or
    /// `nil` when the file holds no such list.
    public func lastRefreshed() throws(SQLiteFileError) -> Date? {
        try file.lastRefreshed(list: list)
    }

    /// Loads a page: from the file where it holds the list, from the remote
    /// source past its end and on refresh.
    /// - Complexity: O(log *n* + *k*) for a page of *k* items read from the
    ///   file, plus the remote source's load and a write of *k* rows past
    ///   the file's end.
    public func load(_ request: PageRequest<LocalPosition>) async throws -> Page<LocalPosition, Item> {
        switch request.position {
        case .initial:
            let opening = status.withLock { status in
                defer { status.opened = true }
                return !status.opened
            }
            // Opening with a fresh stored list, or the pager reloading the first page its window
            // dropped (not a refresh) while the file holds it: from the file.
            let reloadsStored = request.isReload && status.withLock { $0.firstPageStored }
            if opening || reloadsStored, let head = try await file.head(list), reloadsStored || !isStale(head)
            {
                status.withLock { $0.firstPageStored = true }
                return try await storedPage(after: nil, count: request.count, head: head)
            }
            let page: Page<Remote.Key, Item>
            do {
                page = try await remote.load(request.forwarded(to: .initial(nil)))
            } catch {
                guard opening, let head = try await file.head(list) else { throw error }
                status.withLock { status in
                    status.offline = true
                    status.firstPageStored = true
                }
                return try await storedPage(after: nil, count: request.count, head: head)
            }
            status.withLock { $0.offline = false }
            do {
                let head = try await file.replace(
                    list, with: try Self.encode(page.items), nextKey: try page.nextKey.map(Self.encode),
                    at: now())
                let nextKey = Self.nextKey(after: head.last, head: head)
                status.withLock { status in
                    status.unsaved = nil
                    status.writeError = nil
                    status.firstPageStored = true
                    status.handedOut = [:]
                    if let nextKey, let id = page.items.last.flatMap({ try? Self.storedID(of: $0) }) {
                        status.handedOut[nextKey] = HandedOut(id: id, remoteNext: head.nextKey)
                    }
                }
                return Page(items: page.items, nextKey: nextKey)
            } catch let error as SQLiteFileError {
                status.withLock { $0.firstPageStored = false }
                return inMemory(page, after: nil, writeError: error)
            }
        case .next(let key):
            return try await next(after: key, for: request)
        case .previous(let key):
            // Before a stored item: what the file holds before it (for a window that dropped it).
            guard let head = try await file.head(list), let first = head.first, key.position > first else {
                return Page(items: [])
            }
            let rows = try await file.items(
                list, after: nil, before: key.position, count: max(request.count, 1))
            let items: [Item] = try rows.map { try Self.decode($0.item, list: list, path: file.path) }
            let start = rows.first?.position ?? first
            return Page(
                items: items, previousKey: start > first ? LocalPosition(start, in: head.refreshedAt) : nil)
        }
    }

    /// How many times a load past the file's end reads the list again when
    /// another process changed it between the read and the write.
    private static var appendAttempts: Int { 4 }

    /// The page after a key: what the file holds after the item the key
    /// follows, or past the file's end a page from the remote source,
    /// written to the file.
    ///
    /// Another process (an app's widget or extension) may page, edit or
    /// refresh the same list in the same file at the same time. What this
    /// source hands out is read after where its last item is *now*:
    /// - another process appended pages: they are read from the file, with
    ///   no request;
    /// - it edited the list: the pages read later show the edits;
    /// - it refreshed the list: the list goes on after the same item in the
    ///   new list (the items above it that the refresh brought show on this
    ///   pager's next refresh); when the new list lacks that item, the list
    ///   goes on from the remote source after it, in memory, if it was the
    ///   file's last item, and else is read again from the new list's start,
    ///   the pager dropping the items it shows already.
    /// A page this source fetched is written only if the list's end is still
    /// the one it was asked after; otherwise the list is read again.
    private func next(after key: LocalPosition, for request: PageRequest<LocalPosition>) async throws
        -> Page<LocalPosition, Item>
    {
        let count = request.count
        if let unsaved = status.withLock({ $0.unsaved }), key.position == unsaved.end {
            // The file could not take a page: past what it holds the list goes on in memory.
            guard let remoteKey = unsaved.nextKey else { return Page(items: []) }
            let page = try await remoteNext(after: remoteKey, for: request)
            return inMemory(page, after: key.position, writeError: nil)
        }
        var fetched: (key: Data, page: Page<Remote.Key, Item>)?
        for _ in 0..<Self.appendAttempts {
            guard let head = try await file.head(list) else { return Page(items: []) }
            let after: Int64?
            switch try await continuation(after: key, head: head) {
            case .file(let position): after = position
            case .remote(let stored):
                // Another process replaced the list with one without the last item shown: this
                // list goes on from the network where it was, in memory (the file holds the other's list).
                let remoteKey: Remote.Key = try Self.decode(stored, list: list, path: file.path)
                let page = try await remoteNext(after: remoteKey, for: request)
                return inMemory(page, after: key.position, writeError: nil)
            }
            if let last = head.last, after.map({ $0 < last }) ?? true {
                return try await storedPage(after: after, count: count, head: head)
            }
            // At the file's end (its last item, or past it when that item was removed locally);
            // when the file could not take a page, past it is in memory only.
            guard status.withLock({ $0.unsaved == nil }), let stored = head.nextKey else {
                return Page(items: [])
            }
            let page: Page<Remote.Key, Item>
            if let previous = fetched, previous.key == stored {
                page = previous.page
            } else {
                let remoteKey: Remote.Key = try Self.decode(stored, list: list, path: file.path)
                page = try await remoteNext(after: remoteKey, for: request)
                fetched = (stored, page)
            }
            let nextKey = try page.nextKey.map(Self.encode)
            let items = try Self.encode(page.items)
            let appended: LocalListFile.Appended?
            do {
                appended = try await file.append(items, to: list, after: head, nextKey: nextKey)
            } catch {
                return inMemory(page, after: head.last ?? key.position, writeError: error)
            }
            // Nothing written: the list changed since it was read. Read it again.
            guard let appended else { continue }
            guard nextKey != nil, let last = appended.last ?? after else { return Page(items: page.items) }
            let key = LocalPosition(last, in: head.refreshedAt)
            if let id = items.last?.id {
                status.withLock { $0.handedOut[key] = HandedOut(id: id, remoteNext: nextKey) }
            }
            return Page(items: page.items, nextKey: key)
        }
        throw SQLiteFileError(
            .locked, path: file.path,
            "The list \"\(list)\" in \(file.path) changed in another process each of \(Self.appendAttempts) times "
                + "this one read it to write a page after it. Retry the load.")
    }

    /// Where the list goes on after a key: in the file after the item
    /// handed out there, wherever it is now, or after the key's position
    /// when that item was removed locally or is not known. When another
    /// process replaced the list with one without it: from the remote key
    /// after it, when it was the file's last item; else from the new list's
    /// start.
    private func continuation(after key: LocalPosition, head: LocalListFile.Head) async throws -> Continuation
    {
        guard let seen = status.withLock({ $0.handedOut[key] }) else { return .file(after: key.position) }
        if let place = try await file.place(of: seen.id, seenAt: key.position, in: list) {
            return .file(after: place)
        }
        if head.refreshedAt == key.listRefreshedAt { return .file(after: key.position) }
        return seen.remoteNext.map(Continuation.remote) ?? .file(after: nil)
    }

    /// Asks the remote source for the page after `key`, noting whether it answered.
    private func remoteNext(after key: Remote.Key, for request: PageRequest<LocalPosition>) async throws
        -> Page<Remote.Key, Item>
    {
        do {
            // The same load of the same pager: a store-backed remote follows its store for it.
            let page = try await remote.load(request.forwarded(to: .next(after: key)))
            status.withLock { $0.offline = false }
            return page
        } catch {
            status.withLock { $0.offline = true }
            throw error
        }
    }

    /// A remote page shown without the file: the list goes on in memory from
    /// after it, at positions past the file's (one apart).
    private func inMemory(
        _ page: Page<Remote.Key, Item>, after position: Int64?, writeError: SQLiteFileError?
    )
        -> Page<LocalPosition, Item>
    {
        let end = (position ?? -1) + Int64(page.items.count)
        status.withLock { status in
            status.unsaved = (end, page.nextKey)
            if let writeError { status.writeError = writeError }
        }
        return Page(items: page.items, nextKey: page.nextKey == nil ? nil : LocalPosition(end))
    }

    private func isStale(_ head: LocalListFile.Head) -> Bool {
        guard let staleAfter else { return false }
        let age = now().timeIntervalSince1970 - head.refreshedAt
        let limit = Double(staleAfter.components.seconds) + Double(staleAfter.components.attoseconds) / 1e18
        return age > limit
    }

    /// A page of what the file holds, after position `after` (from the
    /// start when `nil`).
    private func storedPage(after: Int64?, count: Int, head: LocalListFile.Head) async throws
        -> Page<LocalPosition, Item>
    {
        let rows = try await file.items(list, after: after, count: max(count, 1))
        let items: [Item] = try rows.map { try Self.decode($0.item, list: list, path: file.path) }
        let start = rows.first?.position
        let nextKey = Self.nextKey(after: rows.last?.position ?? after, head: head)
        if let nextKey, let last = rows.last, let id = last.id {
            let atEnd = last.position == head.last
            status.withLock {
                $0.handedOut[nextKey] = HandedOut(id: id, remoteNext: atEnd ? head.nextKey : nil)
            }
        }
        return Page(
            items: items,
            previousKey: after != nil && start.map { $0 > (head.first ?? $0) } == true
                ? start.map { LocalPosition($0, in: head.refreshedAt) }
                : nil,
            nextKey: nextKey)
    }

    /// The key of the page after position `end`: more stored items, or a
    /// remote page to ask for.
    private static func nextKey(after end: Int64?, head: LocalListFile.Head) -> LocalPosition? {
        guard let end else { return nil }
        let more = head.last.map { end < $0 } == true || head.nextKey != nil
        return more ? LocalPosition(end, in: head.refreshedAt) : nil
    }

    private static func encode<T: Encodable>(_ value: T) throws -> Data {
        try JSONEncoder().encode(value)
    }

    private static func encode(_ items: [Item]) throws -> [LocalListFile.NewItem] {
        let encoder = JSONEncoder()
        return try items.map { LocalListFile.NewItem(id: try storedID(of: $0), item: try encoder.encode($0)) }
    }

    /// An item's id as the file keeps it, for local edits to find it by:
    /// the JSON of an `Identifiable` item's `Codable` id, and the whole
    /// item's JSON otherwise.
    static func storedID(of item: Item) throws -> String {
        if let identifiable = item as? any Identifiable, let id = encodedID(of: identifiable) { return id }
        return String(decoding: try JSONEncoder().encode(item), as: UTF8.self)
    }

    private static func encodedID<T: Identifiable>(of item: T) -> String? {
        guard let id = item.id as? any Encodable, let data = try? JSONEncoder().encode(id) else { return nil }
        return String(decoding: data, as: UTF8.self)
    }

    private static func decode<T: Decodable>(_ data: Data, list: String, path: String) throws(SQLiteFileError)
        -> T
    {
        do {
            return try JSONDecoder().decodeChecked(T.self, from: data)
        } catch {
            throw SQLiteFileError(
                .corrupt, path: path,
                "The list \"\(list)\" in \(path) holds a row that does not decode as \(T.self) (\(error)): it was "
                    + "written by another version of the app or of the item type. Refresh the list, or remove it "
                    + "with removeList(_:).")
        }
    }
}

// MARK: Local edits

extension OfflineFirstSource where Item: Identifiable, Item.ID: Codable {
    /// Writes a local edit through to the file: the stored item with the
    /// same id is replaced, so that the next run shows the edit too.
    ///
    /// Apply the edit to the list as well; the list shows it at once, the
    /// file follows:
    ///
    /// ```swift
    /// list.update(launch)
    /// try await source.update(launch)
    /// ```
    /// - Parameter item: the new value.
    /// - Returns: whether the file held an item with that id.
    /// - Throws: ``SQLiteFileError`` when the file cannot take it (the list
    ///   in memory keeps the edit).
    /// - Complexity: O(log *n*) for a list of *n* items.
    @discardableResult
    public func update(_ item: Item) async throws(SQLiteFileError) -> Bool {
        let (id, data) = try encodeEdit(item)
        return try await file.update(list, id: id, with: data, legacyID: legacyID)
    }

    /// Writes a local insert through to the file, at the same place as in
    /// the list: first, last (after the last item the file holds), or next
    /// to a stored item.
    /// - Parameters:
    ///   - item: the item; nothing is written if the file holds its id.
    ///   - position: where it goes.
    /// - Returns: whether it was written (not when the file holds no list
    ///   yet, holds the id, or does not hold the id it goes next to).
    /// - Throws: ``SQLiteFileError`` when the file cannot take it.
    /// - Complexity: O(log *n*); O(*n*) when 32 inserts at one place used up
    ///   the room there and the list's positions are spread again (a pager
    ///   then open on the list may show an item twice or skip one: refresh
    ///   it).
    @discardableResult
    public func insert(_ item: Item, at position: InsertPosition<Item.ID>) async throws(SQLiteFileError)
        -> Bool
    {
        let (id, data) = try encodeEdit(item)
        let place: InsertPosition<String>
        switch position {
        case .first: place = .first
        case .last: place = .last
        case .before(let other): place = .before(try encodeID(other))
        case .after(let other): place = .after(try encodeID(other))
        }
        return try await file.insert(.init(id: id, item: data), into: list, at: place, legacyID: legacyID)
    }

    /// Writes a local removal through to the file.
    /// - Parameter id: the item's id.
    /// - Returns: whether the file held it.
    /// - Throws: ``SQLiteFileError`` when the file cannot take it.
    /// - Complexity: O(log *n*).
    @discardableResult
    public func remove(id: Item.ID) async throws(SQLiteFileError) -> Bool {
        try await file.remove(list, id: try encodeID(id), legacyID: legacyID)
    }

    /// The id of a row written without one (by layout 3), from its item.
    private var legacyID: @Sendable (Data) -> String? {
        { data in
            guard let item = try? JSONDecoder().decodeChecked(Item.self, from: data) else { return nil }
            return try? Self.storedID(of: item)
        }
    }

    private func encodeID(_ id: Item.ID) throws(SQLiteFileError) -> String {
        do {
            return String(decoding: try JSONEncoder().encode(id), as: UTF8.self)
        } catch {
            throw SQLiteFileError(
                .write, path: file.path, "The id \(id) cannot be encoded for \(file.path): \(error).")
        }
    }

    private func encodeEdit(_ item: Item) throws(SQLiteFileError) -> (String, Data) {
        do {
            return (try encodeID(item.id), try JSONEncoder().encode(item))
        } catch let error as SQLiteFileError {
            throw error
        } catch {
            throw SQLiteFileError(
                .write, path: file.path, "The item \(item.id) cannot be encoded for \(file.path): \(error).")
        }
    }
}
