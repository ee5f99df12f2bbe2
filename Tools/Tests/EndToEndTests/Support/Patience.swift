/// How long a test's client waits for a server on loopback before it gives up, where the wait is
/// not what the test is about: ten minutes, a limit against a server that never answers, not a
/// measure of speed.
///
/// Every test of `Tools/` runs at once, with in-process servers, on a machine that may have two
/// cores, a sanitizer and a build beside the run: an answer that takes a millisecond alone can
/// wait tens of seconds for its turn. A client timeout of 30 s then measured how many tests ran
/// beside it (RELIABILITY.md, "Tools/ all at once"). The tests of a timeout set their own, short.
let patience = Duration.seconds(600)
