# Scoreboard firmware (firmware/) and its simulated board: the Go tests in
# hardware/ drive the real firmware ELF inside the simulator, so both are
# built before `go test`; the host-compiled C unit tests run as their own step.
TEST_PACKAGES += gcc-avr avr-libc simavr libsimavr-dev libelf-dev pkg-config
TEST_PREREQS  += firmware-build
TEST_TARGETS  += firmware-test hardware-fuzz
SCOREBOARD_FUZZ := ./hardware/protocol:FuzzDecode ./cmd/blueprints:FuzzParseScores
FUZZ_TARGETS  += $(SCOREBOARD_FUZZ)

.PHONY: firmware-build firmware-test hardware-fuzz
firmware-build: test-deps
	$(MAKE) -C firmware all

firmware-test: test-deps
	$(MAKE) -C firmware test

# The scoreboard's fuzz targets (frame decoder, --scores parser). They belong
# in FUZZ_TARGETS, but while the top-level Makefile resets FUZZ_TARGETS after
# including mk/*.mk they would not run there, so this step runs each one the
# fuzz step did not.
hardware-fuzz: test-deps
	@set -e; for t in $(SCOREBOARD_FUZZ); do \
	  pkg=$${t%%:*}; name=$${t##*:}; \
	  case " $(FUZZ_TARGETS) " in \
	    *" $$t "*) echo "hardware-fuzz: $$name ran in the fuzz step" ;; \
	    *) echo "fuzz $$pkg $$name ($(FUZZTIME))"; \
	       $(GO) test -run='^$$' -fuzz="^$$name$$" -fuzztime=$(FUZZTIME) $$pkg ;; \
	  esac; \
	done
