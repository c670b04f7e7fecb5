package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/blueprints-companion/blueprints/vision"
)

// stills is the committed corpus of rendered stills with truth.
var stills = filepath.Join("..", "..", "vision", "testdata", "synth", "stills")

func still(n string) (img, truth string) {
	return filepath.Join(stills, "still_"+n+".jpg"), filepath.Join(stills, "still_"+n+".json")
}

// TestVisionDetectJSON reads a four-card still and checks the JSON's shape
// against the format and the truth: every card found at its seat,
// its corners near the truth's.
func TestVisionDetectJSON(t *testing.T) {
	img, truth := still("0007")
	debug := t.TempDir()
	root := newRootCmd()
	var stdout, stderr bytes.Buffer
	root.SetOut(&stdout)
	root.SetErr(&stderr)
	root.SetArgs([]string{"vision", "detect", "--image", img, "--truth-camera", truth, "--json", "--debug-out", debug})
	require.NoError(t, root.Execute())
	out := stdout.String()
	assert.Contains(t, stderr.String(), "wrote "+filepath.Join(debug, "still_0007.debug.png"), "the debug image is announced on stderr, not in the JSON")
	var got struct {
		Cards []struct {
			Seat    int           `json:"seat"`
			Corners [4][2]float64 `json:"corners"`
			Cells   [3][2]*struct {
				Height     int     `json:"height"`
				Top        string  `json:"top"`
				Confidence float64 `json:"confidence"`
				Occluded   bool    `json:"occluded"`
			} `json:"cells"`
		} `json:"cards"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &got), out)
	var want struct {
		Cards []struct {
			Seat      int           `json:"seat"`
			CornersPx [4][2]float64 `json:"corners_px"`
		} `json:"cards"`
	}
	data, err := os.ReadFile(truth)
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(data, &want))
	require.Len(t, got.Cards, len(want.Cards))
	for i, c := range got.Cards {
		w := want.Cards[i]
		assert.Equal(t, w.Seat, c.Seat, "cards come nearest seat first")
		for k := range c.Corners {
			assert.InDelta(t, w.CornersPx[k][0], c.Corners[k][0], 4, "seat %d corner %d x", c.Seat, k)
			assert.InDelta(t, w.CornersPx[k][1], c.Corners[k][1], 4, "seat %d corner %d y", c.Seat, k)
		}
		for _, row := range c.Cells {
			for _, cell := range row {
				if cell == nil || cell.Occluded {
					continue
				}
				assert.True(t, cell.Height >= 1 && cell.Height <= 6, "height %d", cell.Height)
				assert.Len(t, cell.Top, 2)
				assert.True(t, strings.ContainsRune("WRSG", rune(cell.Top[0])), cell.Top)
				assert.True(t, cell.Confidence >= 0 && cell.Confidence <= 1)
			}
		}
	}
	st, err := os.Stat(filepath.Join(debug, "still_0007.debug.png"))
	require.NoError(t, err, "--debug-out writes the annotated image")
	assert.Greater(t, st.Size(), int64(10000))

	// --seats turns the seating: the card that faced seat 0 now faces seat 2.
	out, code, msg := run(t, "", "vision", "detect", "--image", img, "--truth-camera", truth, "--json", "--seats", "-90,180,90,0")
	require.Equal(t, 0, code, msg)
	var turned struct {
		Cards []struct {
			Seat    int           `json:"seat"`
			Corners [4][2]float64 `json:"corners"`
		} `json:"cards"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &turned))
	for _, c := range turned.Cards {
		for _, o := range got.Cards {
			if o.Corners == c.Corners {
				assert.Equal(t, (o.Seat+2)%4, c.Seat)
			}
		}
	}
}

