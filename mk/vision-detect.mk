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

# Speed of detect on one core, as the targets measure it: the bench
# corpus's four-card median with each frame timed by the fastest of three
# runs (a busy machine's pauses left out), then BenchmarkDetect. On an
# AVX-512 machine, SPEED_GODEBUG=cpu.avx512f=off measures the AVX2 kernels.
SPEED_GODEBUG ?=
.PHONY: vision-speed
vision-speed: test-deps
	$(GO) build -o build/blueprints ./cmd/blueprints
	GODEBUG=$(SPEED_GODEBUG) taskset -c 0 build/blueprints vision bench --repeat 3 --corpus vision/testdata/synth/stills --json | grep ms_per_frame
	GODEBUG=$(SPEED_GODEBUG) taskset -c 0 $(GO) test -count=1 -run '^$$' -bench 'BenchmarkDetect$$' -benchmem ./vision/

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

# The corpora the sixth session judged changes on, rendered here with
# their seeds and flags (never trained on; 11,080 stills at about 3 s each
# on one core, on 2026-11-25's machine; resumable), then read by vision
# bench, a line each and the
# total: tuning (2001), two checks (2002, 2003), buildings that break a
# placement rule (2004, 2005), dice turned up to 5, 15 and 30 degrees
# (2006 three times), 2007 and 2008-2014, 2016-2020, 2023 and 2025-2036
# (fresh when first read; 2023 and 2025-2028 by the fourteenth session,
# 2029-2036 by the fifteenth), and the sixteenth session's fresh 2037,
# 2040 and 2042 and nadir 2039 and 2041 (every still's camera over a card:
# --nadir-on-cards 1), the seventeenth session's nadir 2043 and fresh
# 2044, the eighteenth's nadir 2045 and 2047 and fresh 2046 and 2048, and
# fresh 2049 (the twenty-first session's), 2050-2055 (the
# twenty-second's), nadir 2056 and 2057 (the twenty-third's) and nadir
# 2058 (the twenty-fourth's), fresh 2059 and 2060 (the twenty-fifth's),
# nadir 2061 and 2063 and fresh 2062 (the twenty-sixth's).
# An adoption rule should count them all, not only the square, legal
# tables.
EVAL_DIR ?= build/eval
# Each corpus as name:seed:stills[:one renderer flag=value].
EVAL_SPECS = \
  tune2001:2001:240 \
  check2002:2002:300 \
  check2003:2003:300 \
  mistakes2004:2004:120:--mistakes=1 \
  mistakes2005:2005:120:--mistakes=1 \
  yaw5-2006:2006:120:--max-yaw=5 \
  yaw15-2006:2006:120:--max-yaw=15 \
  yaw30-2006:2006:120:--max-yaw=30 \
  fresh2007:2007:120 \
  fresh2008:2008:200 \
  fresh2009:2009:200 \
  fresh2010:2010:200 \
  fresh2011:2011:200 \
  fresh2012:2012:200 \
  fresh2013:2013:200 \
  fresh2014:2014:200 \
  fresh2016:2016:200 \
  fresh2017:2017:200 \
  fresh2018:2018:200 \
  fresh2019:2019:200 \
  fresh2020:2020:120 \
  fresh2023:2023:200 \
  fresh2025:2025:200 \
  fresh2026:2026:200 \
  fresh2027:2027:200 \
  fresh2028:2028:200 \
  fresh2029:2029:200 \
  fresh2030:2030:200 \
  fresh2031:2031:200 \
  fresh2032:2032:200 \
  fresh2033:2033:200 \
  fresh2034:2034:200 \
  fresh2035:2035:200 \
  fresh2036:2036:200 \
  fresh2037:2037:200 \
  nadir2039:2039:200:--nadir-on-cards=1 \
  fresh2040:2040:200 \
  nadir2041:2041:200:--nadir-on-cards=1 \
  fresh2042:2042:200 \
  nadir2043:2043:200:--nadir-on-cards=1 \
  fresh2044:2044:200 \
  nadir2045:2045:200:--nadir-on-cards=1 \
  fresh2046:2046:200 \
  nadir2047:2047:200:--nadir-on-cards=1 \
  fresh2048:2048:200 \
  fresh2049:2049:200 \
  fresh2050:2050:300 \
  fresh2051:2051:300 \
  fresh2052:2052:250 \
  fresh2053:2053:250 \
  fresh2054:2054:250 \
  fresh2055:2055:250 \
  nadir2056:2056:200:--nadir-on-cards=1 \
  nadir2057:2057:200:--nadir-on-cards=1 \
  nadir2058:2058:200:--nadir-on-cards=1 \
  fresh2059:2059:200 \
  fresh2060:2060:120 \
  nadir2061:2061:200:--nadir-on-cards=1 \
  fresh2062:2062:200 \
  nadir2063:2063:200:--nadir-on-cards=1 \
  fresh2064:2064:200 \
  fresh2065:2065:200 \
  fresh2066:2066:200 \
  fresh2067:2067:200 \
  fresh2068:2068:200 \
  fresh2069:2069:200
