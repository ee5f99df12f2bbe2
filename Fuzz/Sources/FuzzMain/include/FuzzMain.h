// The `main` of every fuzz target: libFuzzer's driver, run on the target's
// `LLVMFuzzerTestOneInput`.
//
// The targets are executables of their own with a `main.swift`, built in the
// folder the root package's tests build in (`scripts/fuzz.sh`), and linked with
// libFuzzer (`-sanitize=fuzzer`). SwiftPM gives an executable the `main` of its
// top-level code, so libFuzzer's own `main` is not the one that runs: the
// top-level code calls this function, which hands the arguments to
// `LLVMFuzzerRunDriver`, libFuzzer's entry point for programs with a `main`
// of their own.
#ifndef FUZZ_MAIN_H
#define FUZZ_MAIN_H

/// Runs libFuzzer with the command line's arguments; returns its exit status.
int paging_fuzz_main(int argc, char **argv);

#endif