func TestVisionDetectErrors(t *testing.T) {
	img, truth := still("0007")
	dir := t.TempDir()
	junk := filepath.Join(dir, "junk.jpg")
	require.NoError(t, os.WriteFile(junk, []byte("not a picture"), 0o644))
	badTruth := filepath.Join(dir, "truth.json")
	require.NoError(t, os.WriteFile(badTruth, []byte(`{"camera":{"fx":-1}}`), 0o644))
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--truth-camera", truth}, "--image is required"},
		{[]string{"--image", img}, "no camera"},
		{[]string{"--image", filepath.Join(dir, "none.jpg"), "--truth-camera", truth}, "--image"},
		{[]string{"--image", junk, "--truth-camera", truth}, "unreadable image"},
		{[]string{"--image", img, "--truth-camera", badTruth}, "--truth-camera"},
		{[]string{"--image", img, "--truth-camera", truth, "--seats", "90,north"}, `seat 1: "north" is not an angle`},
		{[]string{"--image", img, "--truth-camera", truth, "--cell-model", dir}, "--cell-model"},
		{[]string{"--image", img, "--truth-camera", truth, "--cell-model", dir, "--classical"}, "exclude each other"},
		{[]string{"--image", img, "--truth-camera", truth, "--card-model", junk}, "--card-model"},
		{[]string{"--image", img, "--truth-camera", truth, "--views", "3,1,1"}, "height views: 3 (want 1, 2, 4 or 8)"},
		{[]string{"--image", img, "--truth-camera", truth, "--views", "8,1"}, "want height,material,pips views"},
		{[]string{"--image", img, "--truth-camera", truth, "--views", "8,1,x"}, `"x" is not a whole number`},
		{[]string{"--image", img, "--truth-camera", truth, "--views", "8,1,1,high"}, `"high" is not a probability`},
		{[]string{"--image", img, "--truth-camera", truth, "--views", "8,1,1,5"}, `"5" is not a probability`},
		{[]string{"--image", img, "--truth-camera", truth, "--views", "8,1,1,NaN"}, `"NaN" is not a probability`},
		{[]string{"--image", img, "--truth-camera", truth, "--seats", "NaN,0"}, `seat 0: "NaN" is not an angle`},
		{[]string{"--image", img, "--truth-camera", truth, "--seats", "90,-270"}, "seats 0 and 1 both face"},
		{[]string{"--image", img, "--truth-camera", truth, "--seats", "0,45,90,135,180"}, "5 angles, but a game has at most 4"},
		{[]string{"--image", img, "--truth-camera", truth, "--views", "0,1,1"}, "at least 1 view each"},
		{[]string{"--image", img, "--truth-camera", truth, "--in-play", "0,two"}, `--in-play: entry 1: "two" is not a seat number`},
		{[]string{"--image", img, "--truth-camera", truth, "--in-play", "0,4"}, "seat 4 in play: the seats are 0..3"},
		{[]string{"--image", img, "--truth-camera", truth, "--in-play", "-1"}, "seat -1 in play"},
		{[]string{"--image", img, "--truth-camera", truth, "--in-play", "truth"}, "only bench has truth files"},
	} {
		_, code, msg := run(t, "", append([]string{"vision", "detect"}, tc.args...)...)
		assert.Equal(t, 2, code, "%v: %s", tc.args, msg)
		assert.Contains(t, msg, tc.want, "%v", tc.args)
	}
}

// TestVisionBenchJSON benches three stills copied to a folder and checks
// the report's keys and that it counts what the truth holds.
// copyStills copies stills (image and truth) of the committed corpus into a
// new folder.
func copyStills(t *testing.T, names ...string) string {
	t.Helper()
	dir := t.TempDir()
	for _, n := range names {
		for _, p := range []string{"still_" + n + ".jpg", "still_" + n + ".json"} {
			data, err := os.ReadFile(filepath.Join(stills, p))
			require.NoError(t, err)
			require.NoError(t, os.WriteFile(filepath.Join(dir, p), data, 0o644))
		}
	}
	return dir
}

