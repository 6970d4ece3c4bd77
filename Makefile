# Shortcuts; the scripts are what CI and the README use.
.PHONY: setup build plugins test bench fuzz install uninstall deb deb-test sanitize

PREFIX ?= /usr/local
DESTDIR ?=

setup:
	scripts/setup

# meson's build directory .build/c: the C parts, the Swift programs (scripts/build).
build:
	scripts/build

plugins:
	scripts/build uninstalled

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

# PREFIX=… DESTDIR=… as usual: a release build in .build/c-release, installed by meson
# (meson.build says what goes where); uninstall removes what meson's install log lists.
install:
	[ -e .build/c-release/build.ninja ] || meson setup --prefix="$(PREFIX)" -Dswiftpm_configuration=release -Duninstalled_tree=false .build/c-release
	meson configure --prefix="$(PREFIX)" .build/c-release
	meson install -C .build/c-release $(if $(DESTDIR),--destdir "$(DESTDIR)")

uninstall:
	ninja -C .build/c-release uninstall

# The Debian package (.build/deb/actshare_VERSION_ARCH.deb, and its -dbgsym), and its
# test: installed, run, upgraded and removed (docs/PACKAGING.md).
deb:
	scripts/deb

deb-test:
	scripts/deb-test

# The C parts built with AddressSanitizer and UBSan, and the tests that drive them.
sanitize:
	scripts/sanitize
