package vision

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/blueprints-companion/blueprints/vision/cardmodel"
	"github.com/blueprints-companion/blueprints/vision/internal/cnn"
	"github.com/blueprints-companion/blueprints/vision/internal/pix"
)

// truthFile is the part of a renderer truth file the bench compares with.
type truthFile struct {
	Image  string `json:"image"`
	Width  int    `json:"width"`
	Render struct {
		Table string `json:"table"`
		Glare bool   `json:"glare"`
	} `json:"render"`
	Hands   []struct{}  `json:"hands"`
	Screens []struct{}  `json:"screens"`
	Cards   []truthCard `json:"cards"`
}

// truthCard is one card of a truth file.
type truthCard struct {
	Seat      int           `json:"seat"`
	Blueprint string        `json:"blueprint"`
	Building  [][]string    `json:"building"`
	CornersPx [4][2]float64 `json:"corners_px"`
	Occluded  [][2]int      `json:"occluded"`
	Cells     []struct {
		Row    int     `json:"row"`
		Col    int     `json:"col"`
		Hand   float64 `json:"hand_occlusion"`
		Screen float64 `json:"screen_occlusion"`
		Dice   float64 `json:"dice_occlusion"`
	} `json:"cells"`
}

// checkDice reports a die in the truth's buildings that is not a material
// (W, R, S, G) and pips (1-6), such as "W" or "X9".
func (t *truthFile) checkDice() error {
	for _, c := range t.Cards {
		for r, row := range c.Building {
			for col, cell := range row {
				for _, die := range strings.Fields(cell) {
					if len(die) != 2 || !strings.ContainsRune("WRSG", rune(die[0])) || die[1] < '1' || die[1] > '6' {
						return fmt.Errorf("card of seat %d, building[%d][%d]: die %q: want a material W, R, S or G and pips 1-6, e.g. \"W3\"", c.Seat, r, col, die)
					}
				}
			}
		}
	}
	return nil
}

// conditions names the conditions an image was made under, for the
// per-condition tallies.
func (t *truthFile) conditions() []string {
	c := []string{"table=" + t.Render.Table, fmt.Sprintf("width=%d", t.Width)}
	if t.Render.Glare {
		c = append(c, "glare")
	}
	if len(t.Hands) > 0 {
		c = append(c, "hand")
	}
	if len(t.Screens) > 0 {
		c = append(c, "screen")
	}
	return c
}

// brokenRule names the placement rule a stack of dice (bottom to top, as
// "W3") on row r, column col of a card with blueprint bp ("X1/31/1X", X
// hatched) breaks: "hatched-cell", "die-on-higher-value" (its top die on
// a higher value), else "legal".
func brokenRule(bp string, r, col int, dice []string) string {
	if rows := strings.Split(bp, "/"); r < len(rows) && col < len(rows[r]) && rows[r][col] == 'X' {
		return "hatched-cell"
	}
	if n := len(dice); n >= 2 && len(dice[n-1]) == 2 && len(dice[n-2]) == 2 && dice[n-1][1] < dice[n-2][1] {
		return "die-on-higher-value"
	}
	return "legal"
}

// Tally counts right answers of one attribute. Low95 and High95 bound the
// rate a corpus like this one, drawn again, would show (the Wilson score
// interval at 95 %): on a bench of about a thousand stacks a rate of
// 99.3 % lies between about 98.7 and 99.7 %, so two codes, or a code and
// a target, a few stacks apart are not told apart by one corpus.
type Tally struct {
	Right  int     `json:"right"`
	Total  int     `json:"total"`
	Rate   float64 `json:"rate"`
	Low95  float64 `json:"low95"`
	High95 float64 `json:"high95"`
}

func (t *Tally) add(ok bool) {
	t.Total++
	if ok {
		t.Right++
	}
}

