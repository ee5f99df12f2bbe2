# Set-up commands for a fresh machine with a Swift 6.1+ toolchain.
#
#   make demo    build and run `paging demo`: the launch list, paged live in
#                the terminal (a debug build: it starts soonest from a clone)
#   make test    every test of every package (what CI runs)
#   make check   the sources formatted (swift format lint --strict), every
#                public symbol documented, the DocC catalogs valid, the
#                benchmarks build
#   make sanitize  the root package's tests under ThreadSanitizer (a build
#                of its own, in .build-tsan)
#   make format  format the sources with swift-format
#   make benchmarks  run every benchmark (release build, ~20 minutes) and
#                print the table of ratios

.PHONY: demo test check sanitize format benchmarks

demo:
	cd Tools && swift run paging demo

test:
	scripts/test.sh

check:
	scripts/check.sh

sanitize:
	swift test --sanitize=thread --scratch-path .build-tsan

format:
	swift format -i -r Sources Tests Tools/Sources Tools/Tests Benchmarks/Benchmarks Benchmarks/Sources Examples/Sources Examples/Tests Plugins

benchmarks:
	scripts/benchmarks.sh
