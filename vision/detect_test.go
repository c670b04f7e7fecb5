package vision

import (
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/blueprints-companion/blueprints/vision/cardmodel"
	"github.com/blueprints-companion/blueprints/vision/internal/imgsize"
	"github.com/blueprints-companion/blueprints/vision/internal/pix"
	"gocv.io/x/gocv"
)

const corpus = "testdata/synth/stills"

// TestDetectOnCorpus runs the detector over the committed corpus of 300
// rendered stills (never used in training: the built-in networks learn
// from other renders) and holds it to just below the accuracy it reached
// when the networks were last trained (README.md, "Vision"); a change that
// reads worse fails here. These are still short of the targets (99.5%
// whole stack).
func TestDetectOnCorpus(t *testing.T) {
	if _, err := os.Stat(corpus); err != nil {
		t.Fatalf("the rendered corpus is missing (%v): it is committed in vision/%s", err, corpus)
	}
	d := NewDetector(Options{})
	defer d.Close()
	rep, err := d.Bench(corpus, 0)
	require.NoError(t, err)
	require.GreaterOrEqual(t, rep.Frames, 300)
	t.Logf("frames %d: card %.3f uncovered %.3f seat %.3f occupancy %.3f height %.3f material %.3f pips %.3f stack %.3f hand flagged %.3f not falsely occluded %.4f, %.1f ms/frame",
		rep.Frames, rep.CardFound.Rate, rep.CardFoundUncovered.Rate, rep.SeatRight.Rate, rep.Occupancy.Rate, rep.Height.Rate, rep.Material.Rate, rep.Pips.Rate, rep.Stack.Rate, rep.HandFlagged.Rate, rep.NoFalseOcclusion.Rate, rep.MsPerFrame)
	for _, c := range []struct {
		name      string
		got, want float64
	}{
		{"card found, uncovered", rep.CardFoundUncovered.Rate, minCardFound},
		{"card found, no cell behind a hand or a screen", rep.CardFoundInView.Rate, minCardFound},
		{"seat", rep.SeatRight.Rate, 0.99},
		{"empty/occupied", rep.Occupancy.Rate, minOccupancy},
		{"height", rep.Height.Rate, minHeight},
		{"material", rep.Material.Rate, minMaterial},
		{"pips", rep.Pips.Rate, minPips},
		{"whole stack", rep.Stack.Rate, minStack},
		{"covered cells flagged", rep.HandFlagged.Rate, minHandFlagged},
		{"stacks hidden by other dice flagged", rep.HiddenByDice.Rate, minHiddenFlagged},
		{"clear cells not flagged", rep.NoFalseOcclusion.Rate, minNotFalselyOccluded},
	} {
		assert.GreaterOrEqual(t, c.got, c.want, c.name)
	}
	assert.LessOrEqual(t, rep.CornerErrPx, 0.5, "median corner error")
	assert.LessOrEqual(t, rep.FalseCards, maxFalseCards, "cards where none lies")
	// cards with a cell behind a screen are uncovered but not in view
	assert.Less(t, rep.CardFoundInView.Total, rep.CardFoundUncovered.Total, "the corpus has screens over cards")
	assert.Positive(t, rep.CardFoundInView.Total)
	// the per-slide tallies split the stacks, and the heights, whole
	var stacks, heights Tally
	for k, v := range rep.StackPerSlide {
		stacks.Right += v.Right
		stacks.Total += v.Total
		h := rep.HeightPerSlide[k]
		assert.Equal(t, v.Total, h.Total, "stacks and heights in %s", k)
		assert.LessOrEqual(t, v.Right, h.Right, "a stack wholly right has its height right, %s", k)
		heights.Right += h.Right
		heights.Total += h.Total
	}
	assert.Equal(t, rep.Stack.Right, stacks.Right, "stacks right over the slide bins")
	assert.Equal(t, rep.Stack.Total, stacks.Total, "stacks over the slide bins")
	assert.Equal(t, rep.Height.Right, heights.Right, "heights right over the slide bins")
	assert.Len(t, rep.StackPerSlide, 7, "the corpus has stacks in every slide bin")
	// the sight strata split the stacks too, and the corpus has each
	var sight Tally
	for _, v := range rep.StackPerSight {
		sight.Right += v.Right
		sight.Total += v.Total
	}
	assert.Equal(t, rep.Stack.Right, sight.Right, "stacks right over the sight strata")
	assert.Equal(t, rep.Stack.Total, sight.Total, "stacks over the sight strata")
	assert.Len(t, rep.StackPerSight, 3, "the corpus has stacks in every sight stratum")
	assert.Greater(t, rep.StackPerSight["open"].Total, rep.StackPerSight["hidden"].Total+rep.StackPerSight["glass under camera"].Total)
}

// TestClassicalReaderOnCorpus keeps the hand-written reader (Options.Classical)
// honest too: it is the baseline the networks are measured against.
func TestClassicalReaderOnCorpus(t *testing.T) {
	d := NewDetector(Options{Classical: true})
	defer d.Close()
	rep, err := d.Bench(corpus, 0)
	require.NoError(t, err)
	assert.GreaterOrEqual(t, rep.Occupancy.Rate, 0.925)
	assert.GreaterOrEqual(t, rep.Height.Rate, 0.71)
	assert.GreaterOrEqual(t, rep.Stack.Rate, 0.44)
}

func TestDetectBadInput(t *testing.T) {
	d := NewDetector(Options{})
	defer d.Close()
	cam := downCamera()
	_, err := d.DetectFile("testdata/no-such-image.jpg", cam)
	assert.ErrorIs(t, err, ErrImage)
	gray := gocv.NewMatWithSize(720, 1280, gocv.MatTypeCV8U)
	defer gray.Close()
	_, err = d.Detect(gray, cam)
	assert.ErrorIs(t, err, ErrImage, "a one-channel image is refused")
	empty := gocv.NewMat()
	defer empty.Close()
	_, err = d.Detect(empty, cam)
	assert.ErrorIs(t, err, ErrImage)
	blank := gocv.NewMatWithSize(720, 1280, gocv.MatTypeCV8UC3)
	defer blank.Close()
	res, err := d.Detect(blank, cam)
	require.NoError(t, err)
	assert.Empty(t, res.Cards, "a black frame shows no card")
	_, err = d.Detect(blank, Camera{})
	assert.ErrorIs(t, err, ErrCamera)
	// frames a row or a column thin (OpenCV's masks of them at half size
	// were empty, and connected components crashed on them) are refused
	// by their size, and the smallest accepted one reads
	for _, wh := range [][2]int{{1, 1}, {1, 100}, {100, 1}, {MinFrameSide - 1, 500}, {500, MinFrameSide - 1}} {
		thin := gocv.NewMatWithSize(wh[1], wh[0], gocv.MatTypeCV8UC3)
		_, err = d.Detect(thin, cam)
		thin.Close()
		assert.ErrorIs(t, err, ErrImage, "%dx%d", wh[0], wh[1])
		assert.ErrorContains(t, err, fmt.Sprintf("%dx%d pixels", wh[0], wh[1]))
	}
	// read from a file, the error names it
	thin := gocv.NewMatWithSize(100, 1, gocv.MatTypeCV8UC3)
	defer thin.Close()
	path := filepath.Join(t.TempDir(), "thin.png")
	require.True(t, gocv.IMWrite(path, thin))
	_, err = d.DetectFile(path, cam)
	assert.ErrorIs(t, err, ErrImage)
	assert.ErrorContains(t, err, path+": ")
	// a file too large to decode is refused by its header (OpenCV aborted
	// the process on one over 2^30 pixels)
	huge := filepath.Join(t.TempDir(), "huge.png")
	require.NoError(t, os.WriteFile(huge, imgsize.PNGHeader(65535, 65535), 0o644))
	_, err = d.DetectFile(huge, cam)
	assert.ErrorIs(t, err, ErrImage)
	assert.ErrorContains(t, err, "65535x65535")
	// a JPEG cut short is refused (OpenCV read it as far as it went and
	// greyed the rest, with only libjpeg's warning on stderr)
	whole, err := os.ReadFile(filepath.Join(corpus, "still_0000.jpg"))
	require.NoError(t, err)
	cut := filepath.Join(t.TempDir(), "cut.jpg")
	require.NoError(t, os.WriteFile(cut, whole[:len(whole)/2], 0o644))
	_, err = d.DetectFile(cut, cam)
	assert.ErrorIs(t, err, ErrImage)
	assert.ErrorContains(t, err, cut+": the JPEG file ends before its end-of-image marker")
	least := gocv.NewMatWithSize(MinFrameSide, MinFrameSide, gocv.MatTypeCV8UC3)
	defer least.Close()
	res, err = d.Detect(least, cam)
	require.NoError(t, err)
	assert.Empty(t, res.Cards)
}

