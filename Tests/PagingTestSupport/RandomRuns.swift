/// How many random runs a model-based test makes: all of them in a plain run, a quarter under a
/// sanitizer.
///
/// The model-based tests check every promise of the code after each random step, over hundreds
/// of runs; a sanitizer looks for races and memory errors in the code those steps reach, which a
/// quarter of the runs reach as well. Under ThreadSanitizer or AddressSanitizer each step runs
/// several times slower, and these few tests were the last of the sanitizers' runs to end, minutes
/// after the rest (RELIABILITY.md, "One build folder"). A test's own counts of what its runs did
/// (drifts seen, refreshes made) scale with the runs: ``count(_:)`` of the plain run's bound.
public enum RandomRuns {
    /// What the plain run's counts are divided by here: 4 under a sanitizer, else 1.
    public static let divisor = HangLimit.underThreadSanitizer || HangLimit.underAddressSanitizer ? 4 : 1

    /// `runs` in a plain run, a quarter of them (at least one) under a sanitizer.
    public static func count(_ runs: Int) -> Int {
        max(1, runs / divisor)
    }
}
