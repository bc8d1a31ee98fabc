# cardbake: `make cards` renders the demo catalog, `make test` runs every test.
# Both install the Debian packages they need first: `make cards` only what rendering needs (make deps),
# `make test` that and what the tests drive (make test-deps: Chromium, Python, nginx).

SWIFT        ?= swift
CATALOG      ?= Input/catalog.json
OUTPUT       ?= Output
# An Xcode asset catalog to write too, e.g. XCASSETS=Output/Cards.xcassets (none when empty).
XCASSETS     ?=
# What building and rendering need (make deps). libssl-dev: SHA-256 from libcrypto (cache keys,
# content digests); libcurl4-openssl-dev: the remote cache's HTTP client; libdeflate-dev: PNG
# output's compression (Sources/Vips/PNGWriter.swift). Fonts: Lato is the default
# look; Noto covers the scripts the README promises (emoji, CJK, Arabic, Hebrew, Devanagari and most
# others), so text falls back to a real glyph rather than a box.
APT_PACKAGES := libvips-dev libjpeg-dev libpango1.0-dev libfontconfig-dev libssl-dev libcurl4-openssl-dev libdeflate-dev \
                pkg-config fonts-lato fonts-dejavu-core fonts-noto-core fonts-noto-cjk fonts-noto-color-emoji
# What only the tests and benchmarks need (make test-deps): chromium and python3 for the gallery's
# tests, which drive headless Chromium (Tests/Browser); nginx-light (with WebDAV PUT), the remote
# cache server the remote-cache tests start on loopback; python3-yaml (PyYAML) parses the recipes'
# YAML in their tests (nginx -t checks the nginx server block).
TEST_APT_PACKAGES := chromium python3 nginx-light python3-yaml openssl
# The benchmark's peers: ImageMagick, and a Python virtual environment for pyvips.
BENCH_APT_PACKAGES := imagemagick python3-venv python3-pip linux-perf libturbojpeg0
# The version `cardbake --version` prints (Builder.version in Sources/CardBake): make dist names the tarball after it.
VERSION      := $(shell grep -rhoE 'static let version = "[^"]+"' Sources/CardBake | head -1 | cut -d'"' -f2)
# The release build links the Swift runtime in (standard library, Foundation, Dispatch), so the same
# binary runs on a machine without a Swift toolchain (make dist); make cards and the benchmarks use it too.
RELEASE_FLAGS := -c release --product cardbake --static-swift-stdlib
SUDO         := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
RELEASE_BIN   = $(shell $(SWIFT) build -c release --show-bin-path)/cardbake

.PHONY: all deps test-deps build dist cards test test-manifest-alone bench bench-cold bench-scroll bench-device bench-profile bench-scale stress clean

all: cards

# Installs whichever of the Debian packages named in $(1) are missing (apt; sudo when not root).
define apt_install
	@missing=""; \
	for package in $(1); do \
	  dpkg-query -W -f='$${Status}' $$package 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$package"; \
	done; \
	if [ -n "$$missing" ]; then \
	  if ! command -v apt-get >/dev/null 2>&1; then \
	    echo "error: cardbake needs:$$missing. This system has no apt-get: install them (libvips >= 8.14 with its development files) with your package manager." >&2; \
	    exit 1; \
	  fi; \
	  echo "Installing:$$missing"; \
	  $(SUDO) apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq --no-install-recommends $$missing; \
	fi
endef

## deps: install the system packages building and rendering need
deps:
	$(call apt_install,$(APT_PACKAGES))

## test-deps: install the system packages only the tests and benchmarks need (Chromium, Python, nginx)
test-deps:
	$(call apt_install,$(TEST_APT_PACKAGES))

## build: release build of the cardbake binary
build: deps
	$(SWIFT) build $(RELEASE_FLAGS)

