import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The terminal in raw mode on the alternate screen, and back as it was.
///
/// ``enter()`` saves the terminal's modes, turns off line buffering, echo and signal keys (Ctrl-C
/// arrives as a key, so that quitting restores the terminal), switches to the alternate screen
/// and hides the cursor. ``restore()`` undoes all of it and may be called more than once.
// @unchecked Sendable: the saved modes are written once in `enter()`, before any other thread
// sees the object, and `restored` is only touched under `lock`.
final class RawTerminal: @unchecked Sendable {
    private let input: Int32
    private let output: Int32
    private var saved = termios()
    private var restored = true
    private let lock = NSLock()

    /// The escape sequences written on entering and leaving.
    enum Sequence {
        /// Alternate screen on, cursor hidden, screen cleared.
        static let enter = "\u{1B}[?1049h\u{1B}[?25l\u{1B}[2J"
        /// Attributes reset, cursor shown, alternate screen off.
        static let leave = "\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l"
    }

    /// Creates a terminal over file descriptors; nothing changes until ``enter()``.
    init(input: Int32 = STDIN_FILENO, output: Int32 = STDOUT_FILENO) {
        self.input = input
        self.output = output
    }

    /// Whether both descriptors are terminals.
    var isInteractive: Bool { isatty(input) == 1 && isatty(output) == 1 }

    /// Enters raw mode and the alternate screen.
    /// - Throws: ``CLIError`` when the terminal's modes cannot be read or set.
    func enter() throws(CLIError) {
        guard tcgetattr(input, &saved) == 0 else {
            throw .failed(
                "cannot read the terminal's settings (\(String(cString: strerror(errno)))); run the demo in a terminal, or pipe its output to print the pages."
            )
        }
        var raw = saved
        raw.c_iflag &= ~tcflag_t(BRKINT | ICRNL | INPCK | ISTRIP | IXON)
        raw.c_cflag |= tcflag_t(CS8)
        raw.c_lflag &= ~tcflag_t(ECHO | ICANON | IEXTEN | ISIG)
        withUnsafeMutableBytes(of: &raw.c_cc) { bytes in
            bytes[Int(VMIN)] = 1
            bytes[Int(VTIME)] = 0
        }
        guard tcsetattr(input, TCSAFLUSH, &raw) == 0 else {
            throw .failed("cannot put the terminal in raw mode (\(String(cString: strerror(errno)))).")
        }
        lock.withLock { restored = false }
        write(Sequence.enter)
    }

    /// Leaves the alternate screen and restores the saved modes; does nothing the second time.
    func restore() {
        let needed = lock.withLock {
            defer { restored = true }
            return !restored
        }
        guard needed else { return }
        write(Sequence.leave)
        _ = tcsetattr(input, TCSAFLUSH, &saved)
    }

    /// The terminal's size; 24 × 80 when it cannot be read.
    var size: ScreenSize {
        var window = winsize()
        guard ioctl(output, UInt(TIOCGWINSZ), &window) == 0, window.ws_row > 0, window.ws_col > 0 else {
            return ScreenSize(rows: 24, columns: 80)
        }
        return ScreenSize(rows: Int(window.ws_row), columns: Int(window.ws_col))
    }

    /// Writes text as it is.
    func write(_ text: String) {
        var bytes = Array(text.utf8)
        FileDescriptorWriter.writeAll(&bytes, to: output)
    }

    /// Draws lines over the whole screen in one write.
    func draw(_ lines: [ScreenLine]) {
        var frame = "\u{1B}[H"
        for (index, line) in lines.enumerated() {
            frame += Self.style(line.style) + line.text + "\u{1B}[0m\u{1B}[K"
            if index < lines.count - 1 { frame += "\r\n" }
        }
        frame += "\u{1B}[J"
        write(frame)
    }

    private static func style(_ style: ScreenLine.Style) -> String {
        switch style {
        case .normal: ""
        case .title: "\u{1B}[1;44;37m"
        case .header: "\u{1B}[1m"
        case .section: "\u{1B}[1;4m"
        case .selected: "\u{1B}[7m"
        case .footer: "\u{1B}[2m"
        case .error: "\u{1B}[31m"
        case .status: "\u{1B}[2m"
        case .placeholder: "\u{1B}[2m"
        }
    }
}