EVAL_CORPORA = $(foreach s,$(EVAL_SPECS),$(word 1,$(subst :, ,$(s))))
eval_comma := ,
eval_space := $(subst ,, )
# cell_data: celltrain's -data flag for the committed sequences and the folders in $(1).
cell_data = -data vision/testdata/synth/sequences,$(subst $(eval_space),$(eval_comma),$(strip $(1)))
EVAL_LIST = $(subst $(eval_space),$(eval_comma),$(strip vision/testdata/synth/stills vision/testdata/synth-mistakes/stills $(foreach c,$(EVAL_CORPORA),$(EVAL_DIR)/$(c)/stills)))
.PHONY: vision-eval
vision-eval: test-deps render-deps
	@set -e; for spec in $(EVAL_SPECS); do \
	  set -- $$(echo "$$spec" | tr : " "); \
	  $(GO) run ./cmd/bprender corpus --seed $$2 --stills $$3 --sequences "" $$4 --out $(EVAL_DIR)/$$1 --threads $(RENDER_THREADS); \
	done
	$(GO) run ./cmd/blueprints vision bench --corpus $(EVAL_LIST)

# The learned cell reader's training data and networks. The training renders
# use their own seeds (never the bench corpus's) and are not committed:
# 4,306 stills (seeds 1001-1008 and 1010), ~6 h of POV-Ray on one core or
# ~3 h running two at once (resumable; RENDER_THREADS
# to use more), then about 25 minutes of training on two cores. Writes
# vision/model/{top.mlp,pips.cnn,height.cnn,material.cnn} (and removes
# any height*.mlp: the heights come from two CNNs). The built-in pips.cnn
# is four pip CNNs of four trainings averaged (seventh session; see
# vision/model/README.md); this writes one in its place, so merge it with
# others (go run ./vision/cnnmerge) before comparing.
# The renders outlive a checkout if TRAIN_DIR and NADIR_DIR name a folder
# outside it: each seed renders into its own subfolder, so both may name
# the same store (e.g. make cell-model TRAIN_DIR=/work/store
# NADIR_DIR=/work/store; the thirty-third session began one there).
TRAIN_DIR    ?= build/synth-train
TRAIN_STILLS ?= 400 300 400 300 400 400 716 490
# seed 1010: dice turned up to 25 degrees on their cells (the others up to
# 5), so the networks read dice a hand left turned
TURNED_STILLS ?= 900
CELL_FLAGS   ?= -epochs 30 -hidden 64 -pip-convs 16,32,64 -pip-side 32 -pip-cnn-hidden 64 \
  -height-members 0 -height-cnn-members 2 -height-convs 48,96 -height-cnn-hidden 128 \
  -material-convs 32,64 -material-cnn-hidden 64 -pip-glass-weight 3 \
  -train top,pips,height,height-cnn,material-cnn -seed 1
FUZZ_TARGETS += ./vision/internal/mlp:FuzzUnmarshal ./vision:FuzzParseTruthCamera ./vision/internal/imgsize:FuzzCheck

.PHONY: cell-train-data cell-model
cell-train-data: render-deps
	@set -e; seed=1001; for n in $(TRAIN_STILLS); do \
	  $(GO) run ./cmd/bprender corpus --seed $$seed --stills $$n --sequences "" --out $(TRAIN_DIR)/$$seed --threads $(RENDER_THREADS); \
	  seed=$$((seed+1)); done
	$(GO) run ./cmd/bprender corpus --seed 1010 --stills $(TURNED_STILLS) --sequences "" --max-yaw 25 --out $(TRAIN_DIR)/1010 --threads $(RENDER_THREADS)

cell-model: test-deps cell-train-data
	$(GO) run ./vision/celltrain -data vision/testdata/synth/sequences,$(TRAIN_DIR) $(CELL_FLAGS)