// Each format whose header imgsize reads, as OpenCV writes it, is read
// like the JPEG it was made from; a GIF is refused by name.
func TestDetectFileFormats(t *testing.T) {
	path, cam := fourCardFrame(t)
	d := NewDetector(Options{})
	defer d.Close()
	want, err := d.DetectFile(path, cam)
	require.NoError(t, err)
	require.NotEmpty(t, want.Cards)
	img := gocv.IMRead(path, gocv.IMReadColor)
	defer img.Close()
	dir := t.TempDir()
	for _, ext := range []string{"png", "bmp", "tiff", "webp", "ppm"} {
		p := filepath.Join(dir, "frame."+ext)
		if ext == "webp" { // lossy unless its quality is over 100
			require.True(t, gocv.IMWriteWithParams(p, img, []int{gocv.IMWriteWebpQuality, 101}), ext)
		} else {
			require.True(t, gocv.IMWrite(p, img), ext)
		}
		got, err := d.DetectFile(p, cam)
		require.NoError(t, err, ext)
		assert.Equal(t, want.Cards, got.Cards, ext)
	}
	gif := filepath.Join(dir, "frame.gif")
	require.NoError(t, os.WriteFile(gif, []byte("GIF89a\x10\x00\x10\x00\x00\x00\x00;"), 0o644))
	_, err = d.DetectFile(gif, cam)
	assert.ErrorIs(t, err, ErrImage)
	assert.ErrorContains(t, err, "a GIF image")
}

// fourCardFrame is a 1280x720 still of the corpus with four cards.
func fourCardFrame(tb testing.TB) (string, Camera) {
	files, _ := filepath.Glob(filepath.Join(corpus, "*.json"))
	for _, f := range files {
		data, err := os.ReadFile(f)
		require.NoError(tb, err)
		var tr truthFile
		if jsonUnmarshal(data, &tr) != nil || tr.Width != 1280 || len(tr.Cards) != 4 {
			continue
		}
		cam, err := ParseTruthCamera(data)
		require.NoError(tb, err)
		return filepath.Join(corpus, tr.Image), cam
	}
	tb.Fatal("no 1280x720 still with four cards in the corpus")
	return "", Camera{}
}

// BenchmarkDetect reads one 1280x720 frame with four cards (decoding not
// included).
func BenchmarkDetect(b *testing.B) { benchDetect(b, Options{}) }

// BenchmarkDetectOneView reads every network's input once (no extra
// height views): what the views cost.
func BenchmarkDetectOneView(b *testing.B) {
	benchDetect(b, Options{Views: Views{Height: 1, Material: 1, Pips: 1}})
}

func benchDetect(b *testing.B, opts Options) {
	path, cam := fourCardFrame(b)
	img := gocv.IMRead(path, gocv.IMReadColor)
	defer img.Close()
	d := NewDetector(opts)
	defer d.Close()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := d.Detect(img, cam); err != nil {
			b.Fatal(err)
		}
	}
}

// TestNoGrowthAcrossFrames reads many frames with one detector and checks
// that neither the Go heap in use nor the allocations per frame grow: the
// detector's buffers are reused, so a long session (a store's demo table
// runs all day) must not creep. Mats are checked by the matprofile run.
func TestNoGrowthAcrossFrames(t *testing.T) {
	path, cam := fourCardFrame(t)
	img := gocv.IMRead(path, gocv.IMReadColor)
	require.False(t, img.Empty(), "cannot read %s", path)
	defer img.Close()
	d := NewDetector(Options{})
	defer d.Close()
	detect := func() {
		if _, err := d.Detect(img, cam); err != nil {
			t.Fatal(err)
		}
	}
	heap := func() uint64 {
		var m runtime.MemStats
		runtime.GC()
		runtime.GC()
		runtime.ReadMemStats(&m)
		return m.HeapInuse
	}
	for range 10 { // warm up: buffers reach their size
		detect()
	}
	first := testing.AllocsPerRun(20, detect)
	before := heap()
	for range 200 {
		detect()
	}
	after := heap()
	last := testing.AllocsPerRun(20, detect)
	t.Logf("allocs per frame %.0f then %.0f; heap in use %d then %d bytes", first, last, before, after)
	assert.LessOrEqual(t, last, first, "allocations per frame grew")
	assert.Less(t, int64(after)-int64(before), int64(1<<20), "heap in use grew by over 1 MiB in 200 frames")
}

// A stack whose top other dice hide (dice_occlusion in the truth) leaves
// the stack tallies for its own one; the rest of the image counts as before.
func TestBenchLeavesHiddenStacksOut(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(corpus, "still_0000.json"))
	require.NoError(t, err)
	var truth map[string]any
	require.NoError(t, json.Unmarshal(data, &truth))
	img, err := os.ReadFile(filepath.Join(corpus, "still_0000.jpg"))
	require.NoError(t, err)
	plain, marked := t.TempDir(), t.TempDir()
	for _, dir := range []string{plain, marked} {
		require.NoError(t, os.WriteFile(filepath.Join(dir, "still_0000.jpg"), img, 0o644))
	}
	require.NoError(t, os.WriteFile(filepath.Join(plain, "still_0000.json"), data, 0o644))
	n := 0
	for _, c := range truth["cards"].([]any) {
		for _, cell := range c.(map[string]any)["cells"].([]any) {
			cm := cell.(map[string]any)
			if cm["height"].(float64) > 0 && cm["hand_occlusion"].(float64) == 0 && n == 0 {
				cm["dice_occlusion"] = 0.8
				n++
			}
		}
	}
	require.Equal(t, 1, n, "still_0000 has an uncovered stack")
	b, err := json.Marshal(truth)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(marked, "still_0000.json"), b, 0o644))

	d := NewDetector(Options{})
	defer d.Close()
	a, err := d.Bench(plain, 0)
	require.NoError(t, err)
	h, err := d.Bench(marked, 0)
	require.NoError(t, err)
	assert.Equal(t, a.Stack.Total-1, h.Stack.Total)
	assert.Equal(t, a.Height.Total-1, h.Height.Total)
	assert.Equal(t, a.Occupancy.Total-1, h.Occupancy.Total)
	assert.Equal(t, 1, h.HiddenByDice.Total)
	assert.Equal(t, 0, a.HiddenByDice.Total)
	assert.Equal(t, a.CardFound, h.CardFound)
}

