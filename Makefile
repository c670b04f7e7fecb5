# Blueprints table companion — the two commands a newcomer needs:
#   make run    play a seeded simulated game and print its events and results
#   make test   every test (installs the Debian packages the tests need)
#
# Each area adds its own targets and test steps in mk/*.mk; a fragment appends
# its test target to TEST_TARGETS and its Debian packages to TEST_PACKAGES.

GO        ?= go
SEED      ?= 1
PLAYERS   ?= 4
ENSURE    := scripts/ensure-packages.sh
TEST_TARGETS  :=
TEST_PACKAGES :=
TEST_PREREQS  :=
RUN_PACKAGES  :=
FUZZ_TARGETS  :=

.PHONY: all build run test test-go vet fuzz bench fmt-check
all: build

include $(sort $(wildcard mk/*.mk))

build:
	$(GO) build ./...

run:
	@if [ -n "$(RUN_PACKAGES)" ]; then $(ENSURE) $(RUN_PACKAGES); fi
	$(GO) run ./cmd/blueprints play --players $(PLAYERS) --seed $(SEED)

test: fmt-check vet test-go fuzz $(TEST_TARGETS)
	@echo "make test: all steps passed"

test-deps:
	@if [ -n "$(TEST_PACKAGES)" ]; then $(ENSURE) $(sort $(TEST_PACKAGES)); fi

fmt-check:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$out" ]; then echo "gofmt needed on: $$out"; exit 1; fi

vet: test-deps
	$(GO) vet ./...

test-go: test-deps $(TEST_PREREQS)
	$(GO) test -count=1 ./...

# Each fuzz target runs briefly; `go test -fuzz` takes one target at a time.
# The budget is a count of executions, not a duration: with a duration, Go
# 1.26's fuzz coordinator can report a spurious "context deadline exceeded"
# failure when the deadline fires while a starved worker is mid-call
# (golang/go#75804, fixed in Go 1.27). A count has no deadline to race; a
# loaded machine only makes it slower.
FUZZTIME ?= 40000x
fuzz: test-deps
	@set -e; for t in $(FUZZ_TARGETS); do \
	  pkg=$${t%%:*}; name=$${t##*:}; \
	  echo "fuzz $$pkg $$name ($(FUZZTIME))"; \
	  $(GO) test -run='^$$' -fuzz="^$$name$$" -fuzztime=$(FUZZTIME) $$pkg; \
	done

bench:
	$(GO) test -run='^$$' -bench=. -benchmem ./...
