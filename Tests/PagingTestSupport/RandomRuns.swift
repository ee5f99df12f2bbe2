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

    /// Plays random runs, `run(n)` for n = 0, 1, …: `runs` of them in a plain run; under a
    /// sanitizer, ``count(_:)`` of them, then on, up to `runs`, while `enough()` is false.
    /// Returns how many it played.
    ///
    /// `enough` is what the test's counts of its runs ask (the jumps landed, the drifts seen, a
    /// read that missed items without the check): a quarter of the runs that happens to do few
    /// of those things goes on until it has done them, so that its verdict does not depend on
    /// the seed, and fails only when all of the plain run's runs fall short too.
    @discardableResult
    public static func play(
        _ runs: Int, isolation: isolated (any Actor)? = #isolation, until enough: () -> Bool,
        _ run: (Int) async throws -> Void
    ) async rethrows -> Int {
        var played = 0
        while played < count(runs) || (played < runs && !enough()) {
            try await run(played)
            played += 1
        }
        return played
    }
}