// BenchReport is the accuracy of Detect over a corpus with truth.
type BenchReport struct {
	Frames int `json:"frames"`
	// InPlay is which seats the detector was told are taken: "every
	// seat", the seats (SetInPlay), or "each still's truth"
	// (SetInPlayFromTruth).
	InPlay    string `json:"seats_in_play"`
	CardFound Tally  `json:"card_found"`
	// CardFoundUncovered counts only cards no hand covers (none of their
	// cells in the truth's occluded list). A screen standing over part of
	// a card does not make it covered: the truth lists hands only.
	CardFoundUncovered Tally `json:"card_found_uncovered"`
	// CardFoundInView counts only cards with no cell behind a hand or a
	// player's screen (any part of a cell, as for hands): the cards the
	// camera sees whole.
	CardFoundInView Tally   `json:"card_found_in_view"`
	SeatRight       Tally   `json:"seat"`
	CornerErrPx     float64 `json:"corner_error_px_median"`
	CornerErrMaxPx  float64 `json:"corner_error_px_max"`
	FalseCards      int     `json:"false_cards"`
	Occupancy       Tally   `json:"empty_occupied"`
	Material        Tally   `json:"material"`
	Pips            Tally   `json:"pips"`
	Height          Tally   `json:"height"`
	Stack           Tally   `json:"whole_stack"`
	// HandFlagged counts cells a hand hides by at least HandCovered of
	// their top that were flagged occluded; FalseOcclusion counts cells no
	// hand touches that were (right = not flagged).
	HandFlagged      Tally `json:"hand_flagged"`
	NoFalseOcclusion Tally `json:"not_falsely_occluded"`
	// HiddenByDice counts stacks whose top other dice hide by at least
	// HiddenByDice of it (a taller neighbour seen from the side): no image
	// shows them, so they are left out of the attributes above like the
	// cells a hand covers; right = flagged occluded. An empty cell hidden
	// as much counts as usual, except that flagging it occluded is not a
	// mistake.
	HiddenByDice Tally            `json:"hidden_by_dice_flagged"`
	PerMaterial  map[string]Tally `json:"per_material"`
	PerHeight    map[string]Tally `json:"per_height"`
	// PerCondition is whole-stack accuracy by table, glare, hands, screens
	// and image width.
	PerCondition map[string]Tally `json:"per_condition"`
	// HeightPerSlide is height accuracy by how far (pixels) a stack's top
	// face moves in the image per die of height (slideKey): under the
	// camera it barely moves, and only the face's size tells the height.
	HeightPerSlide map[string]Tally `json:"height_per_slide"`
	// StackPerSlide is whole-stack accuracy by the same bins: where the
	// height is hard to see, a glass top's pips are too (its own bottom
	// face lies right under its top face there).
	StackPerSlide map[string]Tally `json:"whole_stack_per_slide"`
	// StackPerTop is whole-stack accuracy by the true top die's material
	// (a clear glass top shows the dice below it through itself).
	StackPerTop map[string]Tally `json:"whole_stack_per_top"`
	// StackPerRule is whole-stack accuracy by the placement rule the
	// stack breaks (engine's names): "hatched-cell" (standing on a hatched
	// cell), "die-on-higher-value" (its top die on a higher value), or
	// "legal" — renders with bprender --mistakes hold the first two.
	StackPerRule map[string]Tally `json:"whole_stack_per_rule"`
	// StackPerCrowding is whole-stack accuracy by how many of the card's
	// six cells hold a stack (in the truth): on a crowded card the grid's
	// lines and the blue between the stacks are hidden.
	StackPerCrowding map[string]Tally `json:"whole_stack_per_stacks_on_card"`
	// StackPerSight is whole-stack accuracy by how much of the top the
	// frame can show (sightKey): "hidden" — other dice hide at least
	// HiddenSome of it (and less than HiddenByDice, past which it is not
	// counted at all); "glass under camera" — a clear glass top on a card
	// found under the camera, whose bottom face's pips, seen through it,
	// lie under its top face's with no parallax to tell them apart;
	// "open" — every other stack. The first two are where a single frame
	// shows least (the fifty-eighth session: 3 % of the stacks of fresh
	// 2175-2209, 44 % of their misreads).
	StackPerSight map[string]Tally `json:"whole_stack_per_sight"`
	// ByConfidence says what a reader that trusts only sure reads gets:
	// for each least confidence (ConfidenceSteps), how many of the stacks
	// (those whole_stack counts) were read as a stack at least that sure,
	// how many of those were wholly right, and how many empty cells were
	// read as a stack at least that sure.
	ByConfidence []ConfidenceTally `json:"whole_stack_by_confidence"`
	// MsPerFrame is the median time of Detect (not decoding the file) over
	// all frames; MsPerFrame720 over 1280x720 frames with four cards.
	MsPerFrame    float64 `json:"ms_per_frame_median"`
	MsPerFrame720 float64 `json:"ms_per_frame_1280x720_four_cards_median"`
	// MsPerFrameMax is the slowest frame's time (a frame with many
	// uncertain cells reads them in more views).
	MsPerFrameMax float64 `json:"ms_per_frame_max"`
	// TimingRuns is how many times each frame was detected for its time
	// (the fastest counts; SetBenchRepeat).
	TimingRuns int `json:"timing_runs"`
	// Kernels says which instructions the timed code ran (Kernels), so
	// that times from different processors can be told apart.
	Kernels  string   `json:"kernels"`
	Failures []string `json:"failures,omitempty"`
	// Skipped names each frame the bench could not score and why (an
	// unreadable image, a damaged truth file): the bench goes on without
	// it, and the figures above leave it out.
	Skipped []string `json:"skipped_frames,omitempty"`
}

