# Synthetic table renderer (vision/synth, cmd/bprender): POV-Ray scenes of
# dice on blueprint cards, with exact truth (vision/synth/README.md).
#   make render-smoke   render one small scene (part of make test)
#   make corpus         (re)render the seeded corpus in vision/testdata/synth;
#                       it resumes: only missing images are rendered
#   make contact-sheet  vision/testdata/synth/contact_sheet.png
TEST_PACKAGES += povray
FUZZ_TARGETS  += ./vision/synth:FuzzReadTruth
TEST_TARGETS  += render-smoke

CORPUS_DIR     ?= vision/testdata/synth
CORPUS_SEED    ?= 1
RENDER_THREADS ?= 1
# the committed sheet: the busiest card of every still, close enough for pips
SHEET_FLAGS    ?= --crop --cols 15 --thumb 192

.PHONY: render-deps render-smoke corpus contact-sheet
render-deps:
	@$(ENSURE) povray

render-smoke: render-deps
	@d=$$(mktemp -d) && trap 'rm -rf "$$d"' EXIT && \
	$(GO) run ./cmd/bprender --seed 5 --width 640 --height 360 --out "$$d" && \
	test -s "$$d/still_5.jpg" && test -s "$$d/still_5.json" && \
	echo "render-smoke: ok"

corpus: render-deps
	$(GO) run ./cmd/bprender corpus --seed $(CORPUS_SEED) --out $(CORPUS_DIR) --threads $(RENDER_THREADS)
	$(GO) run ./cmd/bprender contact-sheet --in $(CORPUS_DIR) $(SHEET_FLAGS)

contact-sheet:
	$(GO) run ./cmd/bprender contact-sheet --in $(CORPUS_DIR) $(SHEET_FLAGS)

# How far each clear glass top of the committed corpus's stills is, in the
# image, from the same die with another value on top (bprender twins; vision/JOURNAL.md
# "can one frame tell a clear top's value?"): about 15 minutes (a window
# render mostly waits for POV-Ray, so eight run at once).
TWINS_OUT ?= build/twins.jsonl
.PHONY: vision-twins
vision-twins: render-deps
	mkdir -p $(dir $(TWINS_OUT))
	$(GO) run ./cmd/bprender twins --seed $(CORPUS_SEED) --stills 300 --every --jobs 8 --out $(TWINS_OUT)
