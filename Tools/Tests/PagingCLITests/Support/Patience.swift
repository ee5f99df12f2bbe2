/// How long the commands and clients of these tests wait for a server on loopback where the wait
/// is not the thing tested: ten minutes, an end to a server that never answers.
///
/// With every test of the package at once, a sanitizer and a busy machine, an answer can wait
/// tens of seconds behind the other tests (RELIABILITY.md, "Tools/ all at once"); `Command.run`
/// gives `fetch`, `browse` and `schema` this as `--timeout` unless a test sets one.
let patience = Duration.seconds(600)
