/// How the list screen shows an item: column titles, column widths and the text of each cell.
struct RowFormat<Item>: Sendable {
    /// A column.
    struct Column: Sendable {
        /// The header text.
        var title: String
        /// A fixed width, or `nil` to share the room left with the other flexible columns.
        var width: Int?
    }

    /// The columns.
    var columns: [Column]
    /// The cells of an item, one per column.
    var cells: @Sendable (Item) -> [String]
    /// The title and lines of an item's details when no query is made for them.
    var details: @Sendable (Item) -> (title: String, lines: [String])

    /// Lays out cells in the columns within a width, two spaces apart.
    /// - Complexity: O(*w*) for a width *w*.
    func line(_ cells: [String], width: Int) -> String {
        let gaps = max(0, columns.count - 1) * 2
        let fixed = columns.compactMap(\.width).reduce(0, +)
        let flexibleCount = columns.filter { $0.width == nil }.count
        let room = max(0, width - gaps - fixed)
        var flexibleWidths = Array(
            repeating: flexibleCount == 0 ? 0 : room / flexibleCount, count: flexibleCount)
        if flexibleCount > 0 { flexibleWidths[0] += room - flexibleWidths.reduce(0, +) }
        var next = 0
        var parts: [String] = []
        for (index, column) in columns.enumerated() {
            let columnWidth: Int
            if let fixedWidth = column.width {
                columnWidth = fixedWidth
            } else {
                columnWidth = flexibleWidths[next]
                next += 1
            }
            parts.append(Self.fit(index < cells.count ? cells[index] : "", to: columnWidth))
        }
        let line = Self.fit(parts.joined(separator: "  "), to: width, pad: false)
        return String(line.reversed().drop { $0 == " " }.reversed())
    }

    /// Cuts text to a width, with `…` where it was cut, and pads it with spaces.
    static func fit(_ text: String, to width: Int, pad: Bool = true) -> String {
        guard width > 0 else { return "" }
        let flat = text.replacingOccurrences(of: "\n", with: " ")
        if flat.count > width { return String(flat.prefix(width - 1)) + "…" }
        return pad ? flat + String(repeating: " ", count: width - flat.count) : flat
    }
}
