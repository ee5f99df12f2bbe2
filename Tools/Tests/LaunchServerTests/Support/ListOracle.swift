import Testing

@testable import LaunchServer

/// The filtered and sorted lists of `launchConnection`, computed in the test from the whole
/// newest-first list, without the code under test: Swift's filters and sort over what the
/// unfiltered list returned.
enum ListOracle {
    /// The launches that pass every filter given, in the order of `launches`.
    static func filter(
        _ launches: [LaunchBody], search: String? = nil, booked: Bool? = nil, site: String? = nil
    ) -> [LaunchBody] {
        launches.filter { launch in
            if let search, !search.isEmpty,
                !(launch.mission?.name ?? "").lowercased().contains(search.lowercased())
            {
                return false
            }
            if let booked, launch.isBooked != booked { return false }
            if let site, launch.site != site { return false }
            return true
        }
    }

    /// The launches by mission name, comparing UTF-8 bytes, then by id as a number.
    static func byMissionName(_ launches: [LaunchBody]) -> [LaunchBody] {
        launches.sorted { lhs, rhs in
            let left = Array((lhs.mission?.name ?? "").utf8)
            let right = Array((rhs.mission?.name ?? "").utf8)
            if left != right { return left.lexicographicallyPrecedes(right) }
            return (Int(lhs.id) ?? 0) < (Int(rhs.id) ?? 0)
        }
    }
}

extension LaunchServer {
    /// Every launch of the whole newest-first list, read page by page with no filter and no order.
    func everyLaunch() async throws -> [LaunchBody] {
        var launches: [LaunchBody] = []
        var after: String?
        repeat {
            let page = try await launchConnection("first: 100" + (after.map { #", after: "\#($0)""# } ?? ""))
            launches += page.edges.map(\.node)
            after = page.pageInfo.hasNextPage ? page.pageInfo.endCursor : nil
        } while after != nil
        return launches
    }

    /// The ids of a list paged forward to its end with `first: size`; every page's `totalCount`
    /// must be `total`, and its `hasPreviousPage` tell whether launches precede its `after`.
    func idsForward(_ arguments: String, size: Int, total: Int) async throws -> [String] {
        var ids: [String] = []
        var after: String?
        repeat {
            let page = try await launchConnection(
                "\(arguments), first: \(size)" + (after.map { #", after: "\#($0)""# } ?? ""))
            #expect(page.totalCount == total, "\(arguments)")
            // The spec's "elements exist prior to `after`": those before the cursor's own launch.
            #expect(page.pageInfo.hasPreviousPage == (ids.count > 1), "\(arguments)")
            #expect(page.edges.count <= size)
            ids += page.ids
            after = page.pageInfo.hasNextPage ? page.pageInfo.endCursor : nil
        } while after != nil
        return ids
    }

    /// The ids of a list paged backward from its end with `last: size`, in list order.
    func idsBackward(_ arguments: String, size: Int, total: Int) async throws -> [String] {
        var ids: [String] = []
        var before: String?
        repeat {
            let page = try await launchConnection(
                "\(arguments), last: \(size)" + (before.map { #", before: "\#($0)""# } ?? ""))
            #expect(page.totalCount == total, "\(arguments)")
            #expect(page.pageInfo.hasNextPage == (ids.count > 1), "\(arguments)")
            ids = page.ids + ids
            before = page.pageInfo.hasPreviousPage ? page.pageInfo.startCursor : nil
        } while before != nil
        return ids
    }

    /// Books (or cancels) trips with the mutations, as a client does.
    func setBooked(_ ids: [String], _ booked: Bool) async throws {
        struct Payload: Decodable {}
        for id in ids {
            let mutation =
                booked
                ? #"mutation { bookTrips(launchIds: ["\#(id)"]) { success } }"#
                : #"mutation { cancelTrip(launchId: "\#(id)") { success } }"#
            let response = try await graphQL(mutation, as: Payload.self)
            #expect(response.messages == [])
        }
    }
}
