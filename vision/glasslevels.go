package vision

import (
	"fmt"
	"math"

	"github.com/blueprints-companion/blueprints/vision/internal/cnn"
)

// The glass levels network: a clear glass top's height and value read
// together, from its pip patches at three levels. Learned in the
// fifty-fifth session and built in (model/glass_levels.cnn) since the
// fifty-sixth, behind glassLevelsGate; a glass_levels.cnn beside the
// model files of --cell-model DIR is read in its place (UseNetworkFiles),
// and Options.NoGlassLevels reads without it.
//
// A clear glass top shows, through itself, its own bottom face (whose
// pips make 7 with the top's) and the die below; read a level too low or
// too high, its face patch still shows a die face's pips, and the pip
// networks read that face as surely as a top. The height networks see
// every level, but through 12x12 colour patches that hold little of the
// pips. The glass levels network reads, for a stack read h high with a
// glass top, the pip patches (as the pip networks read them) at h-1, h
// and h+1 side by side, one plane each, and says how likely each of the
// 18 pairs (true height h-1, h or h+1; value 1-6) is. It learns from
// every glass top the bench would score of the renders it is given, each
// seen read a level low, at its height and a level high (vision/celltrain
// -train glass-levels; make glass-levels-model).
//
// readLearned then takes, over those three heights k and six values v,
// the likeliest of
//
//	P_glass(k, v) · P_height(k)^glassLevelsHeightPow · P_pips@k(v)
//
// where P_height is the height networks' reading of the cell and P_pips@k
// the pip networks' at level k: three readers of different inputs. The
// network reads each input in all eight symmetries of the square, and the
// mean is taken (views.go).
//
// Judged in the fifty-fifth session (vision/JOURNAL.md), ungated: on
// renders drawn as the bench is, it mends about as many glass tops as it
// breaks (fresh 2187-2190 and 2191-2194: 8 mended, 6 broken of 5,787
// stacks); on glass-heavy renders (bprender corpus --glass-tops 0.7) it
// mends far more (3303-3304: 13 mended, 1 broken of 1,424; glass heights
// misread 9 → 1). Behind the gate, judged in the fifty-sixth session on
// sealed fresh 2195-2200 and glass-heavy 3305: 4 mended, none broken of
// 5,097 stacks. The powers were chosen on fresh 2187-2190: the height
// networks' 0.5 of 0.5, 1 and 2, the pip networks' 1 of 0.5 and 1.
const (
	glassLevelsHeightPow = 0.5
	glassLevelsViews     = 8
	// glassLevelsFloor keeps a reader's zero from ruling a pair out alone.
	glassLevelsFloor = 1e-3
	// glassLevelsGate is the share of the product the likeliest pair must
	// hold for readLearned to take it; under it the stack keeps the read
	// of the height and pip networks. Found in the fifty-fifth session's
	// judging data (fresh 2187-2194, glass-heavy 3303-3304: of the reads
	// the network changed, those at 0.8 or more mended 9 stacks and broke
	// none; those under it mended 12 and broke 6); judged in the
	// fifty-sixth on corpora it was not found on (vision/JOURNAL.md).
	glassLevelsGate = 0.8
	// glassLevelsUnsure: the network reads only the glass tops the
	// height and pip networks read less than this sure (the cell's
	// confidence as it would stand without it). Of the reads it changed
	// on the fifty-sixth session's corpora the surest had been read 0.765
	// sure (fresh 2172 still_0003's G3 W4 R4 S6 G6, read four high G1,
	// mended; 0.7 would have lost it); with 0.8, every read of fresh
	// 2141-2146 and 2167-2204, of glass-heavy 3305, of the bench and of
	// the mistakes corpus is the same as with the network reading every
	// glass top (some confidences differ), and a four-card frame takes
	// about 3 ms less, about 7 ms less on glass-heavy tables
	// (vision/JOURNAL.md).
	glassLevelsUnsure = 0.8
)

// GlassLevelsClasses is how many classes the glass levels network has:
// the true height a level below, at or above the read one, times the six
// values.
const GlassLevelsClasses = 18