// Kernels says which kernels the detector runs on this processor: the
// networks', the samplers' (pix.Sampler, the whiteness plane's readers),
// the card masks' and the whiteness plane's (each AVX-512, AVX2 or Go;
// where the whiteness kernel is Go there is no plane). All give the same
// reads; only the time differs.
func Kernels() string {
	nets := "go"
	switch {
	case cnn.SIMDZ:
		nets = "avx512"
	case cnn.SIMD:
		nets = "avx2"
	}
	masks := "go"
	if pix.FastMasks {
		masks = pix.MaskKernel()
	}
	return fmt.Sprintf("networks %s, samplers %s, masks %s, whiteness %s", nets, pix.SamplingKernel(), masks, pix.WhitenessKernel())
}

// ConfidenceSteps are the least confidences ByConfidence counts at.
var ConfidenceSteps = []float64{0, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9}

// ConfidenceTally is one step of BenchReport.ByConfidence.
type ConfidenceTally struct {
	MinConfidence float64 `json:"min_confidence"`
	// Stacks is how many stacks whole_stack counts (on cards found, not
	// under a hand, not hidden by other dice); Read how many of them were
	// read as a stack with at least MinConfidence (a cell read empty or
	// flagged occluded is not), Right how many of those wholly right.
	Stacks int `json:"stacks"`
	Read   int `json:"read"`
	Right  int `json:"right"`
	// Rate is Right/Read, ReadShare Read/Stacks.
	Rate      float64 `json:"rate"`
	ReadShare float64 `json:"read_share"`
	// EmptyAsStack is how many empty cells were read as a stack with at
	// least MinConfidence.
	EmptyAsStack int `json:"empty_as_stack"`
}

