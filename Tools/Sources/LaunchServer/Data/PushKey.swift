/// Firebase-style push keys: 20 characters, the first 8 encoding the time in milliseconds and
/// the last 12 the launch id, in an alphabet whose ASCII order is its numeric order — so the
/// keys sort, as text, exactly as the launches sort by (date, id).
enum PushKey {
    /// Firebase's push-key alphabet, in ascending ASCII order.
    private static let alphabet: [UInt8] = Array(
        "-0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz".utf8
    )

    /// The push key of the launch at `position`.
    ///
    /// - Parameter position: The launch's date (seconds) and id; both must be non-negative.
    /// - Returns: A 20-character key.
    static func make(for position: KeysetPosition) -> String {
        var bytes = [UInt8](repeating: 0, count: 20)
        var time = UInt64(max(0, position.date)) &* 1_000
        for index in stride(from: 7, through: 0, by: -1) {
            bytes[index] = alphabet[Int(time & 63)]
            time >>= 6
        }
        var id = UInt64(max(0, position.id))
        for index in stride(from: 19, through: 8, by: -1) {
            bytes[index] = alphabet[Int(id & 63)]
            id >>= 6
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
