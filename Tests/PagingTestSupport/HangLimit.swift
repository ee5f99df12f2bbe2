import Foundation

/// The time limits of the root package's tests: how long a test may run before it counts as hung.
///
/// Swift Testing starts every test at once, and a test's time runs while it waits for a thread.
/// Under ThreadSanitizer each test runs about ten times slower and hundreds of them share two
/// threads here, so that a one-minute limit measured the queue, not the test: a whole run failed
/// with dozens of tests that had waited their turn past it (RELIABILITY.md, "Under load"). There,
/// `scripts/race.sh` catches a hang instead, once no test has started or ended for fifteen minutes,
/// with every thread's stack.
public enum HangLimit {
    /// Whether ThreadSanitizer runs in this process (its runtime defines `__tsan_init`), however
    /// the tests were started.
    public static let underThreadSanitizer = dlsym(nil, "__tsan_init") != nil

    /// Whether AddressSanitizer runs in this process (its runtime defines `__asan_init`): each
    /// test runs a few times slower, and a model test passed its three minutes under
    /// `make leaks` while another sanitized run shared the two cores.
    public static let underAddressSanitizer = dlsym(nil, "__asan_init") != nil

    /// A limit in minutes: at least ten, and at least thirty under ThreadSanitizer or
    /// AddressSanitizer.
    ///
    /// A test's clock runs while it waits its turn, since every test starts at once: in a plain
    /// run of the root package on one machine here (2026-12-02, nothing beside it), light tests
    /// of one-minute suites ended after 62 to 64 s, and under ThreadSanitizer the whole run took
    /// longer than ten minutes with every test progressing. A limit is there to end a hang, so it
    /// is set well past the run's length on a slow, busy machine; under the sanitizer a hang is
    /// caught sooner by `scripts/race.sh`'s watch on progress.
    public static func minutes(_ minutes: Int) -> Int {
        underThreadSanitizer || underAddressSanitizer ? max(minutes, 30) : max(minutes, 10)
    }
}
