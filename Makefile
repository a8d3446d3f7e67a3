# The README's two commands are `make demo` and `make test`.
SWIFT ?= swift
DISSECT = .build/debug/dissect
SAMPLE = Corpus/captures/tcp.pcap

# make install: PREFIX and DESTDIR as usual; the release binary links the Swift runtime in
# (--static-swift-stdlib), so it runs without the toolchain. docs/Install.md tells the layout.
PREFIX ?= /usr/local
DESTDIR ?=
INSTALL_BUILD_FLAGS ?= -c release --static-swift-stdlib
# The binary install-files copies (tests install the debug build through it).
BUILT ?= .build/release/dissect
BINDIR = $(DESTDIR)$(PREFIX)/bin
SCHEMADIR = $(DESTDIR)$(PREFIX)/share/dissect/schemas
MANDIR = $(DESTDIR)$(PREFIX)/share/man/man1
BASHDIR = $(DESTDIR)$(PREFIX)/share/bash-completion/completions
ZSHDIR = $(DESTDIR)$(PREFIX)/share/zsh/site-functions
FISHDIR = $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d

.PHONY: docs setup build demo test test-browser test-asan bench bench-capture fuzz fuzz-smoke check-schemas clean install install-files uninstall man

setup: ## Install libpcap-dev and pkg-config if missing
	@scripts/install-deps.sh

build: setup ## Build everything (debug)
	$(SWIFT) build

demo: build ## Build, then dissect a bundled capture (a TCP handshake with an HTTP exchange) as annotated hex
	@echo "== dissect -r $(SAMPLE) -f hex -c 4"
	@$(DISSECT) -r $(SAMPLE) -f hex -c 4

test: setup ## Run every test (and build the benchmark, so it keeps compiling)
	$(SWIFT) build --product dissect-bench
	$(SWIFT) test

test-browser: build ## The HTML view (-f html) in headless Chromium; installs chromium, chromium-driver, python3-selenium if missing (CI runs it)
	@scripts/install-deps.sh --browser
	/usr/bin/python3 Tests/Browser/test_html_view.py $(BROWSER_TEST_FLAGS)

test-asan: setup ## Every library test and corpus replay again under AddressSanitizer (a build of its own in .build/asan; CI runs it)
	@# Leak checking is off: the only leaks reported are the test runtime's own (XCTest, dispatch).
	@# DISSECT_SANITIZED: stack-depth figures are not checked (ASan keeps locals on a fake stack).
	@# The command-line suites (DissectTests) run the binary as a user does, hundreds of times, and
	@# each run spends most of its time loading the bundled schemas: under ASan they took more than
	@# half of CI's time limit. The code they reach is the libraries', which every other suite runs
	@# here in-process; they run once, in `make test`.
	DISSECT_SANITIZED=address ASAN_OPTIONS=detect_leaks=0 $(SWIFT) test --sanitize=address --scratch-path .build/asan --skip '^DissectTests\.'

check-schemas: build ## Check the bundled schemas
	$(DISSECT) schema check Schemas Schemas/examples

bench: setup ## Benchmarks (release build): the interpreter and the Codable decoders side by side with their peers, then rendering
	$(SWIFT) build -c release --product dissect-bench
	.build/release/dissect-bench
	.build/release/dissect-bench codable
	.build/release/dissect-bench views

bench-capture: setup ## Capture benchmark (release build): 1M generated frames through libpcap, tcpdump, tshark and every view
	$(SWIFT) build -c release --product dissect
	$(SWIFT) build -c release --product dissect-bench
	scripts/bench-capture.py --frames $(or $(FRAMES),1000000)

fuzz: setup ## A fuzz campaign: make fuzz TARGET=dissector|views|schema|codable|roundtrip|pcap|formats|reassembly SECONDS=600 JOBS=1
	scripts/fuzz.sh $(or $(TARGET),dissector) $(or $(SECONDS),600) $(or $(JOBS),1)

fuzz-smoke: setup ## Every fuzz target for $(SMOKE) seconds (default 30); fails on any crash (CI runs it)
	@for target in dissector views schema codable roundtrip pcap formats reassembly; do \
	  scripts/fuzz.sh $$target $(or $(SMOKE),30) 1 || exit 1; \
	done

install: setup ## Build release and install: make install PREFIX=/usr/local DESTDIR= (binary, schemas, man page, completions)
	$(SWIFT) build $(INSTALL_BUILD_FLAGS) --product dissect
	@$(MAKE) --no-print-directory install-files BUILT=$$($(SWIFT) build $(INSTALL_BUILD_FLAGS) --show-bin-path)/dissect

install-files: ## Install an already built binary (BUILT=path) with the schemas, man page and completions, no build
	@test -x "$(BUILT)" || { echo "error: $(BUILT) is not built (make install builds it)" >&2; exit 1; }
	install -d "$(BINDIR)" "$(SCHEMADIR)" "$(MANDIR)" "$(BASHDIR)" "$(ZSHDIR)" "$(FISHDIR)"
	install -m 755 "$(BUILT)" "$(BINDIR)/dissect"
	@# The whole bundled tree (examples/ too); a stale file from an older install is removed.
	rm -rf "$(SCHEMADIR)" && install -d "$(SCHEMADIR)" && cp -R Schemas/. "$(SCHEMADIR)/"
	@# The man page carries the binary's own version (DissectVersion in Sources/dissect/Version.swift).
	version=$$("$(BUILT)" --version) && sed "s/^\.Os$$/.Os dissect $$version/" docs/dissect.1 > "$(MANDIR)/dissect.1"
	"$(BUILT)" --generate-completion-script bash > "$(BASHDIR)/dissect"
	"$(BUILT)" --generate-completion-script zsh > "$(ZSHDIR)/_dissect"
	"$(BUILT)" --generate-completion-script fish > "$(FISHDIR)/dissect.fish"

uninstall: ## Remove what make install installed (same PREFIX and DESTDIR)
	rm -f "$(BINDIR)/dissect" "$(MANDIR)/dissect.1" "$(BASHDIR)/dissect" "$(ZSHDIR)/_dissect" "$(FISHDIR)/dissect.fish"
	rm -rf "$(SCHEMADIR)"
	-rmdir "$(DESTDIR)$(PREFIX)/share/dissect" 2>/dev/null

man: build ## Regenerate docs/dissect.1 from the options (ArgumentParser's generate-manual; a test checks it is current)
	$(SWIFT) package generate-manual --configuration debug
	cp .build/plugins/GenerateManual/outputs/dissect/dissect.1 docs/dissect.1

clean:
	rm -rf .build

docs: setup ## DocC documentation of the public modules, in .build/docs/<Module>.doccarchive (a build of its own in .build/docs-build; warnings are errors)
	scripts/make-docs.sh