// Bench runs Detect on every image of dir that has a truth file beside it
// (NAME.json next to the image it names) and compares. A frame it cannot
// score (its image or truth file unreadable or damaged) is listed in the
// report's Skipped and left out; the error is for the corpus as a whole
// (and for --cells-out's writes).
func (d *Detector) Bench(dir string, maxFailures int) (BenchReport, error) {
	rep := BenchReport{PerMaterial: map[string]Tally{}, PerHeight: map[string]Tally{}, PerCondition: map[string]Tally{}, HeightPerSlide: map[string]Tally{}, StackPerSlide: map[string]Tally{}, StackPerTop: map[string]Tally{}, StackPerRule: map[string]Tally{}, StackPerCrowding: map[string]Tally{}, StackPerSight: map[string]Tally{}}
	rep.ByConfidence = make([]ConfidenceTally, len(ConfidenceSteps))
	for i, c := range ConfidenceSteps {
		rep.ByConfidence[i].MinConfidence = c
	}
	files, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil {
		return rep, err
	}
	sort.Strings(files)
	rep.InPlay = d.inPlayName()
	rep.TimingRuns = max(1, d.benchRepeat)
	rep.Kernels = Kernels()
	if d.inPlayFromTruth {
		defer func(saved uint64) { d.inPlay = saved }(d.inPlay)
	}
	var times, times720, cornerErr []float64
	for _, tf := range files {
		data, err := os.ReadFile(tf)
		if err != nil {
			rep.skip(err)
			continue
		}
		var truth truthFile
		if err := json.Unmarshal(data, &truth); err != nil {
			rep.skip(fmt.Errorf("%s: not a truth file: %w", tf, err))
			continue
		}
		if truth.Image == "" {
			continue // another JSON file beside the stills
		}
		if err := truth.checkDice(); err != nil {
			rep.skip(fmt.Errorf("%s: %w", tf, err))
			continue
		}
		cam, err := ParseTruthCamera(data)
		if err != nil {
			rep.skip(fmt.Errorf("%s: %w", tf, err))
			continue
		}
		if d.inPlayFromTruth {
			d.inPlay = 0
			for _, tc := range truth.Cards {
				if tc.Seat >= 0 && tc.Seat < 64 {
					d.inPlay |= 1 << tc.Seat
				}
			}
		}
		res, ms, err := d.timedDetect(filepath.Join(filepath.Dir(tf), truth.Image), cam)
		if err != nil {
			rep.skip(err)
			continue
		}
		times = append(times, ms)
		if truth.Width == 1280 && len(truth.Cards) == 4 {
			times720 = append(times720, ms)
		}
		rep.Frames++
		used := make([]bool, len(res.Cards))
		for _, tc := range truth.Cards {
			best, bestErr := nearestCard(res.Cards, used, tc.CornersPx)
			found := best >= 0 && bestErr < 60
			rep.CardFound.add(found)
			screened := 0
			for _, c := range tc.Cells {
				if c.Screen > 0 {
					screened++
				}
			}
			if len(tc.Occluded) == 0 {
				rep.CardFoundUncovered.add(found)
				if screened == 0 {
					rep.CardFoundInView.add(found)
				}
			}
			if !found {
				cover := "uncovered"
				switch {
				case len(tc.Occluded) > 0:
					cover = fmt.Sprintf("%d cells covered", len(tc.Occluded))
				case screened > 0:
					cover = fmt.Sprintf("uncovered, %d cells behind a screen", screened)
				}
				rep.fail(maxFailures, "%s: seat %d card not found, %s (best corner error %.0f px)", truth.Image, tc.Seat, cover, bestErr)
				continue
			}
			used[best] = true
			cornerErr = append(cornerErr, bestErr)
			if bestErr > poseOffPx {
				rep.fail(maxFailures, "%s: seat %d card found %.0f px off (farthest corner)", truth.Image, tc.Seat, bestErr)
			}
			c := res.Cards[best]
			rep.SeatRight.add(c.Seat == tc.Seat)
			if d.cellLog != nil {
				if err := d.logCells(filepath.Join(dir, truth.Image), &tc, &c); err != nil {
					return rep, err
				}
			}
			occluded := map[[2]int]bool{}
			for _, o := range tc.Occluded {
				occluded[o] = true
			}
			diceHide := map[[2]int]float64{} // the share of each cell's top other dice hide
			for _, tcell := range tc.Cells {
				diceHide[[2]int{tcell.Row, tcell.Col}] = tcell.Dice
			}
			crowd := 0
			for _, row := range tc.Building {
				for _, st := range row {
					if strings.TrimSpace(st) != "" {
						crowd++
					}
				}
			}
			for r := 0; r < 3 && r < len(tc.Building); r++ {
				for col := 0; col < 2 && col < len(tc.Building[r]); col++ {
					got := c.Cells[r][col]
					flagged := got != nil && got.Occluded
					if occluded[[2]int{r, col}] {
						for _, tcell := range tc.Cells {
							if tcell.Row == r && tcell.Col == col && tcell.Hand >= HandCovered {
								rep.HandFlagged.add(flagged)
							}
						}
						continue
					}
					dice := strings.Fields(tc.Building[r][col])
					if diceHide[[2]int{r, col}] >= HiddenByDice {
						if len(dice) > 0 {
							rep.HiddenByDice.add(flagged)
							if !flagged {
								read := "empty"
								if got != nil {
									read = fmt.Sprintf("%d high %s", got.Height, got.Top)
								}
								rep.fail(maxFailures, "%s: seat %d r%dc%d %s hidden by other dice, not flagged: read %s", truth.Image, tc.Seat, r+1, col+1, tc.Building[r][col], read)
							}
							continue
						}
						if flagged {
							// an empty cell other dice hide: "cannot see"
							// is a right answer for it, as "empty" is
							continue
						}
					}
					rep.NoFalseOcclusion.add(!flagged)
					if flagged {
						rep.fail(maxFailures, "%s: seat %d r%dc%d %q flagged occluded", truth.Image, tc.Seat, r+1, col+1, tc.Building[r][col])
					}
					rep.Occupancy.add((len(dice) == 0) == (got == nil))
					if len(dice) == 0 {
						if got != nil {
							rep.countConfidence(false, got, false)
							rep.fail(maxFailures, "%s: seat %d r%dc%d empty, read %d high %s", truth.Image, tc.Seat, r+1, col+1, got.Height, got.Top)
						}
						continue
					}
					top := dice[len(dice)-1]
					hkey := fmt.Sprint(len(dice))
					mkey := top[:1]
					okH, okM, okP := false, false, false
					if got != nil {
						okH = got.Height == len(dice)
						okM = got.Material == top[0]
						okP = got.Pips == int(top[1]-'0')
					}
					rep.Height.add(okH)
					rep.Material.add(okM)
					rep.Pips.add(okP)
					rep.Stack.add(okH && okM && okP)
					rep.countConfidence(true, got, okH && okM && okP)
					pt := rep.StackPerTop[mkey]
					pt.add(okH && okM && okP)
					rep.StackPerTop[mkey] = pt
					rule := brokenRule(tc.Blueprint, r, col, dice)
					pr := rep.StackPerRule[rule]
					pr.add(okH && okM && okP)
					rep.StackPerRule[rule] = pr
					pc := rep.StackPerCrowding[fmt.Sprint(crowd)]
					pc.add(okH && okM && okP)
					rep.StackPerCrowding[fmt.Sprint(crowd)] = pc
					sk := sightKey(diceHide[[2]int{r, col}], top[0], c.UnderCamera)
					sg := rep.StackPerSight[sk]
					sg.add(okH && okM && okP)
					rep.StackPerSight[sk] = sg
					for _, cond := range truth.conditions() {
						t := rep.PerCondition[cond]
						t.add(okH && okM && okP)
						rep.PerCondition[cond] = t
					}
					ph, pm := rep.PerHeight[hkey], rep.PerMaterial[mkey]
					ph.add(okH)
					pm.add(okM)
					rep.PerHeight[hkey], rep.PerMaterial[mkey] = ph, pm
					skey := slideKey(&cam, d.opts.Model, tc.CornersPx, r, col)
					ps := rep.HeightPerSlide[skey]
					ps.add(okH)
					rep.HeightPerSlide[skey] = ps
					ss := rep.StackPerSlide[skey]
					ss.add(okH && okM && okP)
					rep.StackPerSlide[skey] = ss
					if !(okH && okM && okP) {
						if got == nil {
							rep.fail(maxFailures, "%s: seat %d r%dc%d %s read empty", truth.Image, tc.Seat, r+1, col+1, tc.Building[r][col])
						} else {
							rep.fail(maxFailures, "%s: seat %d r%dc%d %s read %d high %s (conf %.2f)", truth.Image, tc.Seat, r+1, col+1, tc.Building[r][col], got.Height, got.Top, got.Confidence)
						}
					}
				}
			}
		}
		for i, u := range used {
			if !u {
				c := res.Cards[i].Corners
				rep.fail(maxFailures, "%s: false card at (%.0f,%.0f) (%.0f,%.0f) (%.0f,%.0f) (%.0f,%.0f)", truth.Image, c[0][0], c[0][1], c[1][0], c[1][1], c[2][0], c[2][1], c[3][0], c[3][1])
				rep.FalseCards++
			}
		}
	}
	rep.MsPerFrame = median(times)
	rep.MsPerFrame720 = median(times720)
	for _, t := range times {
		rep.MsPerFrameMax = max(rep.MsPerFrameMax, t)
	}
	rep.CornerErrPx = median(cornerErr)
	for _, e := range cornerErr {
		rep.CornerErrMaxPx = max(rep.CornerErrMaxPx, e)
	}
	for _, t := range []*Tally{&rep.HiddenByDice, &rep.HandFlagged, &rep.NoFalseOcclusion, &rep.CardFoundUncovered, &rep.CardFoundInView, &rep.CardFound, &rep.SeatRight, &rep.Occupancy, &rep.Material, &rep.Pips, &rep.Height, &rep.Stack} {
		t.finish()
	}
	for _, m := range []map[string]Tally{rep.PerHeight, rep.PerCondition, rep.HeightPerSlide, rep.StackPerSlide, rep.PerMaterial, rep.StackPerRule, rep.StackPerCrowding, rep.StackPerTop, rep.StackPerSight} {
		for k, t := range m {
			t.finish()
			m[k] = t
		}
	}
	for i := range rep.ByConfidence {
		c := &rep.ByConfidence[i]
		if c.Read > 0 {
			c.Rate = float64(c.Right) / float64(c.Read)
		}
		if c.Stacks > 0 {
			c.ReadShare = float64(c.Read) / float64(c.Stacks)
		}
	}
	return rep, nil
}

