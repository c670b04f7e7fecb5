# Scoreboard firmware (firmware/) and its simulated board: the Go tests in
# hardware/ drive the real firmware ELF inside the simulator, so both are
# built before `go test`; the host-compiled C unit tests run as their own step.
TEST_PACKAGES += gcc-avr avr-libc simavr libsimavr-dev libelf-dev pkg-config
TEST_PREREQS  += firmware-build
TEST_TARGETS  += firmware-test hardware-fuzz
FUZZ_TARGETS  += ./hardware/protocol:FuzzDecode

.PHONY: firmware-build firmware-test hardware-fuzz
firmware-build: test-deps
	$(MAKE) -C firmware all

firmware-test: test-deps
	$(MAKE) -C firmware test

# The frame decoder's fuzz target. It belongs in FUZZ_TARGETS, but while the
# top-level Makefile resets FUZZ_TARGETS after including mk/*.mk it would not
# run, so this step runs it unless the fuzz step already did.
hardware-fuzz: test-deps
	@case " $(FUZZ_TARGETS) " in \
	  *" ./hardware/protocol:FuzzDecode "*) echo "hardware-fuzz: FuzzDecode ran in the fuzz step" ;; \
	  *) echo "fuzz ./hardware/protocol FuzzDecode ($(FUZZTIME))"; \
	     $(GO) test -run='^$$' -fuzz='^FuzzDecode$$' -fuzztime=$(FUZZTIME) ./hardware/protocol ;; \
	esac
