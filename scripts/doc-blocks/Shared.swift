// What the documents' contexts (scripts/doc-blocks/<document>.swift) share.

/// A value of any type, for the names a sample uses without making them (a `client`, a
/// `token`): the check type-checks the samples and never runs them.
func placeholder<T>() -> T { fatalError("a documentation sample's context is never run") }