// Several corpora: a line each and their total, which adds them up; with
// --json the reports by folder; a folder that is not one is refused.
func TestVisionBenchSeveralCorpora(t *testing.T) {
	a, b := copyStills(t, "0007", "0021"), copyStills(t, "0034", "0022") // 0022: stacks under the camera
	out, code, msg := run(t, "", "vision", "bench", "--corpus", a+","+b)
	require.Equal(t, 0, code, msg)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	require.Len(t, lines, 3, out)
	var sum, sumUnder [2]int
	tally := func(l, key string) (right, total int) {
		k := strings.Index(l, key)
		require.GreaterOrEqual(t, k, 0, l)
		_, err := fmt.Sscanf(strings.TrimSpace(l[k+len(key):]), "%d/%d", &right, &total)
		require.NoError(t, err, l)
		return right, total
	}
	for i, l := range lines {
		right, total := tally(l, "whole stack")
		require.Positive(t, total, l)
		ur, ut := tally(l, "under the camera")
		assert.LessOrEqual(t, ut, total, l)
		if i < 2 {
			assert.True(t, strings.HasPrefix(l, []string{a, b}[i]), l)
			sum[0] += right
			sum[1] += total
			sumUnder[0] += ur
			sumUnder[1] += ut
		} else {
			assert.True(t, strings.HasPrefix(l, "total"), l)
			assert.Equal(t, sum, [2]int{right, total}, "the total adds the corpora up")
			assert.Equal(t, sumUnder, [2]int{ur, ut}, "and the stacks under the camera")
			var lo, hi float64
			k := strings.Index(l, "whole stack at 95 %:")
			require.GreaterOrEqual(t, k, 0, l)
			_, err := fmt.Sscanf(l[k+len("whole stack at 95 %:"):], " %f-%f%%", &lo, &hi)
			require.NoError(t, err, l)
			rate := 100 * float64(right) / float64(total)
			assert.True(t, lo < rate && rate <= hi, "the total's interval %.1f-%.1f holds its rate %.1f", lo, hi, rate)
		}
	}
	assert.Positive(t, sumUnder[1], "still_0022 has stacks under the camera")
	out, code, msg = run(t, "", "vision", "bench", "--corpus", a+","+b, "--json")
	require.Equal(t, 0, code, msg)
	var reps map[string]struct {
		WholeStack struct{ Right, Total int } `json:"whole_stack"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &reps), out)
	assert.Len(t, reps, 2)
	assert.Equal(t, sum[1], reps[a].WholeStack.Total+reps[b].WholeStack.Total)
	_, code, msg = run(t, "", "vision", "bench", "--corpus", a+","+filepath.Join(b, "nope"))
	assert.Equal(t, 2, code)
	assert.Contains(t, msg, "nope: not a folder")
}

// A frame whose image is cut short is skipped and named; the others are
// still scored and the report printed, and the run fails (status 1) so
// that a script notices.
func TestVisionBenchSkipsUnreadable(t *testing.T) {
	dir := copyStills(t, "0007", "0021", "0034")
	img := filepath.Join(dir, "still_0021.jpg")
	data, err := os.ReadFile(img)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(img, data[:len(data)/3], 0o644))
	out, code, msg := run(t, "", "vision", "bench", "--corpus", dir, "--json")
	assert.Equal(t, 1, code)
	assert.Contains(t, msg, "1 of 3 frames skipped")
	assert.Contains(t, msg, "still_0021.jpg: the JPEG file ends before its end-of-image marker")
	var rep struct {
		Frames  int                 `json:"frames"`
		Skipped []string            `json:"skipped_frames"`
		Stack   struct{ Total int } `json:"whole_stack"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &rep), out)
	assert.Equal(t, 2, rep.Frames)
	require.Len(t, rep.Skipped, 1)
	assert.Contains(t, rep.Skipped[0], "still_0021.jpg")
	assert.Positive(t, rep.Stack.Total)
	out, code, _ = run(t, "", "vision", "bench", "--corpus", dir)
	assert.Equal(t, 1, code)
	assert.Contains(t, out, "2 frames")
	assert.Contains(t, out, "skipped: ")
	// every frame unreadable: no report, and a message saying why
	for _, n := range []string{"0007", "0034"} {
		require.NoError(t, os.WriteFile(filepath.Join(dir, "still_"+n+".jpg"), []byte("not an image"), 0o644))
	}
	_, code, msg = run(t, "", "vision", "bench", "--corpus", dir, "--json")
	assert.Equal(t, 1, code)
	assert.Contains(t, msg, "no frame could be scored; 3 skipped")
	assert.Contains(t, msg, "not an image of a format")
}

