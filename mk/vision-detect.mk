# The table reader (package vision): its tests again with gocv's Mat
# profile, which fail on any gocv.Mat left open after detect.
TEST_PACKAGES += libopencv-dev pkg-config
RUN_PACKAGES  += libopencv-dev pkg-config
TEST_TARGETS  += test-matprofile-detect

.PHONY: test-matprofile-detect vision-bench vision-bench-mistakes
test-matprofile-detect: test-deps
	$(GO) test -count=1 -tags matprofile -run 'TestNoMatLeaks|TestDetectBadInput' ./vision/

# Accuracy of detect over the committed corpus of rendered stills.
vision-bench: test-deps
	$(GO) run ./cmd/blueprints vision bench --corpus vision/testdata/synth/stills

# The same over the committed stills whose every card's building breaks a
# placement rule (a stack on a hatched cell, a top die on a higher value):
# bprender corpus --seed 5 --stills 60 --sequences "" --mistakes 1.
vision-bench-mistakes: test-deps
	$(GO) run ./cmd/blueprints vision bench --corpus vision/testdata/synth-mistakes/stills

# A second corpus for choosing how the reader reads (gates, views, rules),
# so that such choices are not made on the bench corpus they are then
# measured on: 240 stills of seed 2001, never trained on, rendered here
# (about 12 minutes on one core; not committed), then measured.
TUNE_DIR    ?= build/synth-tune
TUNE_STILLS ?= 240
.PHONY: vision-tune
vision-tune: test-deps render-deps
	$(GO) run ./cmd/bprender corpus --seed 2001 --stills $(TUNE_STILLS) --sequences "" --out $(TUNE_DIR) --threads $(RENDER_THREADS)
	$(GO) run ./cmd/blueprints vision bench --corpus $(TUNE_DIR)/stills

# The learned cell reader's training data and networks. The training renders
# use their own seeds (never the bench corpus's) and are not committed:
# 4,306 stills (seeds 1001-1008 and 1010), ~6 h of POV-Ray on one core or
# ~3 h running two at once (resumable; RENDER_THREADS
# to use more), then about 25 minutes of training on two cores. Writes
# vision/model/{top.mlp,pips.cnn,height.cnn,material.cnn} (and removes
# any height*.mlp: the heights come from two CNNs).
TRAIN_DIR    ?= build/synth-train
TRAIN_STILLS ?= 400 300 400 300 400 400 716 490
# seed 1010: dice turned up to 25 degrees on their cells (the others up to
# 5), so the networks read dice a hand left turned
TURNED_STILLS ?= 900
CELL_FLAGS   ?= -epochs 30 -hidden 64 -pip-convs 16,32,64 -pip-side 32 -pip-cnn-hidden 64 \
  -height-members 0 -height-cnn-members 2 -height-convs 32,64 -height-cnn-hidden 128 \
  -material-convs 32,64 -material-cnn-hidden 64 -pip-glass-weight 3 \
  -train top,pips,height,height-cnn,material-cnn -seed 1
FUZZ_TARGETS += ./vision/internal/mlp:FuzzUnmarshal

.PHONY: cell-train-data cell-model
cell-train-data: render-deps
	@set -e; seed=1001; for n in $(TRAIN_STILLS); do \
	  $(GO) run ./cmd/bprender corpus --seed $$seed --stills $$n --sequences "" --out $(TRAIN_DIR)/$$seed --threads $(RENDER_THREADS); \
	  seed=$$((seed+1)); done
	$(GO) run ./cmd/bprender corpus --seed 1010 --stills $(TURNED_STILLS) --sequences "" --max-yaw 25 --out $(TRAIN_DIR)/1010 --threads $(RENDER_THREADS)

cell-model: test-deps cell-train-data
	$(GO) run ./vision/celltrain -data vision/testdata/synth/sequences,$(TRAIN_DIR) $(CELL_FLAGS)
