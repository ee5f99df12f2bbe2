/// Which launches a list pages through.
enum LaunchScope: Sendable, Hashable {
    /// Every launch.
    case all
    /// The launches of the rocket with this id.
    case rocket(String)
    /// The launches whose mission name contains this text, ignoring the case of ASCII letters
    /// (SQLite's `LIKE`); `%`, `_` and `\` in it are matched as themselves.
    case missionContains(String)

    /// The scope of a `search:` argument: every launch for none or an empty text.
    static func search(_ text: String?) -> LaunchScope {
        guard let text, !text.isEmpty else { return .all }
        return .missionContains(text)
    }

    /// The `LIKE` pattern of a search: the text between `%`, its own `%`, `_` and `\` escaped
    /// with `\`.
    static func likePattern(_ text: String) -> String {
        var pattern = "%"
        for character in text {
            if character == "%" || character == "_" || character == "\\" { pattern.append("\\") }
            pattern.append(character)
        }
        return pattern + "%"
    }
}
