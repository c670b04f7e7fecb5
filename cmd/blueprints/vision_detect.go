package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime/pprof"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/viper"

	"github.com/blueprints-companion/blueprints/vision"
	"github.com/blueprints-companion/blueprints/vision/cardmodel"
)

func init() {
	visionSubcommands = append(visionSubcommands, newVisionDetectCmd, newVisionBenchCmd)
}

// newVisionDetectCmd is `blueprints vision detect`: read every card of one
// overhead image.
func newVisionDetectCmd(v *viper.Viper) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "detect",
		Short: "Read every blueprint card in one overhead image: each cell's stack height, top die, confidence",
		Long: `detect finds every blueprint card in an overhead image of the table and
reads each of its 3x2 cells: the stack's height and its top die (material
and pips), with a confidence, or null for an empty cell. A cell that cannot
be seen — a hand over it, or hidden behind a taller stack beside it — is
{"occluded":true} with no reading, rather than a guess.

  blueprints vision detect --image IMG --truth-camera TRUTH.json [--json] [--debug-out DIR]

The camera (intrinsics and pose over the table) comes from --truth-camera,
which takes only the camera of a renderer truth file, standing in for
calibration until it exists. The card geometry is configs/card.json
(--card-model FILE for another). --debug-out DIR writes DIR/NAME.debug.png:
each card's outline and seat, the cell grid, and every reading with its
confidence, so a person can see why.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := bindFlags(v, cmd); err != nil {
				return err
			}
			return runVisionDetect(cmd.OutOrStdout(), cmd.ErrOrStderr(), v)
		},
	}
	f := cmd.Flags()
	f.String("image", "", "overhead image of the table")
	f.String("truth-camera", "", "renderer truth file whose camera (only) to use")
	detectorFlags(cmd)
	f.String("debug-out", "", "folder for an annotated PNG of what was read")
	f.Bool("json", false, "print JSON")
	return cmd
}

// maxSeats is the most seats --seats names: a game has 2-4 players.
const maxSeats = 4

// newDetector makes the detector the flags ask for: the card model, and
// the cell reader (the built-in networks, others from --cell-model DIR, or
// the hand-written rules with --classical).
func newDetector(v *viper.Viper, name string) (*vision.Detector, error) {
	opts := vision.Options{Model: cardmodel.Default(), Classical: v.GetBool("classical"), EveryMember: v.GetBool("every-member"), NoPipScale: v.GetBool("no-pip-scale"), NoGlassLevels: v.GetBool("no-glass-levels"), NoMovedPips: v.GetBool("no-moved-pips")}
	if seats := strings.TrimSpace(v.GetString("seats")); seats != "" {
		for i, f := range strings.Split(seats, ",") {
			deg, err := strconv.ParseFloat(strings.TrimSpace(f), 64)
			if err != nil || !(deg >= -360 && deg <= 360) { // (NaN too)
				return nil, &exitError{code: 2, msg: fmt.Sprintf("blueprints vision %s: --seats: seat %d: %q is not an angle in degrees (-360..360)", name, i, strings.TrimSpace(f))}
			}
			for j, other := range opts.SeatUp {
				if math.Mod(deg-other+720, 360) == 0 {
					return nil, &exitError{code: 2, msg: fmt.Sprintf("blueprints vision %s: --seats: seats %d and %d both face %g degrees: their cards could not be told apart", name, j, i, deg)}
				}
			}
			opts.SeatUp = append(opts.SeatUp, deg)
		}
		if len(opts.SeatUp) > maxSeats {
			return nil, &exitError{code: 2, msg: fmt.Sprintf("blueprints vision %s: --seats: %d angles, but a game has at most %d players", name, len(opts.SeatUp), maxSeats)}
		}
	}
	if views := strings.TrimSpace(v.GetString("views")); views != "" {
		vw, err := parseViews(views)
		if err != nil {
			return nil, &exitError{code: 2, msg: fmt.Sprintf("blueprints vision %s: --views: %v", name, err)}
		}
		opts.Views = vw
	}
	if path := v.GetString("card-model"); path != "" {
		m, err := cardmodel.Load(path)
		if err != nil {
			return nil, &exitError{code: 2, msg: fmt.Sprintf("blueprints vision %s: --card-model: %v", name, err)}
		}
		opts.Model = m
	}
	d := vision.NewDetector(opts)
	if err := setInPlay(d, v.GetString("in-play"), name); err != nil {
		d.Close()
		return nil, err
	}
	if dir := v.GetString("cell-model"); dir != "" {
		if opts.Classical {
			d.Close()
			return nil, &exitError{code: 2, msg: fmt.Sprintf("blueprints vision %s: --cell-model and --classical exclude each other", name)}
		}
		pips := filepath.Join(dir, "pips.cnn")
		if _, err := os.Stat(pips); err != nil {
			pips = filepath.Join(dir, "pips.mlp")
		}
		if err := d.UseNetworkFiles(filepath.Join(dir, "top.mlp"), pips); err != nil {
			d.Close()
			return nil, &exitError{code: 2, msg: fmt.Sprintf("blueprints vision %s: --cell-model: %v", name, err)}
		}
	}
	return d, nil
}

// parseViews reads --views: "H,M,P" or "H,M,P,B", the views of the height,
// material and pip networks and the probability below which a cell's
// extra height views are read.
func parseViews(s string) (vision.Views, error) {
	parts := strings.Split(s, ",")
	if len(parts) != 3 && len(parts) != 4 {
		return vision.Views{}, fmt.Errorf("%q: want height,material,pips views (1, 2, 4 or 8 each) and optionally the height probability below which to read more views, e.g. 4,8,8,0.9", s)
	}
	var n [3]int
	for i := 0; i < 3; i++ {
		k, err := strconv.Atoi(strings.TrimSpace(parts[i]))
		if err != nil {
			return vision.Views{}, fmt.Errorf("%q: %q is not a whole number of views", s, parts[i])
		}
		n[i] = k
	}
	vw := vision.Views{Height: n[0], Material: n[1], Pips: n[2]}
	if len(parts) == 4 {
		b, err := strconv.ParseFloat(strings.TrimSpace(parts[3]), 64)
		if err != nil || !(b > 0 && b <= 1) {
			return vision.Views{}, fmt.Errorf("%q: %q is not a probability above 0 and at most 1", s, parts[3])
		}
		vw.HeightBelow = b
	}
	for _, k := range n {
		if k < 1 {
			return vision.Views{}, fmt.Errorf("%q: at least 1 view each", s)
		}
	}
	if err := vw.Validate(); err != nil {
		return vision.Views{}, fmt.Errorf("%q: %v", s, err)
	}
	return vw, nil
}

// setInPlay tells d the seats --in-play lists ("truth": each still's own,
// bench only).
func setInPlay(d *vision.Detector, list, name string) error {
	list = strings.TrimSpace(list)
	if list == "" {
		return nil
	}
	if list == "truth" {
		if name != "bench" {
			return &exitError{code: 2, msg: fmt.Sprintf("blueprints vision %s: --in-play truth: only bench has truth files to take the seats from", name)}
		}
		d.SetInPlayFromTruth(true)
		return nil
	}
	var seats []int
	for i, f := range strings.Split(list, ",") {
		s, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil {
			return &exitError{code: 2, msg: fmt.Sprintf("blueprints vision %s: --in-play: entry %d: %q is not a seat number", name, i, strings.TrimSpace(f))}
		}
		seats = append(seats, s)
	}
	if err := d.SetInPlay(seats); err != nil {
		return &exitError{code: 2, msg: fmt.Sprintf("blueprints vision %s: --in-play: %v", name, err)}
	}
	return nil
}

// detectorFlags adds the flags newDetector reads.
func detectorFlags(cmd *cobra.Command) {
	f := cmd.Flags()
	f.String("card-model", "", "card model file (default: configs/card.json as built in)")
	f.String("cell-model", "", "folder with top.mlp, pips.cnn (or pips.mlp) and optionally height.cnn, height*.mlp, material.cnn, pips_glass.cnn (pips of tops read as glass), height_nadir.cnn (heights of the cells under the camera), height_fine.cnn (heights of the other cells where the height CNNs are unsure), pips_nadir.cnn (pips of the stacks under the camera), glass_levels.cnn (clear glass tops' heights and pips read together) (vision/celltrain) to read cells with (default: the built-in networks)")
	f.Bool("classical", false, "read cells with the hand-written rules instead of the networks")
	f.Bool("no-pip-scale", false, "keep the height networks' reads of the stacks on cards under the camera instead of the heights their pips' spacing gives (for comparison)")
	f.Bool("no-moved-pips", false, "read each stack's pips from the patch over its cell's centre alone, also where the read is unsure (for comparison)")
	f.Bool("no-glass-levels", false, "read clear glass tops without the glass levels network: their height and pips as the height and pip networks read them (for comparison)")
	f.Bool("every-member", false, "read every member of the height and pip CNN ensembles for every cell, also where the first half of them is already sure (slower; the same reads on every corpus measured)")
	f.String("views", "", "height,material,pips[,below]: in how many symmetries of the square (1, 2, 4, 8) each network reads its input, averaged; height views past the first only where the plain reading is less sure than below (default: vision.DefaultViews)")
	f.String("seats", "", "per seat, the direction its card's printed top points on the table, degrees from +x counter-clockwise, comma-separated (default 90,0,-90,180: seats south, west, north, east)")
	f.String("in-play", "", "the seats players sit at, comma-separated seat numbers (e.g. 0,2 for two players facing each other): a frame stops looking once each has a card, instead of searching for the cards of empty seats; bench also takes \"truth\", each still's own (default: every seat)")
}

// detectJSON is the JSON form of a detection.
type detectJSON struct {
	Image string     `json:"image"`
	Cards []cardJSON `json:"cards"`
}

type cardJSON struct {
	Seat     int                   `json:"seat"`
	Corners  [4][2]float64         `json:"corners"`
	Occluded bool                  `json:"occluded"`
	Cells    [3][2]*cellReadingOut `json:"cells"`
	// UnderCamera: some of the card's cells lie almost straight under the
	// camera, where heights read less surely (absent when none do)
	UnderCamera bool `json:"under_camera,omitempty"`
	// SlidePx: the least and greatest pixels a stack's top face on the
	// card's cells moves per die of height (vision.Card.SlidePx; stacks
	// read best at 6-12)
	SlidePx [2]float64 `json:"slide_px"`
}

type cellReadingOut struct {
	Height     int     `json:"height"`
	Top        string  `json:"top"`
	Confidence float64 `json:"confidence"`
	Occluded   bool    `json:"occluded"`
	behindDice bool    // (not in the JSON) occluded by the card's other stacks, not a hand
}

func round2(x float64) float64 { return float64(int64(x*100+0.5)) / 100 }

func round1(x float64) float64 { return float64(int64(x*10+0.5)) / 10 }

func toDetectJSON(image string, res vision.Result) detectJSON {
	out := detectJSON{Image: image, Cards: []cardJSON{}}
	for _, c := range res.Cards {
		cj := cardJSON{Seat: c.Seat, Occluded: c.Occluded, UnderCamera: c.UnderCamera, SlidePx: [2]float64{round1(c.SlidePx[0]), round1(c.SlidePx[1])}}
		for k := range c.Corners {
			cj.Corners[k] = [2]float64{round2(c.Corners[k][0]), round2(c.Corners[k][1])}
		}
		for r := range c.Cells {
			for col, cell := range c.Cells[r] {
				if cell != nil {
					cj.Cells[r][col] = &cellReadingOut{Height: cell.Height, Top: cell.Top, Confidence: round2(cell.Confidence), Occluded: cell.Occluded, behindDice: cell.BehindDice}
				}
			}
		}
		out.Cards = append(out.Cards, cj)
	}
	return out
}

func runVisionDetect(w, errW io.Writer, v *viper.Viper) error {
	img, truth := v.GetString("image"), v.GetString("truth-camera")
	if img == "" {
		return &exitError{code: 2, msg: "blueprints vision detect: --image is required"}
	}
	if truth == "" {
		return &exitError{code: 2, msg: "blueprints vision detect: no camera: pass --truth-camera TRUTH.json (calibration is not built yet)"}
	}
	cam, err := vision.LoadTruthCamera(truth)
	if err != nil {
		return &exitError{code: 2, msg: "blueprints vision detect: --truth-camera: " + err.Error()}
	}
	if _, err := os.Stat(img); err != nil {
		return &exitError{code: 2, msg: fmt.Sprintf("blueprints vision detect: --image: %v", err)}
	}
	d, err := newDetector(v, "detect")
	if err != nil {
		return err
	}
	defer d.Close()
	var res vision.Result
	if dir := v.GetString("debug-out"); dir != "" {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return &exitError{code: 2, msg: fmt.Sprintf("blueprints vision detect: --debug-out: %v", err)}
		}
		out := filepath.Join(dir, strings.TrimSuffix(filepath.Base(img), filepath.Ext(img))+".debug.png")
		res, err = d.DebugImage(img, cam, out)
		if err == nil {
			fmt.Fprintf(errW, "blueprints vision detect: wrote %s\n", out)
		}
	} else {
		res, err = d.DetectFile(img, cam)
	}
	if err != nil {
		return &exitError{code: 2, msg: "blueprints vision detect: " + err.Error()}
	}
	dj := toDetectJSON(img, res)
	if v.GetBool("json") {
		writeJSON(w, dj)
		return nil
	}
	for _, c := range dj.Cards {
		fmt.Fprintf(w, "seat %d card at (%.0f,%.0f)", c.Seat, c.Corners[0][0], c.Corners[0][1])
		if c.Occluded {
			fmt.Fprint(w, " (partly hidden)")
		}
		if c.SlidePx[1] > 0 {
			fmt.Fprintf(w, " (faces slide %.1f-%.1f px per die)", c.SlidePx[0], c.SlidePx[1])
		}
		if c.UnderCamera {
			fmt.Fprint(w, " (under the camera: its heights read less surely; mount the camera over the middle of the table)")
		}
		fmt.Fprintln(w)
		for r, row := range c.Cells {
			fmt.Fprintf(w, "  row %d:", r+1)
			for _, cell := range row {
				switch {
				case cell == nil:
					fmt.Fprintf(w, "  %-18s", "empty")
				case cell.behindDice:
					fmt.Fprintf(w, "  %-18s", "behind other dice")
				case cell.Occluded:
					fmt.Fprintf(w, "  %-18s", "under a hand")
				default:
					top := cell.Top
					if top == "" {
						top = "??"
					}
					fmt.Fprintf(w, "  %-18s", fmt.Sprintf("%d high, top %s (%.2f)", cell.Height, top, cell.Confidence))
				}
			}
			fmt.Fprintln(w)
		}
	}
	return nil
}

// newVisionBenchCmd is `blueprints vision bench`: accuracy over a corpus.
func newVisionBenchCmd(v *viper.Viper) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "bench",
		Short: "Run detect over a corpus with truth files and print accuracy per attribute and condition",
		Long: `bench runs detect on every image of a corpus folder that has a renderer
