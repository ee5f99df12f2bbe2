/// A place in a launch list of one ``LaunchOrder``: the values of that order's key.
///
/// Like ``KeysetPosition``, a position need not belong to an existing launch: a cursor whose
/// launch was deleted, renamed or moved still names the place where it stood.
enum LaunchListPosition: Hashable, Sendable {
    /// A place in the ``LaunchOrder/newestFirst`` order.
    case newestFirst(KeysetPosition)
    /// A place in the ``LaunchOrder/missionName`` order: a mission name and a launch id.
    case missionName(String, id: Int64)

    /// The order the position belongs to.
    var order: LaunchOrder {
        switch self {
        case .newestFirst: .newestFirst
        case .missionName: .missionName
        }
    }
}

extension Launch {
    /// The launch's place in the list of `order`.
    func position(in order: LaunchOrder) -> LaunchListPosition {
        switch order {
        case .newestFirst: .newestFirst(position)
        case .missionName: .missionName(mission.name, id: number)
        }
    }
}
