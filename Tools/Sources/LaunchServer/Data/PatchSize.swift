/// The size of a mission patch image (the tutorial's `PatchSize` enum).
enum PatchSize: String, Codable, CaseIterable, Sendable {
    case small = "SMALL"
    case large = "LARGE"
}