# The nadir height CNNs (vision/model/height_nadir.cnn, vision/nadir.go):
# since the twenty-seventh session two CNNs learned from random weights on
# the cells under the camera of the committed sequences and 3,700 renders
# (1201 as usual, 1202 glass-heavy, 1301-1308 with the camera over a card;
# about 3 h of POV-Ray on one core), each level's face read as a finer
# patch (24x24 over 1.2 die edges, -nadir-side 24); about 37 minutes on
# two cores after the renders. Since the twenty-eighth session they are
# then fine-tuned, each from its own weights, on those and 800 renders
# more (1309, 1310; 4,500 in all): 10 epochs at step 5e-4, about 17
# minutes more. Since the twenty-ninth session two more networks read the
# face at side 32 (-nadir-side 32: the same recipe from random weights on
# all 4,500 renders, about 64 minutes, then fine-tuned from their own
# weights, about 25 minutes), and the file holds all four (cnnmerge
# -mixed; the detector averages them). The committed file was trained on
# the same renders kept in another folder, so its split by path differs
# and a re-run writes a slightly different file.
NADIR_DIR ?= build/synth-nadir
NADIR_FLAGS ?= -nadir-side 24 -max-slide 0.3 -train height-cnn \
  -height-cnn-members 2 -height-convs 32,64,96 -height-cnn-hidden 128 -height-members 0 -out-height "" \
  -epochs 30 -seed 1
.PHONY: nadir-train-data nadir-model
nadir-train-data: render-deps
	$(GO) run ./cmd/bprender corpus --seed 1201 --stills 400 --sequences "" --out $(NADIR_DIR)/1201 --threads $(RENDER_THREADS)
	$(GO) run ./cmd/bprender corpus --seed 1202 --stills 300 --sequences "" --glass-tops 0.7 --out $(NADIR_DIR)/1202 --threads $(RENDER_THREADS)
	@set -e; for spec in 1301:400 1302:400 1303:400 1304:400 1305:400 1306:400 1307:200 1308:400 1309:400 1310:400; do \
	  set -- $$(echo "$$spec" | tr : " "); \
	  $(GO) run ./cmd/bprender corpus --seed $$1 --stills $$2 --sequences "" --nadir-on-cards 1 --out $(NADIR_DIR)/$$1 --threads $(RENDER_THREADS); done

NADIR_HEIGHT_DATA = $(foreach s,1201 1202 1301 1302 1303 1304 1305 1306 1307 1308,$(NADIR_DIR)/$(s))
NADIR_REFIT_DATA = $(NADIR_HEIGHT_DATA) $(NADIR_DIR)/1309 $(NADIR_DIR)/1310
NADIR_REFIT_FLAGS ?= $(NADIR_FLAGS) -epochs 10 -lr 5e-4
nadir-model: test-deps nadir-train-data
	$(GO) run ./vision/celltrain $(call cell_data,$(NADIR_HEIGHT_DATA)) $(NADIR_FLAGS) -out-height-cnn build/height_nadir_base.cnn
	$(GO) run ./vision/celltrain $(call cell_data,$(NADIR_REFIT_DATA)) $(NADIR_REFIT_FLAGS) -height-from build/height_nadir_base.cnn -out-height-cnn build/height_nadir_24.cnn
	$(GO) run ./vision/celltrain $(call cell_data,$(NADIR_REFIT_DATA)) $(NADIR_FLAGS) -nadir-side 32 -out-height-cnn build/height_nadir_32base.cnn
	$(GO) run ./vision/celltrain $(call cell_data,$(NADIR_REFIT_DATA)) $(NADIR_REFIT_FLAGS) -nadir-side 32 -height-from build/height_nadir_32base.cnn -out-height-cnn build/height_nadir_32.cnn
	$(GO) run ./vision/cnnmerge -mixed -out vision/model/height_nadir.cnn build/height_nadir_24.cnn build/height_nadir_32.cnn