// TestHardCardsFound holds the card finder to uncovered cards it once
// missed: of the corpus, a screen's bluish shadow grown into one blob with
// the card (still_0216), a tall stack's likewise (still_0153), a card
// under a lamp's glare that a pale scrap beside it claimed first
// (still_0167, seat 3), and three cards a lamp washed pink or white; of
// testdata/cards (training renders, see its README), cards touching, or
// nearly, a stack's side over a card's edge, and two cards whose
// horizontal grid lines a tall stack hid (found, but the wrong way up,
// before the vertical lines voted); of a check corpus, a card with a
// die's shadow grown onto its side (fitCardSides), one found off with a
// weak grid and one fitted a quarter turn off to a part of it, before a
// later mask's card replaced them. Each must be found where
// the renderer put it (every corner within 60 px, as vision bench counts
// it) with its seat, and where all of a still's cards are listed, no other
// card.
func TestHardCardsFound(t *testing.T) {
	d := NewDetector(Options{})
	defer d.Close()
	const hard = "testdata/cards"
	for _, c := range []struct {
		dir, still string
		seats      []int
	}{
		{corpus, "still_0216", []int{0}}, {corpus, "still_0153", []int{2}}, {corpus, "still_0167", []int{3}},
		// washed pink or white by a lamp: the contrast mask
		{corpus, "still_0110", []int{1}}, {corpus, "still_0259", []int{1}}, {corpus, "still_0275", []int{2}},
		// one blob for two cards, a stack's side over the edge: opened blobs
		{hard, "train1001_0039", []int{0, 1, 2, 3}}, {hard, "train1002_0047", []int{0, 1, 2, 3}},
		{hard, "train1005_0051", []int{0, 1, 2, 3}},
		// turned the wrong way up: a tall stack hid the horizontal grid lines
		{hard, "check2003_0009", []int{0}}, {hard, "check2003_0050", []int{0}},
		// a die's bluish shadow grown onto the card's side, too wide for
		// a card by every mask: fitted by its sides
		{hard, "yaw2006_0040", []int{0}},
		// a card grown together with a stack's side, placed 22 mm off
		// with a weak grid, which the clearly blue pixels' card replaces
		{hard, "yaw2006_0100", []int{0}},
		// washed pale but its grid end: that end fitted as a card turned
		// a quarter, grid 117 but only 44 % of its lines shown, stood
		// against the contrast mask's card (77 %)
		{hard, "mistakes2005_0007", []int{0, 1, 2, 3}},
		// washed white by glare, and washed pink with a screen's corner
		// over it: no mask finds them, their printed lines do
		{hard, "check2002_0091", []int{0, 1, 2, 3}}, {hard, "fresh2007_0055", []int{0, 1, 2, 3}},
		// washed white all over, its grid barely showing (grid 35 and 17 %
		// of its lines; grid 1, the grid end under glare, and 31 %): the
		// pale mask
		{mistakesCorpus, "still_0059", []int{0}}, {hard, "check2002_0043", []int{2}},
		// washed by a lamp over its building's end: a mask fits that end
		// as a weak card of another seat, a quarter turn off, over the
		// card's lines; the line work finds the card and replaces it
		{hard, "fresh2026_0183", []int{0, 1, 2, 3}},
		// the same, the line work's card then dropped: over a weak card
		// (replacing one asked a grid of looseGrid) and, the other, by
		// the grid test of cards fitted by their sides (grid 22), though
		// its lines show clearly (lineSureScore)
		{hard, "fresh2026_0010", []int{0, 1, 2}}, {hard, "fresh2027_0087", []int{0, 1, 2, 3}},
		// washed white all over on a sand table: none of its lines show,
		// but it lies alone on the table (loneOnTable)
		{hard, "train1202_0265", []int{0, 2}},
		// washed white by a lamp on a red table: the contrast mask fits it
		// right but with few of its lines shown, and the pale mask's card,
		// which findCards keeps, did not replace that doomed one
		{hard, "fresh2066_0019", []int{0, 1, 2, 3}},
		// washed by a lamp: an opened blob's part fitted a quarter turn off,
		// a third of it over the table, replaced the card found right by
		// its grid alone (replaces, tableMore)
		{hard, "fresh2064_0108", []int{0}},
		// washed white on a light table whose glare washed the table
		// around it too: its grid barely shows (12), nor the ring of
		// table around it (keepPale)
		{hard, "fresh2075_0046", []int{0, 1, 2}},
		// out of focus, a fifth of it behind a screen: placed right, but
		// with 19 % of its lines on a ridge (keepFaint)
		{hard, "fresh2098_0131", []int{0, 1, 2, 3}},
		// washed pink by a lamp on a red cloth: placed right by the
		// contrast mask, 16 % of its lines on a ridge, grid 12.9 against
		// 1.0 (keepFaint takes keepPale's test)
		{hard, "fresh2169_0194", []int{0, 1, 2}},
		// its far half washed white by a lamp: the blue half's outline,
		// 71 by 67 mm, a card's width both ways, was stretched along the
		// wrong side, a quarter turn off (fitCardRectFrom, turned)
		{hard, "fresh2172_0023", []int{0, 1, 2, 3}},
		// washed nearly white by a lamp, a screen along its near edge: no
		// mask fits it; the line work's card was slid onto the screen's
		// edge by the wide vote (its grid fading, gridFades) and then
		// dropped with 25 % of its lines shown, though its grid shows
		// clearly and none of it lies over the table (keptByGrid)
		{hard, "fresh2167_0067", []int{0, 1, 2, 3}},
		// a player's screen standing diagonally across a card: its cut
		// outline placed it off (or its other way up scored with slides),
		// its grid too faint there; judged again where its printed lines
		// place it (regrid)
		{hard, "fresh2167_0054", []int{0, 1, 2}}, {hard, "fresh2170_0182", []int{0, 1, 2}},
		// washed almost white by a lamp and small in the frame, on a
		// lamp-lit wooden table: the pale mask places it right, but its
		// thin lines sat inside the ridge probe's 1 mm either side (under
		// 1.5 px there) until the probe looked at least minProbeSidePx out
		{hard, "fresh2181_0010", []int{0, 1, 2}},
		// a screen along its near long side hiding 40 % of it, a tall
		// stack over its grid: fitted right from its far strip, then
		// moved 35 mm out over the table, where its own far edge passed
		// for grid lines (tryOtherSides, overTable)
		{hard, "fresh2144_0093", []int{0, 2}},
		// a weak card the line work replaced by one that stands, then a
		// false card of the other seat placed half over it: the later
		// line candidates keep clear of the card that stands now
		{hard, "train1201_0133", []int{0, 2}},
	} {
		tr, res := detectStill(t, d, c.dir, c.still)
		used := make([]bool, len(res.Cards))
		for _, seat := range c.seats {
			found := false
			for _, tc := range tr.Cards {
				if tc.Seat != seat {
					continue
				}
				i, e := nearestCard(res.Cards, used, tc.CornersPx)
				if assert.True(t, i >= 0 && e < 60, "%s seat %d: nearest card %.0f px off", c.still, seat, e) {
					assert.Equal(t, seat, res.Cards[i].Seat, "%s: seat", c.still)
					used[i] = true
				}
				found = true
			}
			assert.True(t, found, "%s has no card of seat %d in its truth", c.still, seat)
		}
		if len(c.seats) == len(tr.Cards) {
			assert.Len(t, res.Cards, len(tr.Cards), "%s: cards found", c.still)
		}
	}
}

// TestNoCardPosedWrongUnderHand pins a card a hand covers wholly (check
// corpus 2002, still_0206, seat 1), which the finder fitted to what the
// hand left of its outline, far from the card: a false card whose cells
// were read where no card lies. Such a card shows few of its printed lines
// (minCardLines) and is dropped; every card found must lie where a card of
// the truth does (every corner within 60 px).
func TestNoCardPosedWrongUnderHand(t *testing.T) {
	d := NewDetector(Options{})
	defer d.Close()
	tr, res := detectStill(t, d, "testdata/cards", "check2002_0206")
	require.NotEmpty(t, res.Cards)
	for _, c := range res.Cards {
		best := math.Inf(1)
		for _, tc := range tr.Cards {
			if _, e := nearestCard([]Card{c}, []bool{false}, tc.CornersPx); e < best {
				best = e
			}
		}
		assert.Less(t, best, 60.0, "seat %d card at %.0f: %.0f px from every card of the truth", c.Seat, c.Corners, best)
	}
}

// TestCardNotOverTable pins a card half behind a screen whose outline is
// shorter than the card and whose grid cannot tell which side it lies on:
// put on the wrong side it covered bare table and was found 29 px off
// (bench still_0235, seat 1); the table's colour now decides.
func TestCardNotOverTable(t *testing.T) {
	cardPosedWithin(t, corpus, "still_0235", 1)
}

// TestCardBehindScreenFitted pins a card half behind a screen whose slanted
// edge bounds an outline of the card's size, placed 20 mm out over bare
// table (bench still_0082, seat 0: 44 px off): the printed lines' vote
// (refinePose, up to voteReach) brings it back.
func TestCardBehindScreenFitted(t *testing.T) {
	cardPosedWithin(t, corpus, "still_0082", 0)
}