truth file beside it (using the truth's camera only) and prints the
accuracy per attribute (card found, seat, empty/occupied, material, pips,
height, whole stack), per material, per height, per condition and (height) per
slide of the top face per die in pixels, and the
median milliseconds per frame.

  blueprints vision bench --corpus vision/testdata/synth/stills --json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := bindFlags(v, cmd); err != nil {
				return err
			}
			corpus := v.GetString("corpus")
			if corpus == "" {
				return &exitError{code: 2, msg: "blueprints vision bench: --corpus is required"}
			}
			dirs := strings.Split(corpus, ",")
			for _, dir := range dirs {
				if st, err := os.Stat(dir); err != nil || !st.IsDir() {
					return &exitError{code: 2, msg: fmt.Sprintf("blueprints vision bench: --corpus %s: not a folder", dir)}
				}
			}
			d, err := newDetector(v, "bench")
			if err != nil {
				return err
			}
			defer d.Close()
			repeat := v.GetInt("repeat")
			if repeat < 1 {
				return &exitError{code: 2, msg: fmt.Sprintf("blueprints vision bench: --repeat %d: want at least 1", repeat)}
			}
			d.SetBenchRepeat(repeat)
			if path := v.GetString("cells-out"); path != "" {
				f, err := os.Create(path)
				if err != nil {
					return &exitError{code: 2, msg: "blueprints vision bench: --cells-out " + err.Error()}
				}
				w := bufio.NewWriter(f)
				d.SetCellLog(w)
				defer func() {
					if err := w.Flush(); err != nil {
						fmt.Fprintln(cmd.ErrOrStderr(), "blueprints vision bench: --cells-out:", err)
					}
					f.Close()
				}()
			}
			if path := v.GetString("cpuprofile"); path != "" {
				stop, err := startCPUProfile(path)
				if err != nil {
					return &exitError{code: 2, msg: "blueprints vision bench: --cpuprofile " + err.Error()}
				}
				defer stop()
			}
			out := cmd.OutOrStdout()
			if len(dirs) > 1 || v.GetBool("brief") {
				return benchBrief(out, d, dirs, v.GetBool("json"))
			}
			dir := dirs[0]
			rep, err := d.Bench(dir, v.GetInt("failures"))
			if err != nil {
				return &exitError{code: 1, msg: "blueprints vision bench: " + err.Error()}
			}
			if rep.Frames == 0 {
				return noFrames(dir, rep)
			}
			if v.GetBool("json") {
				enc := json.NewEncoder(out)
				enc.SetIndent("", "  ")
				if err := enc.Encode(rep); err != nil {
					return err
				}
				return skipped(dir, rep)
			}
			fmt.Fprintf(out, "%d frames, median %.1f ms per frame (slowest %.1f; %s)\n", rep.Frames, rep.MsPerFrame, rep.MsPerFrameMax, rep.Kernels)
			line := func(name string, t vision.Tally) {
				fmt.Fprintf(out, "  %-16s %6.1f%%  (%d/%d)\n", name, 100*t.Rate, t.Right, t.Total)
				// (a tally with nothing to count reads 0.0% (0/0))
			}
			line("card found", rep.CardFound)
			line("card uncovered", rep.CardFoundUncovered)
			line("card in view", rep.CardFoundInView)
			line("seat", rep.SeatRight)
			line("empty/occupied", rep.Occupancy)
			line("height", rep.Height)
			line("material", rep.Material)
			line("pips", rep.Pips)
			line("whole stack", rep.Stack)
			fmt.Fprintf(out, "  %-16s %6.1f-%.1f%%  (the whole stack rate of corpora like this one, at 95 %%)\n", "", 100*rep.Stack.Low95, 100*rep.Stack.High95)
			line("hand flagged", rep.HandFlagged)
			line("hidden flagged", rep.HiddenByDice)
			for _, m := range "WRSG" {
				if t, ok := rep.StackPerTop[string(m)]; ok {
					line("whole, "+string(m)+" top", t)
				}
			}
			for _, k := range []string{"open", "hidden", "glass under camera"} {
				if t, ok := rep.StackPerSight[k]; ok {
					line("whole, "+k, t)
				}
			}
			for _, k := range vision.SlideKeys() {
				if t, ok := rep.StackPerSlide[k]; ok {
					line("whole, slide "+strings.TrimPrefix(k, "slide="), t)
				}
			}
			for n := 1; n <= 6; n++ {
				if t, ok := rep.StackPerCrowding[fmt.Sprint(n)]; ok {
					line(fmt.Sprintf("whole, %d on card", n), t)
				}
			}
			for _, r := range []string{"hatched-cell", "die-on-higher-value"} {
				if t, ok := rep.StackPerRule[r]; ok {
					line("whole, "+r, t)
				}
			}
			fmt.Fprintln(out, "  reads at least this sure: share of stacks read so, wholly right, empty cells read as stacks")
			for _, c := range rep.ByConfidence {
				fmt.Fprintf(out, "    >= %.1f  %5.1f%%  %6.2f%%  (%d/%d)  %d\n", c.MinConfidence, 100*c.ReadShare, 100*c.Rate, c.Right, c.Read, c.EmptyAsStack)
			}
			for _, f := range rep.Failures {
				fmt.Fprintln(out, "  ", f)
			}
			for _, f := range rep.Skipped {
				fmt.Fprintln(out, "   skipped:", f)
			}
			return skipped(dir, rep)
		},
	}
	f := cmd.Flags()
	f.String("corpus", "", "folder of images with truth files beside them; several, comma-separated, for one line each and their total (as --brief)")
	detectorFlags(cmd)
	f.Int("failures", 0, "list up to this many misread cells and cards (one corpus, not --brief)")
	f.String("cpuprofile", "", "write a CPU profile of the whole run to this file (for go tool pprof)")
	f.String("cells-out", "", "write every cell of the cards found to this file, one line of JSON each: truth, read, the height networks' probabilities (to see why a cell was misread)")
	f.Int("repeat", 1, "detect each frame this many times and time it by the fastest run (a busy machine's pauses left out); every run must read the frame the same")
	f.Bool("json", false, "print JSON (with several corpora: an object of reports by folder)")
	f.Bool("brief", false, "one line per corpus: stacks wholly right (all, and those under the camera: sliding under 3 px per die), empty/occupied mistakes, uncovered cards found, height/material/pips, median corner error; then the total")
	return cmd
}