# More training renders, under seeds no committed network learned from,
# in the mix of the sets above: per round one plain corpus (seed 3000+i,
# 400 stills), one with the camera over a card (3100+i, 400,
# --nadir-on-cards 1) and one glass-heavy (3200+i, 300, --glass-tops
# 0.7); about 80 minutes of POV-Ray a round on two cores (1,100 stills,
# about 14 a minute). For a retrain larger
# than the committed recipes (see vision/JOURNAL.md, "The thirty-fourth session").
# Resumable, like every bprender corpus; MORE_DIR may name a store outside
# the checkout (the thirty-fourth session renders into /work/store).
MORE_DIR    ?= build/synth-more
MORE_ROUNDS ?= 1
MORE_SPECS   = 3000:400 3100:400:--nadir-on-cards=1 3200:300:--glass-tops=0.7
.PHONY: more-train-data
more-train-data: render-deps
	@set -e; for i in $$(seq 1 $(MORE_ROUNDS)); do for spec in $(MORE_SPECS); do \
	  set -- $$(echo "$$spec" | tr : " "); seed=$$(($$1+i)); \
	  $(GO) run ./cmd/bprender corpus --seed $$seed --stills $$2 --sequences "" $$3 --out $(MORE_DIR)/$$seed --threads $(RENDER_THREADS); \
	done; done

# The nadir pip CNNs (vision/model/pips_nadir.cnn, read in place of
# pips.cnn for the stacks under the camera): the four built-in pip CNNs
# fine-tuned, each from its own weights, on the stacks sliding under 0.3
# of a face per die of the committed sequences and renders 1201, 1202 and
# 1301-1308 (3,700 stills; 1301-1308 with the camera over a card); about
# 11 minutes on two cores after the renders (twenty-fourth session, on
# 1201 and 1306-1308 only; the twenty-sixth added 1202 and 1301-1305; see
# vision/model/README.md). It starts from vision/model/pips.cnn as it is
# (pips-refit's since the twenty-fifth session).
NADIR_PIP_DATA = $(NADIR_HEIGHT_DATA)
NADIR_PIP_FLAGS ?= -max-slide 0.3 -train pips -pip-side 32 -pip-convs 16,32,64 -pip-cnn-hidden 64 \
  -pip-cnn-members 4 -pip-from vision/model/pips.cnn -pip-glass-weight 3 -height-members 0 -out-height "" \
  -epochs 20 -lr 5e-4 -seed 1
.PHONY: nadir-pips-model
nadir-pips-model: test-deps nadir-train-data
	$(GO) run ./vision/celltrain $(call cell_data,$(NADIR_PIP_DATA)) $(NADIR_PIP_FLAGS) -out-pips vision/model/pips_nadir.cnn

# The built-in pips.cnn, material.cnn and height.cnn since the
# twenty-fifth session: the four pip CNNs, the material CNN and the two
# height CNNs fine-tuned, each from its own
# weights, on every stack of the committed sequences, the training renders
# 1001-1003 and the renders 1201, 1202 and 1301-1308 (NADIR_DIR; about
# 4,800 images), about 31, 8 and 25 minutes on two cores after the
# renders (see vision/model/README.md). Each starts from the built-in file
# and writes it again. The committed files were trained with 1003 partly
# rendered (its first 150 stills for the pips, 223 for the material, 230
# for the heights) and
# on renders kept in other folders (their paths seed the trainer's split),
# so a re-run writes slightly different files.
REFIT_DATA = $(foreach s,1001 1002 1003,$(TRAIN_DIR)/$(s)) $(NADIR_HEIGHT_DATA)
REFIT_DATA_FLAG = $(call cell_data,$(REFIT_DATA))
PIPS_REFIT_FLAGS ?= -train pips -pip-side 32 -pip-convs 16,32,64 -pip-cnn-hidden 64 \
  -pip-cnn-members 4 -pip-from vision/model/pips.cnn -pip-glass-weight 3 -height-members 0 -out-height "" \
  -epochs 20 -lr 5e-4 -seed 1
MATERIAL_REFIT_FLAGS ?= -train material-cnn -material-convs 32,64 -material-cnn-hidden 64 \
  -material-from vision/model/material.cnn -height-members 0 -out-height "" -epochs 20 -lr 5e-4 -seed 1
HEIGHT_REFIT_FLAGS ?= -train height-cnn -height-from vision/model/height.cnn -height-cnn-members 2 \
  -height-convs 48,96 -height-cnn-hidden 128 -height-members 0 -out-height "" -epochs 15 -lr 5e-4 -seed 1
.PHONY: pips-refit material-refit height-refit
pips-refit: test-deps cell-train-data nadir-train-data
	$(GO) run ./vision/celltrain $(REFIT_DATA_FLAG) $(PIPS_REFIT_FLAGS) -out-pips vision/model/pips.cnn
material-refit: test-deps cell-train-data nadir-train-data
	$(GO) run ./vision/celltrain $(REFIT_DATA_FLAG) $(MATERIAL_REFIT_FLAGS) -out-material-cnn vision/model/material.cnn