// TestCardRevoted pins a card whose left side lies under a screen's
// shadow (bench still_0181, seat 2): the printed lines' vote, taken at
// the outline's slightly turned pose, peaked 2 mm short of where most
// lines lie, the fit settled there and the card was read 8 px off (three
// stacks and an empty cell misread). A second vote from the fitted pose
// finds the rest of the way.
func TestCardRevoted(t *testing.T) {
	cardPosedWithin(t, corpus, "still_0181", 2)
}

// TestCardNotVotedOverTable pins a card a third behind a screen the
// table's colour (fresh corpus 2008, still_0101, seat 0): its outline and
// the bare table put it right, then the printed lines' wide vote
// (refinePose) took it 20 mm out over the table, a grid period off, for
// two more lines on a ridge. A voted pose over bare table is refused.
func TestCardNotVotedOverTable(t *testing.T) {
	cardPosedWithin(t, "testdata/cards", "fresh2008_0101", 0)
}

// TestWeakCardOverTableReplaced pins a card with a long side under a
// screen (fresh corpus 2029, still_0134, seat 0) that the first mask put
// 18 px out over the bare table, showing 56 % of its printed lines; a
// later mask's card where it lies, off the table, showing 60 %, replaces
// it (offTable).
func TestWeakCardOverTableReplaced(t *testing.T) {
	cardPosedWithin(t, "testdata/cards", "fresh2029_0134", 0)
}

// TestCardNotReplacedByGridAlone pins a card beside a screen (training
// render 1402, still_0041, seat 0) placed right by a mask (grid 13, 47 %
// of its printed lines), then replaced by a card a grid column off whose
// grid scored twice as high (38) though fewer of its lines showed (43 %):
// 30 px off, five cells misread. A grid twice as clear replaces a weak
// card only where no fewer of its lines show (replaces).
func TestCardNotReplacedByGridAlone(t *testing.T) {
	cardPosedWithin(t, "testdata/cards", "train1402_0041", 0)
}

// TestCardSlidOffTable pins a card with its lower side under a screen
// (fresh corpus 2031, still_0101, seat 0), fitted 11 px up over a strip
// of bare table, which slideOffTable slides back; and a card with a hand
// the table's colour over one end (glass-heavy corpus 2024, still_0093,
// seat 0), which the same test would slide 7 mm off the hand but for the
// printed lines it would lose (slideLines). And two cards fitted about
// 3 mm out over the table beside a screen (fresh 2086 still_0162, fresh
// 2067 still_0129, seat 0 each), which stopped at the first place clear
// of the table, where fewer of their lines showed, or whose strip showed
// too little table to slide (slideDirty): slid to the clean place with
// the most lines now. And a card with its lower long side under a screen
// (fresh 2110 still_0029, seat 0), fitted to the screen's edge 12.8 mm
// out over the table: slid further than the 8 mm it could go until the
// forty-second session (slideMax), and its four-high stack read right.
func TestCardSlidOffTable(t *testing.T) {
	cardPosedWithin(t, "testdata/cards", "fresh2031_0101", 0)
	cardPosedWithin(t, "testdata/cards", "glass2024_0093", 0)
	cardPosedWithin(t, "testdata/cards", "fresh2086_0162", 0)
	cardPosedWithin(t, "testdata/cards", "fresh2067_0129", 0)
	cardPosedWithin(t, "testdata/cards", "fresh2110_0029", 0)
	stackReadAs(t, "testdata/cards", "fresh2110_0029", 0, 0, 1, "W3 G4 S5 W5", 4, "W5")
}

// TestCardMostlyBehindAScreen pins two cards with a long side whole and
// most of their width behind a player's screen (fresh 2112 still_0101,
// seat 2; fresh 2114 still_0171, seat 0): their outlines were too narrow
// for a card (fitCardRect asked 0.6 of its width), and no mask or line
// search found them. Each is placed within poseOffPx now (cutMin), and
// 2114's four-high stack in the open is read.
func TestCardMostlyBehindAScreen(t *testing.T) {
	cardPosedWithin(t, "testdata/cards", "fresh2112_0101", 2)
	cardPosedWithin(t, "testdata/cards", "fresh2114_0171", 0)
	stackReadAs(t, "testdata/cards", "fresh2114_0171", 0, 0, 0, "W1 G1 R1 S2", 4, "S2")
}

// TestCardVotedNear pins two cards beside a player's screen whose
// printed lines, few of them showing, voted a slide a few millimetres off
// by a few probes over the card's own place (fresh 2112 still_0089, seat
// 2, 28 px off; fresh 2120 still_0017, seat 0, 9 px off after a second
// vote): nearSlack and revoteGain keep them where they lie, and the
// stacks read empty there are read.
func TestCardVotedNear(t *testing.T) {
	cardPosedWithin(t, "testdata/cards", "fresh2112_0089", 2)
	cardPosedWithin(t, "testdata/cards", "fresh2120_0017", 0)
	stackReadAs(t, "testdata/cards", "fresh2112_0089", 2, 1, 1, "R1 G1", 2, "G1")
	stackReadAs(t, "testdata/cards", "fresh2120_0017", 0, 1, 1, "S1 G1 R1", 3, "R1")
}

// cardPosedWithin detects a committed still (in dir) and requires seat's
// card to be found with every corner within poseOffPx of the truth.
func cardPosedWithin(t *testing.T, dir, still string, seat int) {
	t.Helper()
	_, _, e := seatCardNearest(t, dir, still, seat)
	assert.LessOrEqual(t, e, float64(poseOffPx), "%s: seat %d's farthest corner is %.1f px off", still, seat, e)
}

// seatCardNearest detects a committed still (dir/still) and returns the
// truth's card of seat, the card found nearest it (one must be) and how
// far off that card's farthest corner is (px).
func seatCardNearest(t *testing.T, dir, still string, seat int) (truthCard, Card, float64) {
	t.Helper()
	return seatCardNearestWith(t, Options{}, dir, still, seat)
}

// pinnedStack reads still (vision/testdata/stacks) with opts and returns
// what seat's card reads on cell (row, col), after checking that the card
// is found and the truth's stack there is want; it fails the test if the
// cell reads empty.
func pinnedStack(t *testing.T, opts Options, still string, seat, row, col int, want string) *Cell {
	t.Helper()
	tc, card, e := seatCardNearestWith(t, opts, "testdata/stacks", still, seat)
	require.Less(t, e, 60.0, "seat %d's card found", seat)
	require.Equal(t, want, tc.Building[row][col], "the truth's stack")
	cell := card.Cells[row][col]
	require.NotNil(t, cell, "read empty")
	return cell
}

// seatCardNearestWith is seatCardNearest read by a detector of opts.
func seatCardNearestWith(t *testing.T, opts Options, dir, still string, seat int) (truthCard, Card, float64) {
	t.Helper()
	d := NewDetector(opts)
	defer d.Close()
	tr, res := detectStill(t, d, dir, still)
	for _, tc := range tr.Cards {
		if tc.Seat != seat {
			continue
		}
		i, e := nearestCard(res.Cards, make([]bool, len(res.Cards)), tc.CornersPx)
		require.GreaterOrEqual(t, i, 0, "%s: no card found", still)
		return tc, res.Cards[i], e
	}
	t.Fatalf("%s has no card of seat %d in its truth", still, seat)
	return truthCard{}, Card{}, 0
}

// detectStill reads a committed still's truth (dir/still.json) and
// detects its image with d, seen by the truth's camera.
func detectStill(t *testing.T, d *Detector, dir, still string) (truthFile, Result) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, still+".json"))
	require.NoError(t, err)
	var tr truthFile
	require.NoError(t, json.Unmarshal(data, &tr))
	cam, err := ParseTruthCamera(data)
	require.NoError(t, err)
	res, err := d.DetectFile(filepath.Join(dir, tr.Image), cam)
	require.NoError(t, err)
	return tr, res
}

