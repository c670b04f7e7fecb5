package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/blueprints-companion/blueprints/vision/synth"
)

var cfg = []string{"--card-model", "../../configs/card.json", "--catalogue", "../../configs/blueprints.json"}

func TestBadInputGetsAClearError(t *testing.T) {
	dir := t.TempDir()
	cases := []struct {
		name string
		args []string
		want string
	}{
		{"no out", []string{"--seed", "1"}, "--out"},
		{"bad count", []string{"--out", dir, "--count", "0"}, "--count"},
		{"bad players", []string{"--out", dir, "--players", "7"}, "--players"},
		{"width without height", []string{"--out", dir, "--width", "640"}, "--width"},
		{"bad pip colour", []string{"--out", dir, "--pip-color", "mauve"}, "pip-color"},
		{"stray argument", []string{"render", "--out", dir}, "unexpected argument"},
		{"unknown flag", []string{"--bogus"}, "bogus"},
		{"missing card model", []string{"--out", dir, "--card-model", filepath.Join(dir, "none.json")}, "cardmodel"},
		{"bad jpeg quality", []string{"--out", dir, "--jpeg-quality", "101"}, "--jpeg-quality"},
		{"bad threads", []string{"--out", dir, "--threads", "0"}, "--threads"},
		{"bad mistakes", []string{"--out", dir, "--mistakes", "1.5"}, "--mistakes"},
		{"bad max yaw", []string{"--out", dir, "--max-yaw", "60"}, "--max-yaw"},
		{"zero max yaw", []string{"corpus", "--out", dir, "--max-yaw", "0"}, "--max-yaw"},
		{"corpus bad sequences", []string{"corpus", "--out", dir, "--sequences", "1,9"}, "--sequences"},
		{"corpus bad width", []string{"corpus", "--out", dir, "--width", "1000"}, "--width 1000"},
		{"corpus bad part", []string{"corpus", "--out", dir, "--only", "frames"}, "--only"},
		{"contact sheet no images", []string{"contact-sheet", "--in", dir}, "no images"},
		{"contact sheet huge thumbs", []string{"contact-sheet", "--in", dir, "--thumb", "100000000"}, "--thumb 100000000"},
		{"contact sheet huge cols", []string{"contact-sheet", "--in", dir, "--cols", "9223372036854775807"}, "--cols"},
		{"NaN hand", []string{"--out", dir, "--hand", "NaN"}, "--hand NaN"},
		{"screen over 1", []string{"--out", dir, "--screen", "1e300"}, "--screen"},
		{"NaN blur", []string{"--out", dir, "--blur", "NaN"}, "--blur"},
		{"overlay without truth", []string{"overlay", "--out", dir}, "--truth"},
		{"overlay unreadable truth", []string{"overlay", "--truth", filepath.Join(dir, "nope.json"), "--out", filepath.Join(dir, "o.png")}, "no such file"},
		{"twins first past the corpus", []string{"twins", "--stills", "10", "--first", "10"}, "--first"},
		{"twins no jobs", []string{"twins", "--jobs", "0"}, "--jobs"},
		{"twins stray argument", []string{"twins", "extra"}, "unexpected argument"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			args := c.args
			if c.name != "missing card model" {
				args = append(args, cfg...)
			}
			if c.args[0] == "contact-sheet" || c.args[0] == "overlay" {
				args = c.args
			}
			var out, errb bytes.Buffer
			err := run(context.Background(), args, &out, &errb)
			require.Error(t, err)
			assert.Contains(t, err.Error()+errb.String(), c.want)
		})
	}
}