// benchBrief benches each corpus and prints a line for each and their
// total (or, asJSON, an object of the reports by folder): the view an
// adoption rule over several corpora wants.
func benchBrief(out io.Writer, d *vision.Detector, dirs []string, asJSON bool) error {
	reps := make(map[string]vision.BenchReport, len(dirs))
	var stack, occ, unc, under vision.Tally
	for _, dir := range dirs {
		rep, err := d.Bench(dir, 0)
		if err != nil {
			return &exitError{code: 1, msg: "blueprints vision bench: " + err.Error()}
		}
		if rep.Frames == 0 {
			return noFrames(dir, rep)
		}
		reps[dir] = rep
		nadir := rep.StackPerSlide[underCameraSlide]
		for _, p := range [][2]*vision.Tally{{&stack, &rep.Stack}, {&occ, &rep.Occupancy}, {&unc, &rep.CardFoundUncovered}, {&under, &nadir}} {
			p[0].Right += p[1].Right
			p[0].Total += p[1].Total
		}
	}
	// the corpora's skipped frames fail the run once the figures are out
	skips := func() error {
		for _, dir := range dirs {
			if err := skipped(dir, reps[dir]); err != nil {
				return err
			}
		}
		return nil
	}
	if asJSON {
		enc := json.NewEncoder(out)
		enc.SetIndent("", "  ")
		if err := enc.Encode(reps); err != nil {
			return err
		}
		return skips()
	}
	w := 0
	for _, dir := range dirs {
		w = max(w, len(dir))
	}
	for _, dir := range dirs {
		r := reps[dir]
		nadir := r.StackPerSlide[underCameraSlide]
		fmt.Fprintf(out, "%-*s  whole stack %5d/%-5d %5.1f%%  under the camera %4d/%-4d  empty/occupied mistakes %3d  uncovered cards %4d/%-4d  height/material/pips %5.1f/%5.1f/%5.1f%%  corner %.2f px\n",
			w, dir, r.Stack.Right, r.Stack.Total, 100*r.Stack.Rate, nadir.Right, nadir.Total, r.Occupancy.Total-r.Occupancy.Right, r.CardFoundUncovered.Right, r.CardFoundUncovered.Total,
			100*r.Height.Rate, 100*r.Material.Rate, 100*r.Pips.Rate, r.CornerErrPx)
	}
	rate := func(t vision.Tally) float64 {
		if t.Total == 0 {
			return 0
		}
		return 100 * float64(t.Right) / float64(t.Total)
	}
	lo, hi := stack.Interval95()
	fmt.Fprintf(out, "%-*s  whole stack %5d/%-5d %5.1f%%  under the camera %4d/%-4d  empty/occupied mistakes %3d  uncovered cards %4d/%d  whole stack at 95 %%: %.1f-%.1f%%\n",
		w, "total", stack.Right, stack.Total, rate(stack), under.Right, under.Total, occ.Total-occ.Right, unc.Right, unc.Total, 100*lo, 100*hi)
	for _, dir := range dirs {
		for _, f := range reps[dir].Skipped {
			fmt.Fprintln(out, "skipped:", f)
		}
	}
	return skips()
}