// GlassLevelsInput fills dst (three times a pip patch long) with the glass
// levels network's input for a stack read h high (1..MaxStack) whose pip
// patches at levels 1..MaxStack are pips: those at h-1, h and h+1 one
// after another, zeros for a level off the stack's range.
func GlassLevelsInput(pips *[MaxStack][]float32, h int, dst []float32) {
	n := len(dst) / 3
	for o := -1; o <= 1; o++ {
		seg := dst[(o+1)*n : (o+2)*n]
		if k := h + o; k >= 1 && k <= MaxStack && len(pips[k-1]) == n {
			copy(seg, pips[k-1])
		} else {
			clear(seg)
		}
	}
}

// GlassLevelsClass is the glass levels network's class for a stack truly
// height high with a top of value (1-6), read h high; -1 if the truth is
// not within a level of h.
func GlassLevelsClass(height, value, h int) int {
	o := height - h
	if o < -1 || o > 1 || value < 1 || value > 6 {
		return -1
	}
	return (o+1)*6 + value - 1
}

// glassLevels is the detector's glass levels network (one, or an
// ensemble whose probabilities are averaged) and its scratch.
type glassLevels struct {
	ws   []*cnn.Workspace
	x, y []float32 // the input, and one view of it
	p    [GlassLevelsClasses]float32
	pips [3][6]float32 // the pip networks at each of the three levels
}

// useGlassLevels makes the detector read clear glass tops with the glass
// levels networks nets too (none: not). They must read three planes of
// the pip networks' patch side, one per level, to GlassLevelsClasses
// classes.
func (d *Detector) useGlassLevels(nets []*cnn.Net) error {
	if len(nets) == 0 {
		d.glass = nil
		return nil
	}
	g := &glassLevels{}
	for _, n := range nets {
		a := n.Arch
		if a.Classes != GlassLevelsClasses || a.Side != d.pipSide || a.InC != 3*d.pipPlanes {
			return fmt.Errorf("vision: a glass levels network reads %d planes of %dx%d to %d classes; the pip networks' patch wants %d planes of %dx%d to %d",
				a.InC, a.Side, a.Side, a.Classes, 3*d.pipPlanes, d.pipSide, d.pipSide, GlassLevelsClasses)
		}
		g.ws = append(g.ws, n.NewWorkspace())
	}
	g.x, g.y = make([]float32, nets[0].InputLen()), make([]float32, nets[0].InputLen())
	d.glass = g
	return nil
}

// readGlassLevels reads a stack read h high with a clear glass top on
// cell (row, col) of the card at pose p, whose cell reading is cr and
// whose pip networks read pipP at h: it returns the height (h-1..h+1) and
// value index (0-5) the three readers agree on best, and the share of the
// three heights' and six values' product that pair holds.
func (d *Detector) readGlassLevels(cam Camera, p cardPose, cr *cellRead, row, col, h int, pipP []float32) (int, int, float64) {
	g := d.glass
	n := len(g.x) / 3
	for o := -1; o <= 1; o++ {
		seg := g.x[(o+1)*n : (o+2)*n]
		k := h + o
		if k < 1 || k > MaxStack {
			clear(seg)
			continue
		}
		d.pipFeatures(cam, p, row, col, k, seg)
		if o == 0 {
			copy(g.pips[1][:], pipP)
		} else {
			d.pipsAt(cam, p, row, col, k)
			g.pips[o+1] = d.abovePipP
		}
	}
	clear(g.p[:])
	w := float32(glassLevelsViews * len(g.ws))
	for i := 0; i < glassLevelsViews; i++ {
		copy(g.y, g.x)
		if i > 0 {
			transformPlanes(g.y, d.pipSide, 3*d.pipPlanes, viewOrder[i])
		}
		for _, ws := range g.ws {
			if err := ws.Forward(g.y); err != nil {
				panic(err) // the input is built to the network's length
			}
			for k, v := range ws.Prob {
				g.p[k] += v / w
			}
		}
	}
	bh, bv, best, sum := h, 0, -1.0, 0.0
	for o := -1; o <= 1; o++ {
		k := h + o
		if k < 1 || k > MaxStack {
			continue
		}
		ph := math.Pow(float64(cr.p[k])+glassLevelsFloor, glassLevelsHeightPow)
		for v := 0; v < 6; v++ {
			s := float64(g.p[(o+1)*6+v]) * ph * (float64(g.pips[o+1][v]) + glassLevelsFloor)
			sum += s
			if s > best {
				bh, bv, best = k, v, s
			}
		}
	}
	return bh, bv, best / sum
}