// TestRenderOneStill renders a small still end to end and reads its truth.
func TestRenderOneStill(t *testing.T) {
	if _, err := exec.LookPath("povray"); err != nil {
		t.Fatalf("povray is not installed (Debian package povray; `make test-deps` installs it): %v", err)
	}
	dir := t.TempDir()
	var out, errb bytes.Buffer
	args := append([]string{"--seed", "3", "--width", "480", "--height", "270", "--out", dir, "--noise", "0", "--blur", "0", "--jpeg-quality", "90"}, cfg...)
	require.NoError(t, run(context.Background(), args, &out, &errb), errb.String())
	tr, err := synth.ReadTruthFile(filepath.Join(dir, "still_3.json"))
	require.NoError(t, err)
	assert.Equal(t, 480, tr.Width)
	assert.Equal(t, 90, tr.Render.JPEGQuality)
	assert.Zero(t, tr.Render.NoiseSigma)
	assert.FileExists(t, filepath.Join(dir, tr.Image))

	// and a contact sheet of it
	sheet := filepath.Join(dir, "sheet.png")
	require.NoError(t, run(context.Background(), []string{"contact-sheet", "--in", dir, "--glob", "*.jpg", "--out", sheet, "--cols", "2", "--thumb", "100"}, &out, &errb))
	assert.FileExists(t, sheet)

	// and the truth drawn over it
	ov := filepath.Join(dir, "overlay.png")
	require.NoError(t, run(context.Background(), []string{"overlay", "--truth", filepath.Join(dir, "still_3.json"), "--out", ov}, &out, &errb))
	assert.FileExists(t, ov)
}

// eachStill reports every still once, one at a time; after an error it
// hands out no more and returns the first, naming the still.
func TestEachStill(t *testing.T) {
	seen := map[int]int{}
	err := eachStill(context.Background(), 3, 40, 4, func(i int) (int, error) { return i * i, nil },
		func(i, v int) error { seen[i] = v; return nil })
	require.NoError(t, err)
	require.Len(t, seen, 37)
	for i := 3; i < 40; i++ {
		assert.Equal(t, i*i, seen[i])
	}
	// With one worker the error is recorded before the next still is taken,
	// so at most the still already offered (6) is read after it. (With two,
	// the other worker rightly reads on while the first is still inside
	// still 5 on a busy machine: a bound on that count was a timing test.)
	calls := 0
	err = eachStill(context.Background(), 0, 1000, 1, func(i int) (int, error) {
		calls++
		if i == 5 {
			return 0, errors.New("boom")
		}
		return i, nil
	}, func(int, int) error { return nil })
	require.ErrorContains(t, err, "still 5: boom")
	assert.LessOrEqual(t, calls, 7, "stills handed out after the error")
	err = eachStill(context.Background(), 0, 10, 1, func(i int) (int, error) { return i, nil },
		func(i, _ int) error { return fmt.Errorf("report %d", i) })
	require.ErrorContains(t, err, "report 0")
}

// TestCorpusOutDirectory: corpus makes --out with its parents (an empty
// corpus used to fail on the manifest's temporary file), and an --out it
// cannot make or write in is named as --out.
func TestCorpusOutDirectory(t *testing.T) {
	dir := t.TempDir()
	empty := []string{"--stills", "0", "--sequences", "", "--truth-only"}
	corpus := func(out string) error {
		var stdout, stderr bytes.Buffer
		return run(context.Background(), append(append([]string{"corpus", "--out", out}, empty...), cfg...), &stdout, &stderr)
	}
	deep := filepath.Join(dir, "new", "corpus")
	require.NoError(t, corpus(deep))
	assert.FileExists(t, filepath.Join(deep, "manifest.json"))
	entries, err := os.ReadDir(deep)
	require.NoError(t, err)
	assert.Len(t, entries, 1, "only the manifest is left in --out")

	file := filepath.Join(dir, "file")
	require.NoError(t, os.WriteFile(file, nil, 0o644))
	err = corpus(filepath.Join(file, "corpus"))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "--out "+filepath.Join(file, "corpus")+": cannot make the directory: ")
	assert.Contains(t, err.Error(), "not a directory")

	if os.Geteuid() == 0 {
		t.Log("running as root: an unwritable --out is not checked")
		return
	}
	ro := filepath.Join(dir, "read-only")
	require.NoError(t, os.Mkdir(ro, 0o555))
	err = corpus(ro)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "--out "+ro+": cannot write in the directory: ")
	assert.ErrorIs(t, err, os.ErrPermission)
}