// slideKey buckets cell (row, col) of a card whose corners (TL, TR, BR,
// BL as printed) lie at corners in the image by how far the top face of a
// stack there moves per die of height: "slide=0-3px", "slide=3-6px",
// "slide=6-9px", "slide=9-12px", "slide=12-15px", "slide=15-20px" or
// "slide=20+px" ("slide=?" where the camera cannot say). (Until the
// fifty-ninth session the last four were one, "slide=9+px": split, they
// show that the stacks read best where their faces slide 6-12 px per die,
// and worse further out, where tall stacks hide more of their neighbours
// — a guide to where a camera should hang.)
func slideKey(cam *Camera, m cardmodel.Model, corners [4][2]float64, row, col int) string {
	u, v := m.CellCenter(row, col)
	fu, fv := u/m.CardWidth, v/m.CardHeight
	var px [2]float64
	for i := range px {
		top := (1-fu)*corners[0][i] + fu*corners[1][i]
		bottom := (1-fu)*corners[3][i] + fu*corners[2][i]
		px[i] = (1-fv)*top + fv*bottom
	}
	w, ok := cam.OnPlane(px[0], px[1], m.CardThickness)
	if !ok {
		return "slide=?"
	}
	w.Z += m.Die
	x, y, ok := cam.Project(w)
	if !ok {
		return "slide=?"
	}
	s := math.Hypot(x-px[0], y-px[1])
	for _, b := range slideBins {
		if s < b.below {
			return b.key
		}
	}
	return slideBins[len(slideBins)-1].key
}

