import Paging

/// A line of the screen and how it is shown.
struct ScreenLine: Sendable, Hashable {
    /// How a line is shown.
    enum Style: Sendable, Hashable {
        case normal, title, header, section, selected, footer, error, status, placeholder
    }

    /// The text, at most the screen's width.
    var text: String
    /// The style.
    var style: Style
}

/// Draws a ``ListScreen`` as lines of text: a pure function of the state and the row format, so
/// tests read exactly what the terminal shows.
enum ScreenRenderer {
    /// The screen's lines, exactly `screen.size.rows` of them, none wider than its columns.
    /// - Complexity: O(*r* (*c* + log *p*)) for *r* rows and *c* columns.
    static func render<Item>(_ screen: ListScreen<Item>, format: RowFormat<Item>) -> [ScreenLine] {
        let width = screen.size.columns
        var lines: [ScreenLine] = []
        if let detail = screen.detail {
            lines = renderDetail(detail, screen: screen)
        } else {
            lines.append(ScreenLine(text: titleText(screen, width: width), style: .title))
            lines.append(
                ScreenLine(
                    text: "  " + format.line(format.columns.map(\.title), width: width - 2), style: .header))
            let end = min(screen.rowCount, screen.top + screen.bodyHeight)
            let selectedRow = screen.selectedRow
            for row in screen.top..<end {
                let selected = row == selectedRow
                let marker = selected ? "> " : "  "
                switch screen.bodyRow(at: row) {
                case .item(let index):
                    let text = marker + format.line(format.cells(screen.items[index]), width: width - 2)
                    lines.append(ScreenLine(text: text, style: selected ? .selected : .normal))
                case .header(let header):
                    let text = RowFormat<Item>.fit(" ── \(header) ──", to: width, pad: false)
                    lines.append(ScreenLine(text: text, style: .section))
                case .placeholder(let position):
                    // Not loaded: its row number, and a bar where its text will be.
                    let text = RowFormat<Item>.fit(
                        marker + "\(position + 1) " + String(repeating: "░", count: 12), to: width, pad: false
                    )
                    lines.append(ScreenLine(text: text, style: selected ? .selected : .placeholder))
                case .footer:
                    let failed = screen.loadStates.refresh.error != nil || screen.loadStates.next.error != nil
                    lines.append(
                        ScreenLine(
                            text: RowFormat<Item>.fit(marker + screen.footer, to: width, pad: false),
                            style: selected ? .selected : failed ? .error : .footer))
                }
            }
            while lines.count < screen.size.rows - 1 { lines.append(ScreenLine(text: "", style: .normal)) }
            lines.append(
                ScreenLine(
                    text: RowFormat<Item>.fit(statusText(screen), to: width, pad: false), style: .status))
        }
        return Array(lines.prefix(screen.size.rows))
    }

    private static func titleText<Item>(_ screen: ListScreen<Item>, width: Int) -> String {
        var text = " \(screen.title)"
        if !screen.query.isEmpty { text += " matching “\(screen.query)”" }
        text += " · \(screen.items.count) loaded"
        if screen.placeholders { text += " of \(screen.presented.count)" }
        if let pending = screen.pendingSearch {
            text += pending.isEmpty ? " · showing all…" : " · searching “\(pending)”…"
        }
        if screen.loadStates.refresh.isLoading, !screen.items.isEmpty { text += " · refreshing…" }
        if let note = screen.note { text += " · \(note)" }
        return RowFormat<Item>.fit(text, to: width, pad: false)
    }

    /// The status, or the key help: in full when it fits the width, else in short (an 80-column
    /// terminal still shows every key).
    private static func statusText<Item>(_ screen: ListScreen<Item>) -> String {
        if screen.isEditingSearch { return " /\(screen.searchText ?? "")▏   Enter done  Esc clear  ↑↓ move" }
        if let status = screen.status { return " " + status }
        let booking = screen.canBook ? "  b book/cancel" : ""
        let network = screen.canSwitchNetwork ? "  o network" : ""
        let search = screen.canSearch ? "  / search" : ""
        let jumps = screen.placeholders ? "  g/G/nG top/end/row" : ""
        let full =
            " ↑↓ j/k move  PgUp/PgDn page\(jumps)  Enter details\(booking)\(search)  R refresh  r retry\(network)  q quit"
        guard full.count > screen.size.columns else { return full }
        let book = screen.canBook ? "  b book" : ""
        let go = screen.placeholders ? "  g/G/nG" : ""
        return " ↑↓ move  PgUp/PgDn\(go)  Enter open\(book)\(search)  R refresh  r retry\(network)  q quit"
    }

    private static func renderDetail<Item>(_ detail: ListScreen<Item>.Detail, screen: ListScreen<Item>)
        -> [ScreenLine]
    {
        let width = screen.size.columns
        var lines: [ScreenLine] = []
        let body: [ScreenLine]
        switch detail {
        case .loading:
            lines.append(
                ScreenLine(text: RowFormat<Item>.fit(" Details", to: width, pad: false), style: .title))
            body = [ScreenLine(text: "  Loading…", style: .footer)]
        case .shown(let title, let detailLines):
            lines.append(
                ScreenLine(text: RowFormat<Item>.fit(" \(title)", to: width, pad: false), style: .title))
            body = detailLines.map {
                ScreenLine(text: RowFormat<Item>.fit("  " + $0, to: width, pad: false), style: .normal)
            }
        case .failed(let title, let message):
            lines.append(
                ScreenLine(text: RowFormat<Item>.fit(" \(title)", to: width, pad: false), style: .title))
            body =
                message.split(separator: "\n").map {
                    ScreenLine(text: RowFormat<Item>.fit("  \($0)", to: width, pad: false), style: .error)
                } + [
                    ScreenLine(
                        text: RowFormat<Item>.fit("  Esc, then Enter to try again.", to: width, pad: false),
                        style: .footer)
                ]
        }
        lines.append(ScreenLine(text: "", style: .normal))
        lines += body.prefix(max(0, screen.size.rows - 3))
        while lines.count < screen.size.rows - 1 { lines.append(ScreenLine(text: "", style: .normal)) }
        lines.append(ScreenLine(text: " Esc back  q quit", style: .status))
        return lines
    }
}
