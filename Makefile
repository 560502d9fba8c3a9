# The README's two commands. Each first installs what building needs beyond the Swift toolchain
# (scripts/setup: OpenSSL 3's development files), then runs SwiftPM; once that is installed,
# `swift run -c release gateway --demo` and `swift test` do the same.
.PHONY: demo test

demo:
	scripts/setup
	swift run -c release gateway --demo

test:
	scripts/setup
	swift test