// slideBins are slideKey's bins, in order: a slide under below pixels
// per die (and at least the bin before's) falls in key.
var slideBins = []struct {
	below float64
	key   string
}{
	{3, "slide=0-3px"}, {6, "slide=3-6px"}, {9, "slide=6-9px"}, {12, "slide=9-12px"},
	{15, "slide=12-15px"}, {20, "slide=15-20px"}, {math.Inf(1), "slide=20+px"},
}

// SlideKeys lists the keys of BenchReport's per-slide tallies in order of
// slide ("slide=?" aside).
func SlideKeys() []string {
	keys := make([]string, len(slideBins))
	for i, b := range slideBins {
		keys[i] = b.key
	}
	return keys
}

// countConfidence counts one cell in ByConfidence: a true stack (read
// wholly right or not) or an empty cell, and what was read there (nil:
// empty).
func (r *BenchReport) countConfidence(stack bool, got *Cell, right bool) {
	for i := range r.ByConfidence {
		c := &r.ByConfidence[i]
		sure := got != nil && !got.Occluded && got.Confidence >= c.MinConfidence
		switch {
		case !stack:
			if sure {
				c.EmptyAsStack++
			}
		default:
			c.Stacks++
			if sure {
				c.Read++
				if right {
					c.Right++
				}
			}
		}
	}
}