func TestVisionBenchJSON(t *testing.T) {
	dir := copyStills(t, "0007", "0021", "0034")
	out, code, msg := run(t, "", "vision", "bench", "--corpus", dir, "--json")
	require.Equal(t, 0, code, msg)
	var rep map[string]json.RawMessage
	require.NoError(t, json.Unmarshal([]byte(out), &rep), out)
	for _, k := range []string{"card_found", "card_found_uncovered", "card_found_in_view", "empty_occupied", "material", "pips", "height", "whole_stack", "per_material", "per_height", "per_condition", "height_per_slide", "whole_stack_per_slide", "whole_stack_per_top", "whole_stack_per_rule", "whole_stack_per_stacks_on_card", "whole_stack_by_confidence", "ms_per_frame_median", "kernels"} {
		assert.Contains(t, rep, k)
	}
	assert.Contains(t, string(rep["kernels"]), "networks ", "which kernels timed the frames")
	var stack struct{ Right, Total int }
	require.NoError(t, json.Unmarshal(rep["whole_stack"], &stack))
	require.Positive(t, stack.Total)
	var perTop map[string]struct{ Right, Total int }
	require.NoError(t, json.Unmarshal(rep["whole_stack_per_top"], &perTop))
	var topRight, topTotal int
	for _, tl := range perTop {
		topRight += tl.Right
		topTotal += tl.Total
	}
	assert.Equal(t, [2]int{stack.Right, stack.Total}, [2]int{topRight, topTotal}, "the tops add up to the stacks")
	var perRule map[string]struct{ Right, Total int }
	require.NoError(t, json.Unmarshal(rep["whole_stack_per_rule"], &perRule))
	assert.Equal(t, [2]int{stack.Right, stack.Total}, [2]int{perRule["legal"].Right, perRule["legal"].Total}, "the committed stills' buildings are all legal")
	var perCrowd map[string]struct{ Right, Total int }
	require.NoError(t, json.Unmarshal(rep["whole_stack_per_stacks_on_card"], &perCrowd))
	var crowdRight, crowdTotal int
	for k, tl := range perCrowd {
		assert.Contains(t, []string{"1", "2", "3", "4", "5", "6"}, k, "stacks on a card")
		crowdRight += tl.Right
		crowdTotal += tl.Total
	}
	assert.Equal(t, [2]int{stack.Right, stack.Total}, [2]int{crowdRight, crowdTotal}, "the cards' stack counts add up to the stacks")
	// the slide bins split the stacks, and the text report lists each
	var perSlide map[string]struct{ Right, Total int }
	require.NoError(t, json.Unmarshal(rep["whole_stack_per_slide"], &perSlide))
	var slideRight, slideTotal int
	for k, tl := range perSlide {
		assert.Contains(t, vision.SlideKeys(), k, "slide bin")
		slideRight += tl.Right
		slideTotal += tl.Total
	}
	assert.Equal(t, [2]int{stack.Right, stack.Total}, [2]int{slideRight, slideTotal}, "the slide bins add up to the stacks")
	text, code, msg := run(t, "", "vision", "bench", "--corpus", dir)
	require.Equal(t, 0, code, msg)
	for k, tl := range perSlide {
		assert.Contains(t, text, fmt.Sprintf("whole, slide %s", strings.TrimPrefix(k, "slide=")), "text report")
		assert.Contains(t, text, fmt.Sprintf("(%d/%d)", tl.Right, tl.Total), "text report, %s", k)
	}
	var byConf []struct {
		MinConfidence float64 `json:"min_confidence"`
		Stacks, Read  int
		Right         int
	}
	require.NoError(t, json.Unmarshal(rep["whole_stack_by_confidence"], &byConf))
	require.Len(t, byConf, len(vision.ConfidenceSteps))
	assert.Equal(t, stack.Total, byConf[0].Stacks)
	assert.Equal(t, stack.Right, byConf[0].Right, "a stack read wholly right is read as a stack")
	for i := 1; i < len(byConf); i++ {
		assert.LessOrEqual(t, byConf[i].Read, byConf[i-1].Read, "surer reads are fewer")
	}
	var frames int
	require.NoError(t, json.Unmarshal(rep["frames"], &frames))
	assert.Equal(t, 3, frames)
	var found struct{ Right, Total int }
	require.NoError(t, json.Unmarshal(rep["card_found"], &found))
	assert.Equal(t, 9, found.Total, "4 + 2 + 3 cards in the three truths")
	var inPlay string
	require.NoError(t, json.Unmarshal(rep["seats_in_play"], &inPlay))
	assert.Equal(t, "every seat", inPlay)

	// --in-play truth: the same stills, each with its own seats in play,
	// and the report says so; --in-play 0,2 names the seats
	for _, tc := range [][2]string{{"truth", "each still's truth"}, {" 0, 2", "0,2"}} {
		out, code, msg = run(t, "", "vision", "bench", "--corpus", dir, "--json", "--in-play", tc[0])
		require.Equal(t, 0, code, msg)
		var r struct {
			InPlay string              `json:"seats_in_play"`
			Found  struct{ Total int } `json:"card_found"`
		}
		require.NoError(t, json.Unmarshal([]byte(out), &r), out)
		assert.Equal(t, tc[1], r.InPlay)
		assert.Equal(t, 9, r.Found.Total)
	}

	_, code, msg = run(t, "", "vision", "bench", "--corpus", t.TempDir())
	assert.Equal(t, 2, code)
	assert.Contains(t, msg, "no image with a truth file")
	_, code, msg = run(t, "", "vision", "bench")
	assert.Equal(t, 2, code)
	assert.Contains(t, msg, "--corpus is required")
}

