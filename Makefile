# The README's two commands. Each first installs what building needs beyond the Swift toolchain
# (scripts/setup: OpenSSL 3's and zlib's development files), then runs SwiftPM; once that is
# installed, `swift run -c release gateway --demo` and `swift test --no-parallel` do the same.
# The tests run one at a time: several check that a timeout ends a call within a bound, and with
# every suite at once on two cores such a bound is sometimes missed; one at a time is slower but
# keeps them deterministic.
.PHONY: demo test

demo:
	scripts/setup
	swift run -c release gateway --demo

test:
	scripts/setup
	swift test --no-parallel