// TestMedianSelect checks the quickselect median against sorting, on
// slices with repeats and NaNs, and that it leaves its input alone.
func TestMedianSelect(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for trial := 0; trial < 2000; trial++ {
		n := 1 + rng.IntN(150)
		xs := make([]float64, n)
		for i := range xs {
			switch rng.IntN(10) {
			case 0:
				xs[i] = math.NaN()
			case 1, 2:
				xs[i] = float64(rng.IntN(3)) // repeats
			default:
				xs[i] = rng.NormFloat64()
			}
		}
		orig := append([]float64(nil), xs...)
		s := append([]float64(nil), xs...)
		sort.Float64s(s)
		want, got := s[n/2], median(xs)
		if !(got == want || (math.IsNaN(got) && math.IsNaN(want))) {
			t.Fatalf("trial %d, %d values: median %v, sorting gives %v", trial, n, got, want)
		}
		for i := range xs {
			if math.Float64bits(xs[i]) != math.Float64bits(orig[i]) {
				t.Fatalf("trial %d: median changed its input at %d", trial, i)
			}
		}
	}
	if median(nil) != 0 {
		t.Error("median of nothing should be 0")
	}
}

// TestAllSeated: the card finder stops looking once every seat (or every
// seat in play) has a card that stands against any later one (its grid
// clear, most of its printed lines seen), and not before.
func TestAllSeated(t *testing.T) {
	d := newDetector(Options{})
	defer d.Close()
	four := []Card{{Seat: 0, grid: 30, lines: 0.9}, {Seat: 1, grid: looseGrid, lines: standLines}, {Seat: 2, grid: 80, lines: 0.7}, {Seat: 3, grid: 40, lines: 1}}
	assert.True(t, d.allSeated(four))
	assert.False(t, d.allSeated(four[:3]), "seat 3 has no card")
	faint := append([]Card(nil), four...)
	faint[1].grid = looseGrid - 1
	assert.False(t, d.allSeated(faint), "seat 1's card barely showed its grid")
	few := append([]Card(nil), four...)
	few[2].lines = standLines - 0.01
	assert.False(t, d.allSeated(few), "seat 2's card showed few of its printed lines: a later mask may replace it")
	twice := []Card{four[0], four[0], four[2], four[3]}
	assert.False(t, d.allSeated(twice), "seat 1 has no card")
	two := newDetector(Options{SeatUp: []float64{90, -90}})
	defer two.Close()
	assert.True(t, two.allSeated([]Card{{Seat: 1, grid: 30, lines: 0.8}, {Seat: 0, grid: 30, lines: 0.8}}))
	assert.False(t, two.allSeated(nil))

	// seats 0 and 2 in play: their cards are enough, seat 1's is not
	require.NoError(t, d.SetInPlay([]int{2, 0}))
	assert.True(t, d.allSeated([]Card{four[0], four[2]}))
	assert.False(t, d.allSeated([]Card{four[0], four[1], four[3]}), "seat 2 in play has no card")
	assert.False(t, d.allSeated([]Card{four[0], few[2]}), "seat 2's card may still be replaced")
	assert.Error(t, d.SetInPlay([]int{4}))
	assert.True(t, d.allSeated([]Card{four[0], four[2]}), "a refused list leaves the seats in play as they were")
}

// TestFillThresholds: the contrast mask's per-frame threshold table decides
// every pixel as the cached tables (and the division) do.
func TestFillThresholds(t *testing.T) {
	var tab pix.SumTable
	for _, thr := range []float64{-0.5, -0.08, 0, 0.01, 0.015, 0.05, 0.07, 0.123, 0.9} {
		assert.Equal(t, *blueThresholds(thr), *fillThresholds(&tab, thr), "threshold %v", thr)
		for sum := 45; sum < 766; sum += 7 {
			for v := -255; v <= 255; v += 3 {
				assert.Equal(t, float64(v)/float64(sum) >= thr, int16(v) >= tab[sum], "thr %v v %d sum %d", thr, v, sum)
			}
		}
	}
}

// slideKey buckets a cell by how far its stack's top face moves per die
// of height: nothing for a cell right under a camera looking straight
// down, about Die·r/(distance) pixels for one r pixels out.
func TestSlideKey(t *testing.T) {
	m := cardmodel.Default()
	cam := Camera{Fx: 1000, Fy: 1000, Cx: 640, Cy: 360, R: [3][3]float64{{1, 0, 0}, {0, -1, 0}, {0, 0, -1}}, T: [3]float64{0, 0, 800}}
	cornersAt := func(dx float64, row, col int) [4][2]float64 {
		// the card lying square, cell (row, col)'s centre at (dx, 0) on the table
		u, v := m.CellCenter(row, col)
		var c [4][2]float64
		for i, p := range [4][2]float64{{0, 0}, {m.CardWidth, 0}, {m.CardWidth, m.CardHeight}, {0, m.CardHeight}} {
			x, y, ok := cam.Project(Vec3{X: dx + p[0] - u, Y: -(p[1] - v), Z: m.CardThickness})
			require.True(t, ok)
			c[i] = [2]float64{x, y}
		}
		return c
	}
	// 300 mm out: r = 375 px, the face moves 375·Die/(800-CardThickness-Die) px per die
	want := 375 * m.Die / (800 - m.CardThickness - m.Die)
	require.True(t, want >= 6 && want < 9, "the test's geometry: %.1f px", want)
	for _, cell := range [][2]int{{0, 0}, {2, 1}, {1, 0}} {
		r, c := cell[0], cell[1]
		assert.Equal(t, "slide=0-3px", slideKey(&cam, m, cornersAt(0, r, c), r, c), "cell %v under the camera", cell)
		assert.Equal(t, "slide=6-9px", slideKey(&cam, m, cornersAt(300, r, c), r, c), "cell %v 300 mm out", cell)
		assert.Equal(t, "slide=9-12px", slideKey(&cam, m, cornersAt(450, r, c), r, c), "cell %v 450 mm out", cell)
		assert.Equal(t, "slide=12-15px", slideKey(&cam, m, cornersAt(525, r, c), r, c), "cell %v 525 mm out", cell)
		assert.Equal(t, "slide=15-20px", slideKey(&cam, m, cornersAt(600, r, c), r, c), "cell %v 600 mm out", cell)
		assert.Equal(t, "slide=20+px", slideKey(&cam, m, cornersAt(1000, r, c), r, c), "cell %v 1000 mm out", cell)
	}
	for _, g := range []struct {
		dx       float64
		from, to float64
	}{{450, 9, 12}, {525, 12, 15}, {600, 15, 20}, {1000, 20, 99}} {
		px := g.dx * 1000 / (800 - m.CardThickness) * m.Die / (800 - m.CardThickness - m.Die)
		require.True(t, px >= g.from && px < g.to, "the test's geometry %v mm out: %.1f px", g.dx, px)
	}
	// near a bucket's edge the cell must be the one asked for: cell (2, 1)
	// 125 mm out moves 3.2 px per die; cell (0, 0) of that card lies
	// nearer the camera (under 3 px)
	u0, _ := m.CellCenter(0, 0)
	u1, _ := m.CellCenter(2, 1)
	require.Greater(t, u1, u0)
	assert.Equal(t, "slide=3-6px", slideKey(&cam, m, cornersAt(125, 2, 1), 2, 1))
	assert.Equal(t, "slide=0-3px", slideKey(&cam, m, cornersAt(125, 2, 1), 0, 0))
	behind := cam
	behind.T[2] = -800 // the table behind the camera
	assert.Equal(t, "slide=?", slideKey(&behind, m, cornersAt(0, 0, 0), 0, 0))
}

// countConfidence counts a stack at every least confidence up to its
// read's, right or wrong, never a stack read empty or flagged occluded,
// and an empty cell read as a stack as sure as it was read.
func TestCountConfidence(t *testing.T) {
	rep := BenchReport{ByConfidence: []ConfidenceTally{{MinConfidence: 0}, {MinConfidence: 0.5}, {MinConfidence: 0.9}}}
	rep.countConfidence(true, &Cell{Height: 2, Confidence: 0.95}, true)
	rep.countConfidence(true, &Cell{Height: 1, Confidence: 0.6}, false)
	rep.countConfidence(true, nil, false)
	rep.countConfidence(true, &Cell{Occluded: true, Confidence: 0.99}, false)
	rep.countConfidence(false, &Cell{Height: 1, Confidence: 0.7}, false)
	want := []ConfidenceTally{
		{MinConfidence: 0, Stacks: 4, Read: 2, Right: 1, EmptyAsStack: 1},
		{MinConfidence: 0.5, Stacks: 4, Read: 2, Right: 1, EmptyAsStack: 1},
		{MinConfidence: 0.9, Stacks: 4, Read: 1, Right: 1},
	}
	assert.Equal(t, want, rep.ByConfidence)
}