height-refit: test-deps cell-train-data nadir-train-data
	$(GO) run ./vision/celltrain $(REFIT_DATA_FLAG) $(HEIGHT_REFIT_FLAGS) -out-height-cnn vision/model/height.cnn

# The built-in pips.cnn since the forty-sixth session: the four pip CNNs
# pips-refit wrote (the twenty-fifth session's, as committed in ea935c5)
# fine-tuned again, each from its own weights, on every stack of the
# committed sequences and the forty-first to forty-fourth sessions'
# judging corpora, fresh 2109-2140 (6,400 stills, 200 each, drawn as the
# bench is; about 11 h of POV-Ray on one core, ~5.5 h two at once): 10
# epochs at step 5e-4, a tenth of the images kept out to measure; about
# 12 minutes on two cores after the renders. Judged on fourteen corpora
# none of it learned from (vision/JOURNAL.md, the forty-sixth session).
# The committed file's renders were kept in other folders (their paths
# seed the split), so a re-run writes a slightly different file.
FRESH_DIR ?= build/synth-fresh
FRESH_SEEDS ?= $(shell seq 2109 2140)
PIPS_FRESH_FROM ?= ea935c5
# pips-refit's flags, the later ones taking the place of its -epochs and
# -pip-from (the last of a flag given twice counts)
PIPS_FRESH_FLAGS ?= $(PIPS_REFIT_FLAGS) -epochs 10 -val 0.1
.PHONY: fresh-train-data pips-refit-fresh
fresh-train-data: render-deps
	@set -e; for s in $(FRESH_SEEDS); do \
	  $(GO) run ./cmd/bprender corpus --seed $$s --stills 200 --sequences "" --out $(FRESH_DIR)/$$s --threads $(RENDER_THREADS); done
pips-refit-fresh: test-deps fresh-train-data
	mkdir -p build && git show $(PIPS_FRESH_FROM):vision/model/pips.cnn > build/pips_refit25.cnn
	$(GO) run ./vision/celltrain $(call cell_data,$(foreach s,$(FRESH_SEEDS),$(FRESH_DIR)/$(s)/stills)) \
	  $(PIPS_FRESH_FLAGS) -pip-from build/pips_refit25.cnn -out-pips vision/model/pips.cnn

# The glass levels network (glass_levels.cnn, read for the stacks read
# with a clear glass top: vision/glasslevels.go), learned in the
# fifty-fifth session and built in since the fifty-sixth, behind a gate
# (vision/JOURNAL.md): two networks (seeds differ) of the pip patches at
# three levels, learned from every clear glass top the bench would score
# of fresh 2141-2146 and 2167-2186 (5,200 stills drawn as the bench is;
# about 9 h of POV-Ray on one core), a tenth of the images kept out to
# measure; about 11 minutes on two cores after the renders. It writes a
# model folder, the built-in networks and a new one, to judge with
# --cell-model $(GLASS_MODEL_DIR) against the built-in file before it
# replaces it. The built-in file's renders were kept in other folders
# (their paths seed the split), so a re-run writes a slightly different
# file.
GLASS_LEVELS_SEEDS ?= $(shell seq 2141 2146) $(shell seq 2167 2186)
GLASS_LEVELS_FLAGS ?= -train glass-levels -glass-levels-convs 24,48,96 -glass-levels-hidden 96 \
  -glass-levels-members 2 -epochs 15 -lr 2e-3 -val 0.1 -height-members 0 -out-height "" -seed 1
GLASS_MODEL_DIR ?= build/glass-model
.PHONY: glass-levels-train-data glass-levels-model
glass-levels-train-data: render-deps
	@set -e; for s in $(GLASS_LEVELS_SEEDS); do [ -f $(FRESH_DIR)/$$s/stills/still_0199.json ] || \
	  $(GO) run ./cmd/bprender corpus --seed $$s --stills 200 --sequences "" --out $(FRESH_DIR)/$$s --threads $(RENDER_THREADS); done
glass-levels-model: test-deps glass-levels-train-data
	mkdir -p $(GLASS_MODEL_DIR) && cp vision/model/*.mlp vision/model/*.cnn $(GLASS_MODEL_DIR)/
	$(GO) run ./vision/celltrain -data $(subst $(eval_space),$(eval_comma),$(strip $(foreach s,$(GLASS_LEVELS_SEEDS),$(FRESH_DIR)/$(s)/stills))) \
	  $(GLASS_LEVELS_FLAGS) -out-glass-levels $(GLASS_MODEL_DIR)/glass_levels.cnn