// noFrames is the error for a corpus of which no frame could be scored.
func noFrames(dir string, rep vision.BenchReport) error {
	if len(rep.Skipped) == 0 {
		return &exitError{code: 2, msg: fmt.Sprintf("blueprints vision bench: %s: no image with a truth file", dir)}
	}
	return &exitError{code: 1, msg: fmt.Sprintf("blueprints vision bench: %s: no frame could be scored; %d skipped, the first: %s", dir, len(rep.Skipped), rep.Skipped[0])}
}

// skipped is the error, once the report is printed, for a corpus with
// frames the bench could not score: the figures leave them out.
func skipped(dir string, rep vision.BenchReport) error {
	if len(rep.Skipped) == 0 {
		return nil
	}
	return &exitError{code: 1, msg: fmt.Sprintf("blueprints vision bench: %s: %d of %d frames skipped (listed in the report), the first: %s", dir, len(rep.Skipped), len(rep.Skipped)+rep.Frames, rep.Skipped[0])}
}

// underCameraSlide is the bench's bin of the stacks whose top slides less
// than 3 px per die: those near the table point straight under the camera,
// where heights read worst (--brief shows them beside the whole).
const underCameraSlide = "slide=0-3px"

// startCPUProfile profiles the process's CPU into a new file at path until
// the returned stop is called.
func startCPUProfile(path string) (stop func(), err error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return func() {
		pprof.StopCPUProfile()
		f.Close()
	}, nil
}
