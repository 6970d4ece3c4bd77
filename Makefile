# Shortcuts; the scripts are what CI and the README use.
.PHONY: setup build plugins test bench fuzz install uninstall deb deb-test sanitize

PREFIX ?= /usr/local
DESTDIR ?=

setup:
	scripts/setup

build:
	swift build
	scripts/build-plugins

plugins:
	scripts/build-plugins

test:
	scripts/test

# Start-up of `actshare list` against `gio info` (examples, 1,000 providers), and the
# cost of running a provider in its own process.
bench:
	Benchmarks/list-startup
	Benchmarks/isolation-cost
	Benchmarks/clipboard-vs-xclip
	Benchmarks/mail-vs-python
	Benchmarks/pdf-vs-paps
	Benchmarks/handoff-latency
	Benchmarks/handoff-flood
	Benchmarks/handoff-vs-scp
	Benchmarks/localsend-transfer
	Benchmarks/quickshare-transfer
	Benchmarks/upload-vs-curl
	Benchmarks/handoff-discovery
	Benchmarks/sheet-vs-zenity
	Benchmarks/clipboard-between-devices
	Benchmarks/clipboard-between-devices --namespaces

# 100,000 mutated manifests and configs through the decoders (the test suite runs 2,000).
fuzz:
	swift build --build-tests
	ACTSHARE_FUZZ_COUNT=100000 swift test --skip-build --disable-xctest --filter ParserFuzzTests

# PREFIX=… DESTDIR=… as usual; see scripts/install for what goes where.
install:
	PREFIX="$(PREFIX)" DESTDIR="$(DESTDIR)" scripts/install

uninstall:
	PREFIX="$(PREFIX)" DESTDIR="$(DESTDIR)" scripts/install --uninstall

# The Debian package (.build/deb/actshare_VERSION_ARCH.deb, and its -dbgsym), and its
# test: installed, run, upgraded and removed (docs/PACKAGING.md).
deb:
	scripts/deb

deb-test:
	scripts/deb-test

# The C parts built with AddressSanitizer and UBSan, and the tests that drive them.
sanitize:
	scripts/sanitize
