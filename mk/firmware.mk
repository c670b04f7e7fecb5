# Scoreboard firmware (firmware/) and its simulated board: the Go tests in
# hardware/ and cmd/blueprints drive the real firmware ELF inside the
# simulator, so both are built before `go test`; the host-compiled C unit
# tests run as their own step; the frame decoder and the --scores parser are
# fuzzed in the fuzz step.
TEST_PACKAGES += gcc-avr avr-libc simavr libsimavr-dev libelf-dev pkg-config
TEST_PREREQS  += firmware-build
TEST_TARGETS  += firmware-test
FUZZ_TARGETS  += ./hardware/protocol:FuzzDecode ./cmd/blueprints:FuzzParseScores

.PHONY: firmware-build firmware-test
firmware-build: test-deps
	$(MAKE) -C firmware all

firmware-test: test-deps
	$(MAKE) -C firmware test