// A card with cells almost straight under the camera says so, in the JSON
// (under_camera, absent on the others) and in the text; every card says
// how far its cells' top faces slide per die (slide_px), under 3 px under
// the camera.
func TestVisionDetectUnderCamera(t *testing.T) {
	img, truth := still("0022") // seat 1's card lies under the camera
	out, code, msg := run(t, "", "vision", "detect", "--image", img, "--truth-camera", truth, "--json")
	require.Equal(t, 0, code, msg)
	var got struct {
		Cards []map[string]json.RawMessage `json:"cards"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &got), out)
	under := map[int]bool{}
	for _, c := range got.Cards {
		var seat int
		require.NoError(t, json.Unmarshal(c["seat"], &seat))
		if raw, ok := c["under_camera"]; ok {
			assert.Equal(t, "true", string(raw), "seat %d", seat)
			under[seat] = true
		}
		var slide [2]float64
		require.NoError(t, json.Unmarshal(c["slide_px"], &slide), "seat %d", seat)
		assert.Positive(t, slide[0], "seat %d", seat)
		assert.LessOrEqual(t, slide[0], slide[1], "seat %d: least, then greatest", seat)
		assert.Equal(t, seat == 1, slide[0] < 3, "seat %d: slide %v", seat, slide)
	}
	assert.Equal(t, map[int]bool{1: true}, under, "only seat 1's card")
	text, code, msg := run(t, "", "vision", "detect", "--image", img, "--truth-camera", truth)
	require.Equal(t, 0, code, msg)
	assert.Contains(t, text, "seat 1 card at")
	assert.Equal(t, 1, strings.Count(text, "under the camera"), text)
	assert.Equal(t, len(got.Cards), strings.Count(text, "px per die)"), text)
}

// TestVisionBenchRepeat: --repeat times each frame by the fastest of its
// runs, reads the same as one run, says how many runs in the JSON, and a
// count below one is refused by name.
func TestVisionBenchRepeat(t *testing.T) {
	dir := copyStills(t, "0007", "0021")
	once, code, msg := run(t, "", "vision", "bench", "--corpus", dir, "--json")
	require.Equal(t, 0, code, msg)
	thrice, code, msg := run(t, "", "vision", "bench", "--corpus", dir, "--json", "--repeat", "3")
	require.Equal(t, 0, code, msg)
	var a, b map[string]json.RawMessage
	require.NoError(t, json.Unmarshal([]byte(once), &a))
	require.NoError(t, json.Unmarshal([]byte(thrice), &b))
	assert.JSONEq(t, "1", string(a["timing_runs"]))
	assert.JSONEq(t, "3", string(b["timing_runs"]))
	for k := range a {
		if strings.HasPrefix(k, "ms_per_frame") || k == "timing_runs" {
			continue
		}
		assert.JSONEq(t, string(a[k]), string(b[k]), k)
	}
	_, code, msg = run(t, "", "vision", "bench", "--corpus", dir, "--repeat", "0")
	assert.Equal(t, 2, code)
	assert.Contains(t, msg, "--repeat 0")
}

// TestVisionBenchCPUProfile: --cpuprofile writes a gzipped pprof profile
// of the run; a file that cannot be made is named in the error.
func TestVisionBenchCPUProfile(t *testing.T) {
	dir := copyStills(t, "0007")
	prof := filepath.Join(t.TempDir(), "bench.pgo")
	_, code, msg := run(t, "", "vision", "bench", "--corpus", dir, "--cpuprofile", prof)
	require.Equal(t, 0, code, msg)
	data, err := os.ReadFile(prof)
	require.NoError(t, err)
	require.Greater(t, len(data), 2)
	assert.Equal(t, []byte{0x1f, 0x8b}, data[:2], "a pprof profile is gzipped")

	bad := filepath.Join(t.TempDir(), "no-such-dir", "bench.pgo")
	_, code, msg = run(t, "", "vision", "bench", "--corpus", dir, "--cpuprofile", bad)
	assert.Equal(t, 2, code)
	assert.Contains(t, msg, "no-such-dir")
}

// --cells-out writes a line of JSON for every cell of every card found:
// what detect reads there, the truth, and the height networks' six-level
// probabilities; a file that cannot be made is refused by name.
func TestVisionBenchCellsOut(t *testing.T) {
	dir := copyStills(t, "0007", "0022") // 0022: stacks under the camera
	log := filepath.Join(t.TempDir(), "cells.jsonl")
	out, code, msg := run(t, "", "vision", "bench", "--corpus", dir, "--cells-out", log, "--json")
	require.Equal(t, 0, code, msg)
	var rep struct {
		CardFound struct{ Right int } `json:"card_found"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &rep), out)
	data, err := os.ReadFile(log)
	require.NoError(t, err)
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	require.Len(t, lines, 6*rep.CardFound.Right, "six cells for each card found")

	// what detect reads on still_0007, by seat
	img := filepath.Join(dir, "still_0007.jpg")
	out, code, msg = run(t, "", "vision", "detect", "--image", img, "--truth-camera", filepath.Join(dir, "still_0007.json"), "--json")
	require.Equal(t, 0, code, msg)
	var det struct {
		Cards []struct {
			Seat  int
			Cells [3][2]*struct {
				Height   int
				Top      string
				Occluded bool
			}
		}
	}
	require.NoError(t, json.Unmarshal([]byte(out), &det), out)
	seen := 0
	for _, l := range lines {
		var rec struct {
			Image   string    `json:"image"`
			Seat    int       `json:"seat"`
			R       int       `json:"row"`
			C       int       `json:"col"`
			Read    string    `json:"read"`
			HeightP []float32 `json:"height_p"`
		}
		require.NoError(t, json.Unmarshal([]byte(l), &rec), l)
		require.Len(t, rec.HeightP, 8, l)
		var sum float32
		for _, p := range rec.HeightP {
			sum += p
		}
		assert.InDelta(t, 1, sum, 1e-3, "probabilities: %s", l)
		if rec.Image != img {
			assert.Equal(t, filepath.Join(dir, "still_0022.jpg"), rec.Image)
			continue
		}
		for _, c := range det.Cards {
			if c.Seat != rec.Seat {
				continue
			}
			want := "empty"
			switch cell := c.Cells[rec.R][rec.C]; {
			case cell == nil:
			case cell.Occluded:
				want = "occluded"
			default:
				want = fmt.Sprintf("%d %s", cell.Height, cell.Top)
			}
			assert.Equal(t, want, rec.Read, "seat %d r%dc%d", rec.Seat, rec.R, rec.C)
			seen++
		}
	}
	assert.Positive(t, seen, "still_0007's cells are in the log")

	bad := filepath.Join(t.TempDir(), "no-such-dir", "cells.jsonl")
	_, code, msg = run(t, "", "vision", "bench", "--corpus", dir, "--cells-out", bad)
	assert.Equal(t, 2, code)
	assert.Contains(t, msg, "--cells-out")
	assert.Contains(t, msg, "no-such-dir")
}