func (t *Tally) finish() {
	if t.Total > 0 {
		t.Rate = float64(t.Right) / float64(t.Total)
		t.Low95, t.High95 = t.Interval95()
	}
}

// Interval95 is the Wilson score interval at 95 % of t's rate (Low95 and
// High95 once the bench has finished t; 0, 0 when it counted nothing).
func (t Tally) Interval95() (lo, hi float64) {
	if t.Total <= 0 {
		return 0, 0
	}
	return wilson95(t.Right, t.Total)
}

// wilson95 is the Wilson score interval at 95 % of a rate of right in
// total trials (total > 0), clamped to [0, 1].
func wilson95(right, total int) (lo, hi float64) {
	const z = 1.959963984540054
	n := float64(total)
	p := float64(right) / n
	den := 1 + z*z/n
	mid := (p + z*z/(2*n)) / den
	half := z * math.Sqrt(p*(1-p)/n+z*z/(4*n*n)) / den
	return max(0, mid-half), min(1, mid+half)
}

func (r *BenchReport) skip(err error) { r.Skipped = append(r.Skipped, err.Error()) }

func (r *BenchReport) fail(max int, format string, args ...any) {
	if len(r.Failures) < max {
		r.Failures = append(r.Failures, fmt.Sprintf(format, args...))
	}
}

func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	var buf [64]float64
	s := buf[:0]
	if len(xs) > len(buf) {
		s = make([]float64, 0, len(xs))
	}
	s = append(s, xs...)
	return selectKth(s, len(s)/2)
}

// selectKth is the element a sort.Float64s of s would put at index k
// (NaNs first), found by quickselect; it reorders s.
func selectKth(s []float64, k int) float64 {
	less := func(a, b float64) bool { return a < b || (math.IsNaN(a) && !math.IsNaN(b)) }
	lo, hi := 0, len(s)-1
	for lo < hi {
		// median of three as the pivot, then a three-way partition
		mid := lo + (hi-lo)/2
		a, b, c := s[lo], s[mid], s[hi]
		p := b
		if less(a, b) == less(b, c) {
			p = b
		} else if less(b, a) == less(a, c) {
			p = a
		} else {
			p = c
		}
		lt, i, gt := lo, lo, hi
		for i <= gt {
			switch {
			case less(s[i], p):
				s[lt], s[i] = s[i], s[lt]
				lt++
				i++
			case less(p, s[i]):
				s[i], s[gt] = s[gt], s[i]
				gt--
			default:
				i++
			}
		}
		switch {
		case k < lt:
			hi = lt - 1
		case k > gt:
			lo = gt + 1
		default:
			return s[k]
		}
	}
	return s[k]
}

func jsonUnmarshal(data []byte, v any) error { return json.Unmarshal(data, v) }

// SetCellLog makes Bench write to w, for every cell of every card it
// matches to a truth card, one line of JSON (a CellRecord): what the truth
// says, what was read and what the height networks said — the data to see
// why a cell was misread, or to choose a rule's threshold. nil stops it.
func (d *Detector) SetCellLog(w io.Writer) {
	d.cellLog = nil
	if w != nil {
		d.cellLog = json.NewEncoder(w)
	}
}

// CellRecord is one line of the cell log (SetCellLog): a cell of a card
// Bench matched to a truth card. Image is the image's path (the corpus
// folder joined with its name); Row and Col count from 0; Truth is the
// stack bottom to top as the truth file writes it ("" for empty); Hand
// and Dice are the shares of its top that a hand and other dice hide.
// Read is "empty", "occluded" or the height and top read ("3 W5"), with
// its Confidence; HeightP the height networks' probabilities (empty,
// 1..6, hand), absent for the classical reader.
type CellRecord struct {
	Image       string    `json:"image"`
	Seat        int       `json:"seat"`
	Row         int       `json:"row"`
	Col         int       `json:"col"`
	Truth       string    `json:"truth"`
	Hand        float64   `json:"hand_occlusion"`
	Dice        float64   `json:"dice_occlusion"`
	Read        string    `json:"read"`
	Confidence  float64   `json:"confidence"`
	UnderCamera bool      `json:"card_under_camera"`
	HeightP     []float32 `json:"height_p,omitempty"`
}

