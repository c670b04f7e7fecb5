package main

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"image"
	"image/draw"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"sync"

	"github.com/blueprints-companion/blueprints/vision/synth"
)

// The bench's exclusions (package vision): a cell any hand touches is left
// out of the stack counts, and so is a stack other dice hide by half.
const (
	benchHiddenByDice = 0.5
)

// twinLine is one glass top's line of the --out file.
type twinLine struct {
	Still   int       `json:"still"`
	Seat    int       `json:"seat"`
	Row     int       `json:"row"`
	Col     int       `json:"col"`
	Stack   string    `json:"stack"`
	Hand    float64   `json:"hand_occlusion"`
	Dice    float64   `json:"dice_occlusion"`
	Window  [4]int    `json:"window"`
	DPrime  []float64 `json:"d_prime_twins"`
	Min     float64   `json:"d_prime"`
	Values  []int     `json:"twin_values"`
	Closest int       `json:"closest_value"`
	RMSAll  []float64 `json:"grey_rms_twins"`
	PError  float64   `json:"p_error"`
	RMS     float64   `json:"grey_rms"`
	Most    float64   `json:"grey_max"`
	JPEG    float64   `json:"jpeg_rms"`
	Noise   float64   `json:"noise_sigma"`
	Blur    float64   `json:"blur_sigma"`
}

