# The README's two commands are `make demo` and `make test`.
SWIFT ?= swift
DISSECT = .build/debug/dissect
SAMPLE = Corpus/captures/tcp.pcap

.PHONY: setup build demo test test-asan bench bench-capture fuzz fuzz-smoke check-schemas clean

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

test-asan: setup ## Every test again under AddressSanitizer (a build of its own in .build/asan; CI runs it)
	@# Leak checking is off: the only leaks reported are the test runtime's own (XCTest, dispatch).
	@# DISSECT_SANITIZED: stack-depth figures are not checked (ASan keeps locals on a fake stack).
	DISSECT_SANITIZED=address ASAN_OPTIONS=detect_leaks=0 $(SWIFT) test --sanitize=address --scratch-path .build/asan

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

clean:
	rm -rf .build