// logCells writes card c's cells, matched to truth card tc of image, to
// the cell log.
func (d *Detector) logCells(image string, tc *truthCard, c *Card) error {
	for r := 0; r < 3 && r < len(tc.Building); r++ {
		for col := 0; col < 2 && col < len(tc.Building[r]); col++ {
			rec := CellRecord{Image: image, Seat: tc.Seat, Row: r, Col: col, Truth: strings.TrimSpace(tc.Building[r][col]), Read: "empty", UnderCamera: c.UnderCamera, HeightP: c.HeightProbabilities(r, col)}
			for _, tcell := range tc.Cells {
				if tcell.Row == r && tcell.Col == col {
					rec.Hand, rec.Dice = tcell.Hand, tcell.Dice
				}
			}
			switch got := c.Cells[r][col]; {
			case got == nil:
			case got.Occluded:
				rec.Read, rec.Confidence = "occluded", got.Confidence
			default:
				rec.Read, rec.Confidence = fmt.Sprintf("%d %s", got.Height, got.Top), got.Confidence
			}
			if err := d.cellLog.Encode(&rec); err != nil {
				return fmt.Errorf("cell log: %w", err)
			}
		}
	}
	return nil
}

// ErrNotRepeatable is returned by Bench (with SetBenchRepeat) when a
// frame read again gives another result.
var ErrNotRepeatable = errors.New("vision: detect read a frame differently the second time")

// timedDetect decodes an image file, then detects and times only that: the
// fastest of d.benchRepeat runs, each of which must give the first's
// result.
func (d *Detector) timedDetect(path string, cam Camera) (Result, float64, error) {
	img, err := readImage(path)
	if err != nil {
		return Result{}, 0, err
	}
	defer img.Close()
	var first Result
	best := math.Inf(1)
	for i := 0; i < max(1, d.benchRepeat); i++ {
		start := time.Now()
		res, err := d.detectImage(img, path, cam)
		ms := float64(time.Since(start).Microseconds()) / 1000
		if err != nil {
			return res, ms, err
		}
		if i == 0 {
			first = res
		} else if !reflect.DeepEqual(res, first) {
			return first, best, fmt.Errorf("%w: %s (run %d)", ErrNotRepeatable, path, i+1)
		}
		best = min(best, ms)
	}
	return first, best, nil
}

// poseOffPx is how far (pixels) a found card's farthest corner may lie
// from the truth's before --failures lists it: the cells are then sampled
// off their squares.
const poseOffPx = 6

// nearestCard matches a card of the truth to the detected cards not yet
// used: the one whose farthest corner is nearest the truth's, and that
// distance in pixels (-1 and +Inf when none is left).
func nearestCard(cards []Card, used []bool, corners [4][2]float64) (int, float64) {
	best, bestErr := -1, math.Inf(1)
	for i, c := range cards {
		if used[i] {
			continue
		}
		e := 0.0
		for k := 0; k < 4; k++ {
			e = max(e, math.Hypot(c.Corners[k][0]-corners[k][0], c.Corners[k][1]-corners[k][1]))
		}
		if e < bestErr {
			best, bestErr = i, e
		}
	}
	return best, bestErr
}

// inPlayName says which seats the detector takes as in play (see
// BenchReport.InPlay).
func (d *Detector) inPlayName() string {
	if d.inPlayFromTruth {
		return "each still's truth"
	}
	if d.inPlay == 0 {
		return "every seat"
	}
	var seats []string
	for s := 0; s < 64; s++ {
		if d.inPlay&(1<<s) != 0 {
			seats = append(seats, strconv.Itoa(s))
		}
	}
	return strings.Join(seats, ",")
}

// HiddenSome is the share of a stack's top other dice hide from which
// the bench counts it apart as "hidden" (StackPerSight).
const HiddenSome = 0.3

// sightKey is StackPerSight's key for a stack whose top other dice hide
// by share hide, whose top die is of material top, on a card found under
// the camera or not.
func sightKey(hide float64, top byte, underCamera bool) string {
	switch {
	case hide >= HiddenSome:
		return "hidden"
	case top == 'G' && underCamera:
		return "glass under camera"
	}
	return "open"
}
