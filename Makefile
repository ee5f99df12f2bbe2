# Set-up commands for a fresh machine with a Swift 6.1+ toolchain.
#
#   make demo    build and run `paging demo`: the launch list, paged live in
#                the terminal (a debug build: it starts soonest from a clone; in
#                .build, where `make test` builds every package)
#   make test    every test of every package (what CI runs)
#   make check   the sources formatted (swift format lint --strict), every
#                public symbol documented, the public API as API.txt lists it
#                (scripts/api-listing.sh --update after a deliberate change),
#                no API newer than the Apple floors unguarded (the availability
#                gate), the DocC catalogs valid, every Swift block of the READMEs
#                and catalogs compiled, the benchmarks build, the manifests'
#                Swift as README's Requirements says
#   make race    the tests of the root package and of Tools/ (the demo in a
#                pseudo-terminal included) under ThreadSanitizer; fails on any report
#   make fuzz    build the libFuzzer targets of Fuzz/ (coverage and AddressSanitizer) and run
#                each from its seed corpus for FUZZ_SECONDS (30) each, two at a time, or
#                FUZZ_RUNS executions
#   make leaks   the root package's tests under AddressSanitizer and LeakSanitizer; fails on
#                any leak or memory error
#   make format  format the sources with swift-format (not the generator's output in
#                Tests/*/Generated, which the golden tests hold as it is written)
#   make benchmarks  run every benchmark (release build, ~20 minutes) and
#                print the table of ratios
#
#   race, leaks and fuzz build in .build, the folder of `make test`, with only this
#   repository's own targets compiled again with the sanitizer (PAGING_SANITIZER in
#   Package.swift; RELIABILITY.md, "One build folder"): after `make test`, each compiles
#   our code, not the dependencies. Switching between them compiles our code again.

.PHONY: demo test check race fuzz leaks format benchmarks

demo:
	cd Tools && swift run --scratch-path ../.build paging demo

test:
	scripts/test.sh

check:
	scripts/check.sh

race:
	scripts/race.sh

fuzz:
	scripts/fuzz.sh

leaks:
	scripts/leaks.sh

format:
	scripts/swift-sources.sh | xargs swift format -i

benchmarks:
	scripts/benchmarks.sh