// TestVisionDetectEveryMember: --every-member reads every member of the
// networks' ensembles; the same still gives the same cards, heights, tops
// and flags with it as without (the thirty-second session's rule).
func TestVisionDetectEveryMember(t *testing.T) {
	img, truth := still("0007")
	type reads struct {
		Cards []struct {
			Seat  int `json:"seat"`
			Cells [3][2]*struct {
				Height   int    `json:"height"`
				Top      string `json:"top"`
				Occluded bool   `json:"occluded"`
			} `json:"cells"`
		} `json:"cards"`
	}
	var got [2]reads
	for i, extra := range [][]string{nil, {"--every-member"}} {
		args := append([]string{"vision", "detect", "--image", img, "--truth-camera", truth, "--json"}, extra...)
		out, code, msg := run(t, "", args...)
		require.Equal(t, 0, code, msg)
		require.NoError(t, json.Unmarshal([]byte(out), &got[i]), out)
	}
	require.NotEmpty(t, got[0].Cards)
	stacks := 0
	for _, c := range got[0].Cards {
		for _, row := range c.Cells {
			for _, cell := range row {
				if cell != nil {
					stacks++
				}
			}
		}
	}
	assert.Greater(t, stacks, 3)
	assert.Equal(t, got[1], got[0])
	_, code, msg := run(t, "", "vision", "detect", "--image", img, "--truth-camera", truth, "--every-member=maybe")
	assert.Equal(t, 2, code)
	assert.Contains(t, msg, "every-member")
}
