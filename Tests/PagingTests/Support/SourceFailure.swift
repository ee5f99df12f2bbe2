/// An error a test source throws.
struct SourceFailure: Error, Equatable, CustomStringConvertible {
    var message = "the backend is down"
    var description: String { message }
}