// The debug image draws a sure read's top face cyan, an unsure one's
// orange (UnsureBelow) and a covered cell's red.
func TestDebugMarksUnsureReads(t *testing.T) {
	cam := Camera{Fx: 1000, Fy: 1000, Cx: 640, Cy: 360, R: [3][3]float64{{1, 0, 0}, {0, -1, 0}, {0, 0, -1}}, T: [3]float64{0, 0, 800}}
	d := NewDetector(Options{})
	defer d.Close()
	m := d.opts.Model
	c := Card{pose: poseFromRect(m, Vec3{0, 0, m.CardThickness}, Vec3{1, 0, 0})}
	c.Cells[0][0] = &Cell{Height: 1, Top: "W3", Confidence: 0.95}
	c.Cells[0][1] = &Cell{Height: 1, Top: "G2", Confidence: UnsureBelow - 0.01}
	c.Cells[1][0] = &Cell{Occluded: true, Confidence: 0.9}
	img := gocv.NewMatWithSize(720, 1280, gocv.MatTypeCV8UC3)
	defer img.Close()
	d.drawDebug(&img, Result{Cards: []Card{c}}, cam)
	// the colour of the top face's outline, just inside its top-left corner
	edge := func(r, col int) [3]uint8 {
		cu, cv := m.CellCenter(r, col)
		z := m.CardThickness + float64(c.Cells[r][col].Height)*m.Die
		var best [3]uint8
		for du := 0.0; du <= m.Die/2; du += 0.25 { // along the face's top edge
			x, y, ok := cam.Project(c.pose.at(cu-m.Die/2+du, cv-m.Die/2, z))
			require.True(t, ok)
			v := img.GetVecbAt(int(y+0.5), int(x+0.5))
			if int(v[0])+int(v[1])+int(v[2]) > int(best[0])+int(best[1])+int(best[2]) {
				best = [3]uint8{v[0], v[1], v[2]}
			}
		}
		return best // B, G, R
	}
	assert.Equal(t, [3]uint8{255, 230, 0}, edge(0, 0), "sure: cyan")
	assert.Equal(t, [3]uint8{0, 130, 255}, edge(0, 1), "unsure: orange")
	assert.Equal(t, [3]uint8{40, 40, 255}, edge(1, 0), "covered: red")
}

func TestBrokenRule(t *testing.T) {
	for _, c := range []struct {
		bp     string
		r, col int
		dice   []string
		want   string
	}{
		{"X1/31/1X", 0, 0, []string{"W1"}, "hatched-cell"},
		{"X1/31/1X", 2, 1, []string{"W1", "G4"}, "hatched-cell"},
		{"X1/31/1X", 1, 0, []string{"S5", "G2"}, "die-on-higher-value"},
		{"X1/31/1X", 1, 0, []string{"S2", "G2"}, "legal"},
		{"X1/31/1X", 0, 1, []string{"R6"}, "legal"},
		{"bad", 0, 0, []string{"R6"}, "legal"},
	} {
		assert.Equal(t, c.want, brokenRule(c.bp, c.r, c.col, c.dice), "%s r%dc%d %v", c.bp, c.r, c.col, c.dice)
	}
}

const mistakesCorpus = "testdata/synth-mistakes/stills"

// TestDetectOnMistakes runs the detector over the committed stills whose
// every card's building breaks a placement rule (bprender --mistakes 1): a
// stack on a hatched cell, or a top die on a higher value. These are the
// placements the companion exists to flag, so the reader must read them as
// well as any other; it is held to just below what it reached.
func TestDetectOnMistakes(t *testing.T) {
	d := NewDetector(Options{})
	defer d.Close()
	rep, err := d.Bench(mistakesCorpus, 0)
	require.NoError(t, err)
	require.GreaterOrEqual(t, rep.Frames, 60)
	hatched, onHigher := rep.StackPerRule["hatched-cell"], rep.StackPerRule["die-on-higher-value"]
	t.Logf("frames %d: whole stack %d/%d, on hatched cells %d/%d, tops on a higher value %d/%d, empty/occupied %d/%d",
		rep.Frames, rep.Stack.Right, rep.Stack.Total, hatched.Right, hatched.Total, onHigher.Right, onHigher.Total, rep.Occupancy.Right, rep.Occupancy.Total)
	require.GreaterOrEqual(t, hatched.Total, 40, "stacks on hatched cells in the corpus")
	require.GreaterOrEqual(t, onHigher.Total, 30, "tops on a higher value in the corpus")
	assert.GreaterOrEqual(t, hatched.Rate, minMistakeHatched, "stacks on hatched cells read wholly right")
	assert.GreaterOrEqual(t, onHigher.Rate, minMistakeOnHigher, "tops on a higher value read wholly right")
	assert.GreaterOrEqual(t, rep.Stack.Rate, minMistakeStack, "whole stack")
	assert.GreaterOrEqual(t, rep.CardFoundUncovered.Rate, minMistakeCardFound, "uncovered cards found")
}

// TestClearTopLifted pins a stack whose clear glass top the height CNNs
// looked through (the committed mistakes corpus, still_0026, seat 1, row 1
// column 2: S5 R6 G1): read two high G6 without liftClearTops, three high
// G1 with it — the top network reads glass at the third level.
func TestClearTopLifted(t *testing.T) {
	stackReadAs(t, mistakesCorpus, "still_0026", 1, 0, 1, "S5 R6 G1", 3, "G1")
}

// stackReadAs detects a committed still (dir/still) and asserts that the
// stack of the truth's card of seat at (row, col), whose dice are want,
// is read height high with top.
func stackReadAs(t *testing.T, dir, still string, seat, row, col int, want string, height int, top string) {
	t.Helper()
	tc, c := seatCardRead(t, dir, still, seat)
	require.Equal(t, want, tc.Building[row][col], "the truth's stack")
	cell := c.Cells[row][col]
	require.NotNil(t, cell, "read empty")
	assert.Equal(t, height, cell.Height)
	assert.Equal(t, top, cell.Top)
}

// TestGlassTopAbove pins a stack of two clear glass dice (fresh corpus
// 2079, still_0119, seat 2, row 2 column 2: G1 G1) read one high G6: the
// pip networks read, at the first level, the top die's bottom face
// through the glass, and the top network saw no glass at the second, so
// liftClearTops left it. The faces read at the two levels pair as
// opposite faces (6 and 1), so glassTopAbove reads it two high G1.
func TestGlassTopAbove(t *testing.T) {
	stackReadAs(t, "testdata/stacks", "fresh2079_0119", 2, 1, 1, "G1 G1", 2, "G1")
}

// TestFaceOnEmptyCell pins a one-high clear glass die (fresh corpus
// 2065, still_0066, seat 2, row 2 column 1: G2) that the height networks
// read empty, unsurely: the pip networks read a die's face at level 1
// surely, so faceOnEmpties reads it one high.
func TestFaceOnEmptyCell(t *testing.T) {
	stackReadAs(t, "testdata/stacks", "fresh2065_0066", 2, 1, 0, "G2", 1, "G2")
}

// TestGlassOnEmptyCell pins a one-high clear glass die (fresh corpus
// 2112, still_0099, seat 2, row 2 column 1: G3) that the stack beside it
// hides 0.36 of: the height networks read it empty (0.50, one high 0.34)
// and the pip networks see too little of its face, but the material CNN
// reads glass there (0.95), so glassOnEmpty reads it one high.
func TestGlassOnEmptyCell(t *testing.T) {
	stackReadAs(t, "testdata/stacks", "fresh2112_0099", 2, 1, 0, "G3", 1, "G3")
}

