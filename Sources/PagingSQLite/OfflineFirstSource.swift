public import Foundation
public import Paging
import PagingLock

/// A position in a list kept in a ``LocalListFile``: the key of an
/// ``OfflineFirstSource``'s pages.
public struct LocalPosition: Hashable, Sendable, CustomStringConvertible {
    /// The number of items before the position.
    public let offset: Int

    /// Creates a position.
    /// - Parameter offset: the number of items before it.
    public init(_ offset: Int) {
        self.offset = offset
    }

    /// `@offset`.
    public var description: String { "@\(offset)" }
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
/// over it (joined loads, no stale page after a refresh, retries, windows).
/// Items are stored as JSON through `Codable`, the remote keys too.
///
/// When the file cannot take a page (a full or read-only disk), the page is
/// shown all the same and the list goes on in memory, from the remote
/// source, without the file; ``lastWriteError`` says why. The file keeps
/// what it held, and the next refresh that can write it replaces the list
/// there again.
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
        /// Set when a page could not be written (a full or read-only disk):
        /// the list goes on in memory from here, paging from the remote key
        /// after `end`, and the file is left alone until a refresh writes
        /// the list anew.
        var unsaved: (end: Int, nextKey: Remote.Key?)?
        /// The failure that set `unsaved`.
        var writeError: SQLiteFileError?
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
            if opening, let head = try await file.head(list), !isStale(head) {
                return try await storedPage(from: 0, count: request.count, head: head)
            }
            let page: Page<Remote.Key, Item>
            do {
                page = try await remote.load(PageRequest(.initial(nil), count: request.count))
            } catch {
                guard opening, let head = try await file.head(list) else { throw error }
                status.withLock { $0.offline = true }
                return try await storedPage(from: 0, count: request.count, head: head)
            }
            status.withLock { $0.offline = false }
            do {
                let head = try await file.replace(
                    list, with: try Self.encode(page.items), nextKey: try page.nextKey.map(Self.encode),
                    at: now())
                status.withLock { status in
                    status.unsaved = nil
                    status.writeError = nil
                }
                return Page(items: page.items, nextKey: Self.nextPosition(after: head.count, head: head))
            } catch let error as SQLiteFileError {
                return inMemory(page, from: 0, writeError: error)
            }
        case .next(let position):
            if let unsaved = status.withLock({ $0.unsaved }) {
                // The file could not take a page: what it holds still serves, and past that the
                // list goes on in memory. (Pages a window dropped between the file's end and the
                // memory's cannot be read again until a refresh.)
                if let head = try await file.head(list), position.offset < head.count {
                    return try await storedPage(from: position.offset, count: request.count, head: head)
                }
                guard position.offset == unsaved.end, let key = unsaved.nextKey else {
                    return Page(items: [])
                }
                let page = try await remoteNext(after: key, count: request.count)
                return inMemory(page, from: position.offset, writeError: nil)
            }
            guard let head = try await file.head(list) else { return Page(items: []) }
            if position.offset < head.count {
                return try await storedPage(from: position.offset, count: request.count, head: head)
            }
            guard let stored = head.nextKey else { return Page(items: []) }
            let key: Remote.Key = try Self.decode(stored, list: list, path: file.path)
            let page = try await remoteNext(after: key, count: request.count)
            let nextKey = try page.nextKey.map(Self.encode)
            do {
                _ = try await file.append(
                    try Self.encode(page.items), to: list, after: head, nextKey: nextKey)
            } catch let error as SQLiteFileError {
                return inMemory(page, from: head.count, writeError: error)
            }
            let end = head.count + page.items.count
            return Page(items: page.items, nextKey: nextKey == nil ? nil : LocalPosition(end))
        case .previous:
            // The stored list grows forward only: nothing comes before its start.
            return Page(items: [])
        }
    }

    /// Asks the remote source for the page after `key`, noting whether it answered.
    private func remoteNext(after key: Remote.Key, count: Int) async throws -> Page<Remote.Key, Item> {
        do {
            let page = try await remote.load(PageRequest(.next(after: key), count: count))
            status.withLock { $0.offline = false }
            return page
        } catch {
            status.withLock { $0.offline = true }
            throw error
        }
    }

    /// A remote page shown without the file: the list goes on in memory from
    /// after it.
    private func inMemory(_ page: Page<Remote.Key, Item>, from offset: Int, writeError: SQLiteFileError?)
        -> Page<LocalPosition, Item>
    {
        let end = offset + page.items.count
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

    /// A page of what the file holds, from `offset`.
    private func storedPage(from offset: Int, count: Int, head: LocalListFile.Head) async throws
        -> Page<LocalPosition, Item>
    {
        let end = min(offset + max(count, 1), head.count)
        let rows = offset < end ? try await file.items(list, in: offset..<end) : []
        let items: [Item] = try rows.map { try Self.decode($0, list: list, path: file.path) }
        return Page(items: items, nextKey: Self.nextPosition(after: offset + items.count, head: head))
    }

    /// The key of the page after `end`: more stored items, or a remote page
    /// to ask for.
    private static func nextPosition(after end: Int, head: LocalListFile.Head) -> LocalPosition? {
        end < head.count || head.nextKey != nil ? LocalPosition(end) : nil
    }

    private static func encode<T: Encodable>(_ value: T) throws -> Data {
        try JSONEncoder().encode(value)
    }

    private static func encode(_ items: [Item]) throws -> [Data] {
        let encoder = JSONEncoder()
        return try items.map { try encoder.encode($0) }
    }

    private static func decode<T: Decodable>(_ data: Data, list: String, path: String) throws(SQLiteFileError)
        -> T
    {
        do {
            return try JSONDecoder().decode(T.self, from: data)
        } catch {
            throw SQLiteFileError(
                .corrupt, path: path,
                "The list \"\(list)\" in \(path) holds a row that does not decode as \(T.self) (\(error)): it was "
                    + "written by another version of the app or of the item type. Refresh the list, or remove it "
                    + "with removeList(_:).")
        }
    }
}
