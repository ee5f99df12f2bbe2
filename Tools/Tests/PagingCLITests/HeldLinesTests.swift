import Testing

@testable import PagingCLI

@Suite("Lines held while a screen holds the terminal")
struct HeldLinesTests {
    @Test("held lines wait for release and then come out in order, before any later line")
    func heldUntilRelease() {
        let buffer = TextBuffer()
        let lines = HeldLines(sink: buffer.sink, holding: true)
        lines.line("first")
        lines.line("second")
        #expect(buffer.text.isEmpty)
        lines.release()
        #expect(buffer.text == "first\nsecond\n")
        lines.line("third")
        lines.release()
        #expect(buffer.text == "first\nsecond\nthird\n")
    }

    @Test("lines that are not held are written at once")
    func notHeld() {
        let buffer = TextBuffer()
        let lines = HeldLines(sink: buffer.sink, holding: false)
        lines.line("now")
        #expect(buffer.text == "now\n")
    }
}