// TestSeenPipsOverruleNetworks pins a one-high stone die (fresh corpus
// 2111, still_0078, seat 2, row 2 column 1: S1) whose lower part the
// three-high stack beside it (G1 W3 R4) hides: the pip networks read S3
// (0.76), counting the neighbour's pips on a diagonal with its own. At the
// pip places the camera sees, only the centre holds a pip, which fits a
// one and nothing else, so seenPipsChoice reads S1.
func TestSeenPipsOverruleNetworks(t *testing.T) {
	stackReadAs(t, "testdata/stacks", "fresh2111_0078", 2, 1, 0, "S1", 1, "S1")
}

// TestSeenNotRecycled pins a one-high stone die (fresh corpus 2128,
// still_0091, seat 0, row 3 column 1: S4) most of whose face the green
// top of the four-high stack beside it (W1 R1 W1 R1) hides: the networks
// read it recycled, R4 (0.61). Its visible part is far less green than a
// recycled die's, so notRecycled takes the next material, S4.
func TestSeenNotRecycled(t *testing.T) {
	stackReadAs(t, "testdata/stacks", "fresh2128_0091", 0, 2, 0, "S4", 1, "S4")
}

// TestClashWeighsNextChoices pins a four-high stack (fresh corpus 2109,
// still_0171, seat 3, row 2 column 1: W1 R1 G1 R2) whose top face falls
// over the next cell, where it was also read as a one-high R2. The
// one-high read was a little surer (0.66 against 0.64), so settleClashes
// took the stack's height and read its cell empty; weighed with each
// cell's next choice (empty, 0.15 and 0.19 likely), the stack stands and
// the next cell is read empty.
func TestClashWeighsNextChoices(t *testing.T) {
	stackReadAs(t, "testdata/stacks", "fresh2109_0171", 3, 1, 0, "W1 R1 G1 R2", 4, "R2")
}

// TestStacksReadRight pins stacks the cell reader once misread (the
// forty-fifth session's changes), each read from its committed still
// (vision/testdata/stacks) as the truth has it.
func TestStacksReadRight(t *testing.T) {
	for _, c := range []struct {
		name, still    string
		seat, row, col int
		want           string
		height         int
		top            string
	}{
		// FaceAboveEmptyRead: pins a three-high stack (fresh corpus 2140,
		// still_0169, seat 2, row 1 column 1: W5 G6 R6) beside a three-high
		// stack (W4 S5 S5) that the height networks read empty, unsurely (0.50,
		// three high 0.45). A one-high face there would be mostly behind the
		// neighbour, so it was flagged occluded; its top three high is not, and
		// the pip networks read a die's face there 0.97 sure, so faceAbove reads
		// it three high R6.
		{"FaceAboveEmptyRead", "fresh2140_0169", 2, 0, 0, "W5 G6 R6", 3, "R6"},
		// FaceLevelChosen: pins a three-high stack (fresh corpus 2131,
		// still_0067, seat 0, row 1 column 1: G1 R1 S1) that the height networks
		// read five high, 0.55 sure (three high 0.34). The pip networks see a
		// die's face at level 3 0.96 sure and at level 5 0.52, so faceLevels
		// reads it three high S1.
		{"FaceLevelChosen", "fresh2131_0067", 0, 0, 0, "G1 R1 S1", 3, "S1"},
		// ClashLoserStands: pins a three-high stack (fresh corpus 2200,
		// still_0107, seat 0, row 1 column 2: S2 S3 G3) read five high,
		// whose top face there fell on the neighbour's; it gave way and
		// its next choice, three high, was only 0.17 likely, so it was read
		// empty — but empty was 0.04 likely, under clashEmptyShare of it,
		// so the stack stands three high G3.
		{"ClashLoserStands", "fresh2200_0107", 0, 0, 1, "S2 S3 G3", 3, "G3"},
		// FaceLevelGlassUp: pins two clear glass dice (fresh corpus 2132,
		// still_0038, seat 2, row 3 column 1: G1 G1) read one high G6, 0.44 sure
		// (two high 0.40): at level 1 the pip networks read the top die's
		// bottom face through the glass only 0.52 sure, at level 2 its top 0.95,
		// so faceLevels lifts it to two high G1.
		{"FaceLevelGlassUp", "fresh2132_0038", 2, 2, 0, "G1 G1", 2, "G1"},
		// FaceLevelGlassDown: pins a four-high stack with a clear glass top
		// (fresh corpus 2139, still_0138, seat 1, row 1 column 2: R4 W5 S5 G5)
		// read five high, 0.31 sure (four high 0.60). The pip networks see a
		// die's face at level 4 0.96 sure and at level 5 0.76; the values they
		// read there (5 and 5) do not pair as a die's opposite faces, so what
		// shows at level 4 is not the bottom face of a glass top at level 5, and
		// faceLevels reads it four high G5.
		{"FaceLevelGlassDown", "fresh2139_0138", 1, 0, 1, "R4 W5 S5 G5", 4, "G5"},
		// HiddenShareOffCentreLine: pins a two-high stack (fresh corpus 2109,
		// still_0005, seat 2, row 2 column 2: R5 G6) behind a four-high one (W1
		// R1 G3 S3) that hides 0.36 of its top. Read G6 0.69 sure, it was
		// flagged occluded: on a 5x5 grid with a row of samples on the face's
		// centre line its top counted 0.6 hidden, exactly hiddenUnsureShare. On
		// the 8x8 grid (hiddenSamples) no sample lies on a centre line, and it
		// is read two high G6.
		{"HiddenShareOffCentreLine", "fresh2109_0005", 2, 1, 1, "R5 G6", 2, "G6"},
	} {
		t.Run(c.name, func(t *testing.T) {
			stackReadAs(t, "testdata/stacks", c.still, c.seat, c.row, c.col, c.want, c.height, c.top)
		})
	}
}

// TestFaceAboveHidesNoTop pins an empty cell (fresh corpus 2134,
// still_0041, seat 0, row 1 column 1) read empty 0.42 sure, six high
// 0.16, where the pip networks read a die's face at level 6 0.90 sure.
// Six high there, it would hide the top of the four-high stack below it
// (S1 G1 W1 R2), read 0.84 sure: that face was the stack's own, and both
// cells read as they are.
func TestFaceAboveHidesNoTop(t *testing.T) {
	tc, c := seatCardRead(t, "testdata/stacks", "fresh2134_0041", 0)
	require.Equal(t, "", tc.Building[0][0], "the truth's cell is empty")
	assert.Nil(t, c.Cells[0][0], "row 1 column 1 read empty")
	require.Equal(t, "S1 G1 W1 R2", tc.Building[1][0], "the truth's stack below it")
	if cell := c.Cells[1][0]; assert.NotNil(t, cell, "the stack below it") && assert.False(t, cell.Occluded, "not flagged") {
		assert.Equal(t, 4, cell.Height)
		assert.Equal(t, "R2", cell.Top)
	}
}

// TestWeakEmptyNeedsAFace pins an empty hatched cell under a lamp's glare
// (fresh corpus 2110, still_0098, seat 0, row 1 column 1) that the height
// networks read empty only 0.45 sure, six high 0.28: reconsiderEmpties
// read it six high G6, and flagHidden then flagged the empty cell below
// it as hidden behind that stack. The pip networks read no die's face at
// level 6 there (0.40 sure), so both stay empty.
func TestWeakEmptyNeedsAFace(t *testing.T) {
	tc, c := seatCardRead(t, "testdata/stacks", "fresh2110_0098", 0)
	for _, rc := range [][2]int{{0, 0}, {1, 0}} {
		require.Equal(t, "", tc.Building[rc[0]][rc[1]], "the truth's cell is empty")
		assert.Nil(t, c.Cells[rc[0]][rc[1]], "row %d column %d read empty", rc[0]+1, rc[1]+1)
	}
}

// seatCardRead detects a committed still (dir/still) and returns the
// truth's card of seat and the card read there (found within 60 px, as
// vision bench counts it).
func seatCardRead(t *testing.T, dir, still string, seat int) (truthCard, Card) {
	t.Helper()
	tc, c, e := seatCardNearest(t, dir, still, seat)
	require.Less(t, e, 60.0, "seat %d's card found", seat)
	return tc, c
}

