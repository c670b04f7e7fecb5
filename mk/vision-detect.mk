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
