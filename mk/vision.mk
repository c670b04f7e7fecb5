# Vision (vision/dice and later the rest of vision/): gocv v0.31.0 links
# Debian's OpenCV 4.6, so the tests and `make run` (the blueprints binary
# carries the vision commands) need libopencv-dev. The accuracy test reads
# the real-photo data set from ../shared/datasets/dice-real.
TEST_PACKAGES += libopencv-dev pkg-config
RUN_PACKAGES  += libopencv-dev pkg-config
TEST_TARGETS  += test-matprofile
FUZZ_TARGETS  += ./vision/dice:FuzzParseYOLO ./vision/internal/cnn:FuzzUnmarshal

DICE_DATA ?= ../shared/datasets/dice-real

.PHONY: test-matprofile dice-model dice-eval dice-bench

# The dice reader's tests again with gocv's Mat profile: they fail on any
# gocv.Mat left open.
test-matprofile: test-deps
	$(GO) test -count=1 -tags matprofile ./vision/dice/

# Retrain the pip model (seeded, one core; see vision/dice/README.md for
# the time: about four hours one after the other) and write the file
# vision/dice embeds: an ensemble of eight networks trained on folds 1-4,
# four reading 48x48 patches (seeds 1-4), two 64x64 (seeds 5-6) and two
# 96x96 (seeds 9-10). Fold 0 of the source photos is
# never read; the recipe was chosen on fold 1 (the same flags with -val 1
# and -members 1).
DICE_TRAIN_FLAGS ?= -epochs 60 -convs 32,64,128,128 -hidden 128 -syms 2

dice-model: test-deps
	mkdir -p build
	GOMAXPROCS=1 $(GO) run ./vision/dice/train -data $(DICE_DATA) $(DICE_TRAIN_FLAGS) -side 48 -seed 1 -members 4 -out build/dice-48.cnn
	GOMAXPROCS=1 $(GO) run ./vision/dice/train -data $(DICE_DATA) $(DICE_TRAIN_FLAGS) -side 64 -seed 5 -members 2 -out build/dice-64.cnn
	GOMAXPROCS=1 $(GO) run ./vision/dice/train -data $(DICE_DATA) $(DICE_TRAIN_FLAGS) -side 96 -seed 9 -members 2 -out build/dice-96.cnn
	$(GO) run ./vision/dice/train -data $(DICE_DATA) -from build/dice-48.cnn,build/dice-64.cnn,build/dice-96.cnn -epochs 0 -out vision/dice/model/pips.cnn

# Accuracy on the held-out source photos (fold 0): per value, confusion
# matrix, ms per die.
dice-eval: test-deps
	$(GO) run ./cmd/blueprints vision dice --dataset $(DICE_DATA) --folds heldout

dice-bench: test-deps
	$(GO) test -run='^$$' -bench=. -benchmem ./vision/dice/