// TestWeakClashLoserReadsEmpty pins an empty cell (fresh corpus 2111,
// still_0180, seat 0, row 1 column 2) read five high, whose top face fell
// on the three-high stack's beside it (row 1 column 1: S2 W4 G4). The
// five-high read gave way and chose again: two high, only 0.16 likely,
// against 0.13 for empty. A next choice under clashWeak is read empty.
func TestWeakClashLoserReadsEmpty(t *testing.T) {
	tc, c := seatCardRead(t, "testdata/stacks", "fresh2111_0180", 0)
	require.Equal(t, "", tc.Building[0][1], "the truth's cell is empty")
	assert.Nil(t, c.Cells[0][1], "row 1 column 2 read empty")
	require.Equal(t, "S2 W4 G4", tc.Building[0][0], "the truth's stack beside it")
	if cell := c.Cells[0][0]; assert.NotNil(t, cell, "the stack beside it") {
		assert.Equal(t, 3, cell.Height)
		assert.Equal(t, "G4", cell.Top)
	}
}

// TestBlankSheetNotACard: a white sheet of a card's size on a warm table
// (a score pad, a rulebook page) passes the pale mask, which asks no grid
// of what it fits; with no printed lines on it, it must not be kept as a
// card.
func TestBlankSheetNotACard(t *testing.T) {
	cam := Camera{Fx: 1000, Fy: 1000, Cx: 640, Cy: 360, R: [3][3]float64{{1, 0, 0}, {0, -1, 0}, {0, 0, -1}}, T: [3]float64{0, 0, 800}}
	d := NewDetector(Options{})
	defer d.Close()
	m := d.opts.Model
	img := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(200, 225, 245, 0), 720, 1280, gocv.MatTypeCV8UC3)
	defer img.Close()
	sheet := poseFromRect(m, Vec3{-60, 40, m.CardThickness}, Vec3{math.Cos(0.3), math.Sin(0.3), 0})
	var pts []image.Point
	for _, w := range sheet.corners(m) {
		x, y, ok := cam.Project(w)
		require.True(t, ok)
		pts = append(pts, image.Pt(int(x+0.5), int(y+0.5)))
	}
	pv := gocv.NewPointsVectorFromPoints([][]image.Point{pts})
	defer pv.Close()
	gocv.FillPoly(&img, pv, color.RGBA{250, 250, 250, 0})
	// the sheet is in the pale mask
	d.img = newFrame(img)
	d.bluePixels()
	d.maskFrom(paleThresholds(&d.contrastT, max(d.tableBG()+paleMargin, paleLeast)), nil, true)
	d.img = frame{}
	x, y, _ := cam.Project(sheet.at(m.CardWidth/2, m.CardHeight/2, m.CardThickness))
	require.Equal(t, uint8(255), d.half.GetUCharAt(int(y/2), int(x/2)), "the sheet's centre is in the pale mask")
	res, err := d.Detect(img, cam)
	require.NoError(t, err)
	assert.Empty(t, res.Cards, "a blank sheet is not a card")
}

// A card's height probabilities are there for the cells the height
// networks read, a copy; nil elsewhere and off the grid.
func TestHeightProbabilities(t *testing.T) {
	var c Card
	assert.Nil(t, c.HeightProbabilities(1, 1), "not read")
	c.heightRead[1][1] = true
	c.heightP[1][1][3] = 0.75
	p := c.HeightProbabilities(1, 1)
	require.Len(t, p, HeightClasses)
	assert.InDelta(t, 0.75, p[3], 1e-6)
	p[3] = 0
	assert.InDelta(t, 0.75, c.HeightProbabilities(1, 1)[3], 1e-6, "a copy")
	assert.Nil(t, c.HeightProbabilities(3, 0))
	assert.Nil(t, c.HeightProbabilities(0, -1))
}

// TestWilson95 checks the bench's 95 % intervals against values worked out
// by hand from the Wilson score formula (and printed in textbooks: 0 of 10
// lies below 0.2775, 50 of 100 within 0.4038-0.5962).
func TestWilson95(t *testing.T) {
	for _, c := range []struct {
		right, total int
		lo, hi       float64
	}{
		{0, 10, 0, 0.2775},
		{10, 10, 0.7225, 1},
		{50, 100, 0.4038, 0.5962},
		{1060, 1067, 0.9865, 0.9968},
	} {
		lo, hi := wilson95(c.right, c.total)
		assert.InDelta(t, c.lo, lo, 5e-5, "%d/%d low", c.right, c.total)
		assert.InDelta(t, c.hi, hi, 5e-5, "%d/%d high", c.right, c.total)
	}
	var tl Tally
	for i := 0; i < 20; i++ {
		tl.add(i != 3)
	}
	tl.finish()
	assert.InDelta(t, 0.95, tl.Rate, 1e-12)
	assert.Less(t, tl.Low95, tl.Rate)
	assert.Greater(t, tl.High95, tl.Rate)
	lo, hi := Tally{}.Interval95()
	assert.Zero(t, lo+hi, "nothing counted, no interval")
}

// TestBenchBadTruth: a frame the bench cannot score is listed with what
// is wrong with it, and the bench scores the rest (a die "W" used to
// panic the bench; a damaged file was skipped without a word; an
// unreadable image stopped it with no report).
func TestBenchBadTruth(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(corpus, "*.json"))
	require.NoError(t, err)
	require.GreaterOrEqual(t, len(files), 2)
	data, err := os.ReadFile(files[0])
	require.NoError(t, err)
	var tr map[string]any
	require.NoError(t, json.Unmarshal(data, &tr))
	img, err := os.ReadFile(filepath.Join(corpus, tr["image"].(string)))
	require.NoError(t, err)
	good, err := os.ReadFile(files[1])
	require.NoError(t, err)
	var gtr map[string]any
	require.NoError(t, json.Unmarshal(good, &gtr))
	goodImg, err := os.ReadFile(filepath.Join(corpus, gtr["image"].(string)))
	require.NoError(t, err)
	d := NewDetector(Options{})
	defer d.Close()
	for name, c := range map[string]struct {
		truth func() []byte
		image []byte
		want  string
	}{
		"one-letter die": {func() []byte {
			cards := tr["cards"].([]any)
			card := cards[0].(map[string]any)
			card["building"] = []any{[]any{"W", ""}, []any{"", ""}, []any{"", ""}}
			b, _ := json.Marshal(tr)
			return b
		}, img, `die "W"`},
		"damaged file":    {func() []byte { return data[:len(data)/2] }, img, "still_0000.json: not a truth file"},
		"truncated image": {func() []byte { return data }, img[:len(img)/2], tr["image"].(string) + ": the JPEG file ends before"},
	} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			require.NoError(t, os.WriteFile(filepath.Join(dir, "still_0000.json"), c.truth(), 0o644))
			require.NoError(t, os.WriteFile(filepath.Join(dir, tr["image"].(string)), c.image, 0o644))
			require.NoError(t, os.WriteFile(filepath.Join(dir, "still_0001.json"), good, 0o644))
			require.NoError(t, os.WriteFile(filepath.Join(dir, gtr["image"].(string)), goodImg, 0o644))
			rep, err := d.Bench(dir, 0)
			require.NoError(t, err)
			assert.Equal(t, 1, rep.Frames, "the good frame is scored")
			assert.Positive(t, rep.CardFound.Total)
			require.Len(t, rep.Skipped, 1)
			assert.Contains(t, rep.Skipped[0], c.want)
			assert.Contains(t, rep.Skipped[0], "still_0000.")
		})
	}
}

// sightKey puts a stack hidden in part first, then a clear glass top on a
// card under the camera; every other stack is "open".
func TestSightKey(t *testing.T) {
	for _, c := range []struct {
		hide  float64
		top   byte
		under bool
		want  string
	}{
		{0, 'W', false, "open"},
		{0, 'G', false, "open"},
		{0.29, 'S', true, "open"},
		{0, 'G', true, "glass under camera"},
		{HiddenSome, 'R', false, "hidden"},
		{0.45, 'G', true, "hidden"},
	} {
		assert.Equal(t, c.want, sightKey(c.hide, c.top, c.under), "%+v", c)
	}
}
