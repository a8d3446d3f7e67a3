# The README's two commands are `make demo` and `make test`.
SWIFT ?= swift
DISSECT = .build/debug/dissect
SAMPLE = Corpus/captures/tcp.pcap

.PHONY: setup build demo test bench bench-capture check-schemas clean

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

clean:
	rm -rf .build
