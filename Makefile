# Shortcuts; the scripts are what CI and the README use.
.PHONY: setup build plugins test bench

setup:
	scripts/setup

build:
	swift build
	scripts/build-plugins

plugins:
	scripts/build-plugins

test:
	scripts/test

# Start-up of `actshare list` against `gio info`, with the examples and 1,000 providers.
bench:
	Benchmarks/list-startup
