import Testing

@testable import Paging

@Suite("PagingError")
struct PagingErrorTests {
    @Test("a load failure names the request and keeps the underlying error")
    func loadFailed() {
        let error = PagingError.loadFailed(
            PageRequest(.next(after: "c40"), count: 20), underlying: SourceFailure())
        #expect(error.code == .loadFailed)
        #expect(error.description == #"loading next(after: c40), count 20 failed: the backend is down"#)
        #expect(error.requestDescription == "next(after: c40), count 20")
        #expect(error.underlyingError as? SourceFailure == SourceFailure())
        #expect("\(error.code)" == "loadFailed")
    }

    @Test("a repeated key says why paging stopped and what the source must do")
    func repeatedKey() {
        let error = PagingError.repeatedKey(PageRequest(.previous(before: 7), count: 5), direction: .previous)
        #expect(error.code == .repeatedKey)
        #expect(error.underlyingError == nil)
        #expect(
            error.description
                == "loading previous(before: 7), count 5 returned 7 again as the previous key; following it would "
                + "load the same page forever, so paging backward stopped. The page source must return the key of "
                + "the previous page.")
    }

    @Test("errors compare by code and description")
    func equality() {
        #expect(PagingError.invalidArgument("a") == PagingError.invalidArgument("a"))
        #expect(PagingError.invalidArgument("a") != PagingError.invalidArgument("b"))
        #expect(PagingError.invalidArgument("a") != PagingError.invalidConfiguration("a"))
    }
}