// runTwins: for each still of a corpus (the same scenes as bprender corpus
// with the same flags renders), every clear glass top die the bench counts
// is rendered as it stands and turned over (7-v on top), and the least
// error of an ideal reader telling the two apart is summed (synth.Twin).
func runTwins(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("bprender twins", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var c common
	c.register(fs)
	seed := fs.Uint64("seed", 1, "corpus seed")
	stills := fs.Int("stills", 300, "stills of the corpus")
	first := fs.Int("first", 0, "first still to measure")
	count := fs.Int("count", 0, "stills to measure (0: to the end)")
	jobs := fs.Int("jobs", 1, "stills measured at once (each runs its own POV-Ray)")
	out := fs.String("out", "", "write one JSON line per glass top here")
	every := fs.Bool("every", false, "compare with every other top value (20 twins a die), not only the die turned over (7-v, 4 twins)")
	images := fs.String("images", "", "write each glass top's render and its twins side by side here (twin_STILL_SEAT_RC.png)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	if *stills < 1 || *stills > 100000 || *first < 0 || *first >= *stills || *count < 0 || *jobs < 1 || *jobs > 64 {
		return fmt.Errorf("--stills %d, --first %d, --count %d, --jobs %d: want 0 <= first < stills <= 100000, count >= 0, jobs 1-64", *stills, *first, *count, *jobs)
	}
	items, ropt, err := c.corpusScenes(*seed, *stills)
	if err != nil {
		return err
	}
	end := *stills
	if *count > 0 && *count < end-*first {
		end = *first + *count // (not first+count: it overflowed at huge counts)
	}
	type result struct {
		twins  []synth.Twin
		stacks int
	}
	var lines []twinLine
	stacks, done := 0, 0
	err = eachStill(ctx, *first, end, *jobs, func(i int) (result, error) {
		sc := items[i].Scene
		tw, err := synth.GlassTwins(ctx, sc, ropt, *every)
		return result{twins: tw, stacks: countedStacks(sc)}, err
	}, func(i int, r result) error {
		done++
		stacks += r.stacks
		for _, t := range r.twins {
			if *images != "" {
				if err := writeTwinImage(*images, i, t); err != nil {
					return err
				}
			}
			lines = append(lines, twinLine{Still: i, Seat: t.Seat, Row: t.Row, Col: t.Col, Stack: t.Stack,
				Hand: t.Hand, Dice: t.Dice, Window: [4]int{t.Window.Min.X, t.Window.Min.Y, t.Window.Max.X, t.Window.Max.Y},
				DPrime: t.DPrime, Min: t.Min, Values: t.Values, Closest: t.Closest, RMSAll: t.RMS, PError: t.PError, RMS: t.GreyRMS, Most: t.GreyMax, JPEG: t.JPEGRMS, Noise: t.NoiseSigma, Blur: t.BlurSigma})
		}
		fmt.Fprintf(stderr, "\rtwins: %d/%d stills", done, end-*first)
		return nil
	})
	fmt.Fprintln(stderr)
	if err != nil {
		return err
	}
	sort.Slice(lines, func(a, b int) bool {
		if lines[a].Still != lines[b].Still {
			return lines[a].Still < lines[b].Still
		}
		return lines[a].Seat*10+lines[a].Row*2+lines[a].Col < lines[b].Seat*10+lines[b].Row*2+lines[b].Col
	})
	if *out != "" {
		if err := writeTwinLines(*out, lines); err != nil {
			return err
		}
	}
	printTwinSummary(stdout, lines, stacks, done, *every)
	return nil
}

// countedStacks is how many of sc's stacks the bench counts: no hand
// touches the cell, and other dice hide less than half of its top.
func countedStacks(sc *synth.Scene) int {
	tr := synth.TruthOf(sc, "")
	n := 0
	for _, c := range tr.Cards {
		for _, cell := range c.Cells {
			if cell.Height > 0 && cell.Hand == 0 && cell.Dice < benchHiddenByDice {
				n++
			}
		}
	}
	return n
}

func writeTwinLines(path string, lines []twinLine) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(f)
	enc := json.NewEncoder(w)
	for _, l := range lines {
		if err := enc.Encode(l); err != nil {
			f.Close()
			return err
		}
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

func printTwinSummary(w io.Writer, lines []twinLine, stacks, stills int, every bool) {
	var n, over5, over25, below int
	var sum float64
	var dp, rms, jp []float64
	byHeight := map[int][2]float64{}
	for _, l := range lines {
		if l.Hand > 0 || l.Dice >= benchHiddenByDice {
			continue
		}
		n++
		dp = append(dp, l.Min)
		rms = append(rms, l.RMS)
		jp = append(jp, l.JPEG)
		if l.RMS <= l.JPEG {
			below++
		}
		sum += l.PError
		if l.PError >= 0.05 {
			over5++
		}
		if l.PError >= 0.25 {
			over25++
		}
		h := len(l.Stack)/3 + 1
		bh := byHeight[h]
		bh[0]++
		bh[1] += l.PError
		byHeight[h] = bh
	}
	fmt.Fprintf(w, "%d stills, %d stacks the bench counts, %d with a clear glass top\n", stills, stacks, n)
	if n == 0 {
		return
	}
	against := "v against 7-v"
	if every {
		against = "v against its closest other value"
	}
	fmt.Fprintf(w, "an ideal reader's least expected misreads of those tops' pips (%s): %.1f (%.2f %% of the glass tops, %.2f %% of all stacks)\n",
		against, sum, 100*sum/float64(n), 100*sum/float64(max(stacks, 1)))
	fmt.Fprintf(w, "glass tops with P(error) >= 0.05: %d; >= 0.25: %d\n", over5, over25)
	sort.Float64s(dp)
	sort.Float64s(rms)
	sort.Float64s(jp)
	q := func(v []float64, p float64) float64 { return v[int(p*float64(len(v)-1)+0.5)] }
	fmt.Fprintf(w, "d′ to the closest twin: least %.0f, 5th percentile %.0f, median %.0f\n", dp[0], q(dp, 0.05), q(dp, 0.5))
	fmt.Fprintf(w, "grey RMS difference from the closest twin over the die's window (levels): least %.2f, 5th percentile %.2f, median %.2f\n", rms[0], q(rms, 0.05), q(rms, 0.5))
	fmt.Fprintf(w, "the JPEG's own grey RMS error there: median %.2f, 95th percentile %.2f; glass tops whose closest twin differs by no more: %d\n", q(jp, 0.5), q(jp, 0.95), below)
	var hs []int
	for h := range byHeight {
		hs = append(hs, h)
	}
	sort.Ints(hs)
	for _, h := range hs {
		fmt.Fprintf(w, "  %d high: %3.0f glass tops, expected misreads %.1f\n", h, byHeight[h][0], byHeight[h][1])
	}
}

// writeTwinImage writes the die as it stands and its twins side by side.
func writeTwinImage(dir string, still int, t synth.Twin) error {
	if len(t.Images) == 0 {
		return nil
	}
	b := t.Images[0].Bounds()
	sheet := image.NewRGBA(image.Rect(0, 0, b.Dx()*len(t.Images), b.Dy()))
	for k, im := range t.Images {
		draw.Draw(sheet, image.Rect(k*b.Dx(), 0, (k+1)*b.Dx(), b.Dy()), im, b.Min, draw.Src)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	return synth.WritePNGFile(filepath.Join(dir, fmt.Sprintf("twin_%04d_%d_r%dc%d.png", still, t.Seat, t.Row+1, t.Col+1)), sheet)
}

// runVariants writes, for each still of a corpus (the scenes bprender
// corpus renders with the same flags) that has a clear glass top, the still
// and --variants copies of it whose glass tops show other values
// (synth.GlassVariants): DIR/stills/still_NNNN_K.jpg and .json, K = 0 the
// still itself. Stills already written are skipped.
func runVariants(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("bprender variants", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var c common
	c.register(fs)
	seed := fs.Uint64("seed", 1, "corpus seed")
	stills := fs.Int("stills", 300, "stills of the corpus")
	n := fs.Int("variants", 5, "variants of each still with glass tops (5: each glass top with every other value once)")
	jobs := fs.Int("jobs", 1, "stills rendered at once (each runs its own POV-Ray)")
	out := fs.String("out", "", "output directory (required)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	if *out == "" {
		return fmt.Errorf("--out is required")
	}
	if *stills < 1 || *stills > 100000 || *n < 1 || *n > 20 || *jobs < 1 || *jobs > 64 {
		return fmt.Errorf("--stills %d, --variants %d, --jobs %d: want stills 1-100000, variants 1-20, jobs 1-64", *stills, *n, *jobs)
	}
	items, ropt, err := c.corpusScenes(*seed, *stills)
	if err != nil {
		return err
	}
	dir := filepath.Join(*out, "stills")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	name := func(i, k int) string { return filepath.Join(dir, fmt.Sprintf("still_%04d_%d", i, k)) }
	done, written := 0, 0
	err = eachStill(ctx, 0, *stills, *jobs, func(i int) (int, error) {
		return writeVariants(ctx, items[i].Scene, ropt, *n, *seed, i, name)
	}, func(i, k int) error {
		done++
		written += k
		fmt.Fprintf(stderr, "\rvariants: %d/%d stills, %d images", done, *stills, written)
		return nil
	})
	fmt.Fprintln(stderr)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "variants %s: %d images\n", dir, written)
	return nil
}

// writeVariants renders still i's glass variants unless they are there; it
// returns how many images it wrote.
func writeVariants(ctx context.Context, sc *synth.Scene, ropt synth.RenderOptions, n int, seed uint64, i int, name func(i, k int) string) (int, error) {
	if len(synth.GlassTops(sc)) == 0 {
		return 0, nil
	}
	if _, err := os.Stat(name(i, n) + ".json"); err == nil {
		return 0, nil
	}
	rng := rand.New(rand.NewPCG(seed, uint64(i)))
	vs, err := synth.GlassVariants(ctx, sc, ropt, n, rng)
	if err != nil {
		return 0, err
	}
	for k, v := range vs {
		p := name(i, k)
		if err := synth.WriteJPEG(p+".jpg", v.Image, v.Scene.Post.JPEGQuality); err != nil {
			return k, err
		}
		if err := synth.WriteTruth(p+".json", synth.TruthOf(v.Scene, filepath.Base(p)+".jpg")); err != nil {
			return k, err
		}
	}
	return len(vs), nil
}

// corpusScenes are the stills' scenes of the corpus bprender corpus renders
// with these flags, and the render options (POV-Ray must be there).
func (c *common) corpusScenes(seed uint64, stills int) ([]synth.CorpusItem, synth.RenderOptions, error) {
	opt, ropt, err := c.options()
	if err != nil {
		return nil, ropt, err
	}
	if err := synth.CheckPovray(ropt.Povray); err != nil {
		return nil, ropt, err
	}
	items, err := synth.CorpusItems(synth.CorpusOptions{Seed: seed, Stills: stills, Options: opt})
	return items, ropt, err
}

// eachStill runs do for each still index from first to end (not included)
// on jobs goroutines at once, in no set order, and report with each
// result, one call at a time. It hands out no more stills after the first
// error (of do, with the still's index, or of report) or once ctx ends,
// waits for the stills under way, and returns that error.
func eachStill[T any](ctx context.Context, first, end, jobs int, do func(i int) (T, error), report func(i int, v T) error) error {
	work := make(chan int)
	var mu sync.Mutex
	var firstErr error
	failed := func() bool { mu.Lock(); defer mu.Unlock(); return firstErr != nil }
	var wg sync.WaitGroup
	for w := 0; w < jobs; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range work {
				v, err := do(i)
				mu.Lock()
				if err != nil {
					err = fmt.Errorf("still %d: %w", i, err)
				} else if firstErr == nil {
					err = report(i, v)
				}
				if err != nil && firstErr == nil {
					firstErr = err
				}
				mu.Unlock()
			}
		}()
	}
	for i := first; i < end && !failed() && ctx.Err() == nil; i++ {
		select {
		case work <- i:
		case <-ctx.Done():
		}
	}
	close(work)
	wg.Wait()
	if firstErr != nil {
		return firstErr
	}
	return ctx.Err()
}
