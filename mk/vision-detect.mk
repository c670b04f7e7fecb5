# The table reader (package vision): its tests again with gocv's Mat
# profile, which fail on any gocv.Mat left open after detect.
TEST_PACKAGES += libopencv-dev pkg-config
RUN_PACKAGES  += libopencv-dev pkg-config
TEST_TARGETS  += test-matprofile-detect

.PHONY: test-matprofile-detect vision-bench
test-matprofile-detect: test-deps
	$(GO) test -count=1 -tags matprofile -run 'TestNoMatLeaks|TestDetectBadInput' ./vision/

# Accuracy of detect over the committed corpus of rendered stills.
vision-bench: test-deps
	$(GO) run ./cmd/blueprints vision bench --corpus vision/testdata/synth/stills

# The learned cell reader's training data and networks. The training renders
# use their own seeds (never the bench corpus's) and are not committed:
# 1,400 stills (seeds 1001-1004), ~2 h 40 min of POV-Ray on one core or
# ~80 min running two at once (resumable; RENDER_THREADS
# to use more), then a few minutes of training. Writes vision/model/*.mlp.
TRAIN_DIR    ?= build/synth-train
TRAIN_STILLS ?= 400 300 400 300
CELL_FLAGS   ?= -epochs 30 -hidden 64 -pip-hidden 96 -height-hidden 64 -seed 1
FUZZ_TARGETS += ./vision/internal/mlp:FuzzUnmarshal

.PHONY: cell-train-data cell-model
cell-train-data: render-deps
	@set -e; seed=1001; for n in $(TRAIN_STILLS); do \
	  $(GO) run ./cmd/bprender corpus --seed $$seed --stills $$n --sequences "" --out $(TRAIN_DIR)/$$seed --threads $(RENDER_THREADS); \
	  seed=$$((seed+1)); done

cell-model: test-deps cell-train-data
	$(GO) run ./vision/celltrain -data vision/testdata/synth/sequences,$(TRAIN_DIR) $(CELL_FLAGS)