## dist: dist/cardbake-<version>-linux-<arch>.tar.gz: the release binary (stripped), README with the apt
## command for the runtime packages (derived from ldd and dpkg -S), LICENSE, THIRD-PARTY-NOTICES (what the
## binary links, from its link) and the licences (scripts/package-dist).
## For this machine's architecture only: there is no cross toolchain here, so an arm64 tarball needs
## `make dist` on an arm64 machine.
dist: build
	$(call apt_install,binutils)
	SWIFT=$(SWIFT) scripts/package-dist $(RELEASE_BIN) $(VERSION) dist

## cards: render the demo catalog into Output/
cards: build
	$(RELEASE_BIN) build $(CATALOG) --output $(OUTPUT) $(if $(XCASSETS),--xcassets $(XCASSETS))

## test: every unit and end-to-end test (DistTests unpacks and runs make dist's tarball), then the
## manifest module alone
test: deps test-deps
	$(SWIFT) build --build-tests
	$(MAKE) dist
	@# The log is kept so that a failure ends with its own lines, not hundreds of passes after them.
	@{ $(SWIFT) test --skip-build; echo $$? > .build/test.status; } 2>&1 | tee .build/test.log; \
	if [ "$$(cat .build/test.status)" != 0 ]; then \
	  echo; echo "What failed (from .build/test.log):"; \
	  grep -E '✘|recorded an issue|Fatal error|error:' .build/test.log | head -60; exit 1; \
	fi
	$(MAKE) test-manifest-alone

## test-manifest-alone: builds and tests CardBakeKit (and the CardBakeManifest it re-exports) as an
## app would, with libvips, Pango and fontconfig hidden from pkg-config, and fails if any other
## module (Vips, CVips, CTextRaster, CardBakeCache, …) was compiled
test-manifest-alone:
	cd Tests/ManifestOnly && PKG_CONFIG_LIBDIR=/nonexistent PKG_CONFIG_PATH= $(SWIFT) test
	@compiled=$$(cd Tests/ManifestOnly/.build/debug && for module in *.build; do \
	  ls $$module/*.o >/dev/null 2>&1 && echo $${module%.build}; done | \
	  grep -v -x -e CardBakeManifest -e CardBakeKit -e CardBakeManifestTests -e CardBakeKitTests \
	    -e 'ManifestOnlyPackage.*Tests'); \
	if [ -n "$$compiled" ]; then echo "error: CardBakeKit pulled in: $$compiled" >&2; exit 1; fi; \
	echo "CardBakeKit builds and passes its tests alone."

## bench: the benchmark against its peers; prints the table and writes bench/RESULTS.md
bench: build test-deps
	$(call apt_install,$(BENCH_APT_PACKAGES))
	bench/run

## bench-cold: only the cold build of the 48 big photos against the expert's script and the floor, alternating
bench-cold: build
	$(call apt_install,$(BENCH_APT_PACKAGES))
	bench/run cold

## bench-scroll: only the scroll benchmark (prerendered against runtime cards in headless Chromium)
bench-scroll: build test-deps
	$(call apt_install,$(BENCH_APT_PACKAGES))
	bench/run scroll

## bench-device: the device's side (bench/device.py: decode of each shipped file against cards drawn at
## runtime, fidelity against the lossless card) and the scroll benchmark with its busy-core settings
bench-device: build test-deps
	$(call apt_install,$(BENCH_APT_PACKAGES))
	bench/run device

## bench-profile: where a cold build's CPU goes, by library and by cardbake's types (perf), PNG and the default
bench-profile: build
	$(call apt_install,$(BENCH_APT_PACKAGES))
	bench/run profile

## bench-scale: 100,000 small cards end to end (bench/scale.py): 4 shards sharing a remote cache, merged; then
## no-op, check, one edit, one added and one removed card, disk use, an app's open, the gallery's first paint
bench-scale: build test-deps
	bench/run scale

## stress: the long reliability runs (kill -9 loops, fuzzing); results go to docs/RELIABILITY.md
stress: build test-deps
	Tests/Stress/run

## clean: remove the build folder, dist/, the cache and what cardbake wrote to Output/
clean:
	-[ -x "$(RELEASE_BIN)" ] && $(RELEASE_BIN) clean --output $(OUTPUT)
	rm -rf .build .cardbake dist
