package vision

import (
	"testing"

	"github.com/blueprints-companion/blueprints/vision/cardmodel"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestSegmentCrossesBox(t *testing.T) {
	lo, hi := Vec3{0, 0, 0}, Vec3{10, 10, 20}
	assert.True(t, segmentCrossesBox(Vec3{5, 5, 100}, Vec3{5, 5, -1}, lo, hi), "straight down through it")
	assert.False(t, segmentCrossesBox(Vec3{15, 5, 100}, Vec3{15, 5, -1}, lo, hi), "beside it")
	assert.False(t, segmentCrossesBox(Vec3{5, 5, 100}, Vec3{5, 5, 25}, lo, hi), "ends above it")
	assert.True(t, segmentCrossesBox(Vec3{-50, 5, 100}, Vec3{20, 5, 2}, lo, hi), "slanting through its top")
	assert.False(t, segmentCrossesBox(Vec3{-50, 5, 100}, Vec3{-10, 5, 2}, lo, hi), "slanting, short of it")
}

func TestToCardInvertsAt(t *testing.T) {
	p := cardPose{origin: Vec3{30, -20, 0}, u: Vec3{0.8, 0.6, 0}, v: Vec3{0.6, -0.8, 0}}
	for _, c := range [][2]float64{{0, 0}, {12.5, 40}, {-3, 70}} {
		u, v, ok := p.toCard(p.at(c[0], c[1], 5))
		require.True(t, ok)
		assert.InDelta(t, c[0], u, 1e-9)
		assert.InDelta(t, c[1], v, 1e-9)
	}
}

// A tall stack between the camera and its neighbour hides the neighbour,
// which is then flagged; the same cell with the camera right above it is
// left empty, and so is a cell beside no stack.
// hiddenScene is the card the hidden-cell tests read (at the origin, u
// along +x, v along -y: printed top-left) and two camera positions: far
// beyond cell (0,0) on the line from (1,0) through it, low, so that a tall
// stack on (0,0) stands between it and (1,0); and right above (1,0).
func hiddenScene(m cardmodel.Model) (p cardPose, behind, above Vec3) {
	p = cardPose{origin: Vec3{0, 0, 0}, u: Vec3{1, 0, 0}, v: Vec3{0, -1, 0}}
	cu0, cv0 := m.CellCenter(0, 0)
	cu1, cv1 := m.CellCenter(1, 0)
	w0, w1 := p.at(cu0, cv0, 0), p.at(cu1, cv1, 0)
	behind = w0.Add(w0.Add(w1.Scale(-1)).Scale(8))
	behind.Z = 260
	above = w1
	above.Z = 500
	return p, behind, above
}

// cameraDownFrom looks straight down from at (R flips y and z).
func cameraDownFrom(t *testing.T, at Vec3) Camera {
	cam := Camera{Fx: 1000, Fy: 1000, Cx: 640, Cy: 360, R: [3][3]float64{{1, 0, 0}, {0, -1, 0}, {0, 0, -1}}}
	cam.T = [3]float64{-at.X, at.Y, at.Z}
	require.InDelta(t, at.X, cam.Center().X, 1e-9)
	require.InDelta(t, at.Y, cam.Center().Y, 1e-9)
	return cam
}

func TestFlagHidden(t *testing.T) {
	d := NewDetector(Options{Classical: true})
	defer d.Close()
	p, behind, above := hiddenScene(d.opts.Model)
	var neighbour *Cell // what (1,0) is read as
	read := func(camAt Vec3) *Card {
		c := &Card{pose: p}
		c.Cells[0][0] = &Cell{Height: 6, Material: 'S', Pips: 3, Top: "S3"}
		if neighbour != nil {
			n := *neighbour
			c.Cells[1][0] = &n
		}
		d.flagHidden(c, cameraDownFrom(t, camAt))
		return c
	}
	c := read(behind)
	require.NotNil(t, c.Cells[1][0], "the hidden neighbour is flagged")
	assert.True(t, c.Cells[1][0].Occluded)
	assert.True(t, c.Cells[1][0].BehindDice, "flagged for the dice in front, not a hand")
	assert.GreaterOrEqual(t, c.Cells[1][0].Confidence, hiddenFlagShare)
	assert.Nil(t, c.Cells[2][1], "a cell far from the stack stays empty")
	assert.Equal(t, 6, c.Cells[0][0].Height, "the stack itself is kept")

	c = read(above)
	assert.Nil(t, c.Cells[1][0], "seen from straight above, nothing hides it")

	// read as a one-high stack behind the six: its top is hidden wholly,
	// so the read was of the tall stack's side
	neighbour = &Cell{Height: 1, Material: 'W', Pips: 2, Top: "W2"}
	c = read(behind)
	require.NotNil(t, c.Cells[1][0])
	assert.True(t, c.Cells[1][0].Occluded, "a stack read where only the neighbour shows is flagged")
	assert.Equal(t, 0, c.Cells[1][0].Height)
	c = read(above)
	assert.False(t, c.Cells[1][0].Occluded, "seen from above, the one-high stack is kept")
	assert.Equal(t, 1, c.Cells[1][0].Height)
	// hidden mostly but not wholly (hiddenUnsureShare up to 1): flagged
	// only when read unsurely
	m := d.opts.Model
	o, ok := eyeOnCard(&Card{pose: p}, cameraDownFrom(t, behind))
	require.True(t, ok)
	front := [3][2]int{{6, 0}, {0, 0}, {0, 0}}
	mostly := 0
	for h := 1; h < 6 && mostly == 0; h++ {
		if s := d.hiddenShare(o, &front, 1, 0, m.CardThickness+float64(h)*m.Die); s >= hiddenUnsureShare && s < hiddenStackShare {
			mostly = h
		}
	}
	require.NotZero(t, mostly, "a height the six-high stack hides mostly, not wholly")
	neighbour = &Cell{Height: mostly, Material: 'W', Pips: 2, Top: "W2", Confidence: 0.9}
	c = read(behind)
	assert.False(t, c.Cells[1][0].Occluded, "read surely, a mostly hidden stack is kept")
	neighbour.Confidence = 0.5
	c = read(behind)
	assert.True(t, c.Cells[1][0].Occluded, "read unsurely, a mostly hidden stack is flagged")
	// as high as the stack in front, its top shows: kept
	neighbour = &Cell{Height: 6, Material: 'W', Pips: 2, Top: "W2"}
	c = read(behind)
	assert.False(t, c.Cells[1][0].Occluded, "a top as high as the stack in front is kept")
	assert.Equal(t, 6, c.Cells[1][0].Height)
}

// reconsiderBesideSix reads a card at pose p through reconsiderEmpties
// from cam: (0,0) a sure six-high stack, (1,0) read p10, the rest surely
// empty, the pip networks face sure of a die's face at every level; it
// returns (1,0)'s decision.
func reconsiderBesideSix(d *Detector, p cardPose, cam Camera, p10 [HeightClasses]float32, shares *[3][2][MaxStack + 2]float64, face float32) Decision {
	for r := range d.cardCells {
		for c := range d.cardCells[r] {
			d.cardCells[r][c].p = [HeightClasses]float32{0.98, 0.004, 0.004, 0.004, 0.004, 0.002, 0.002}
		}
	}
	d.cardCells[0][0].p = [HeightClasses]float32{0.01, 0, 0, 0, 0, 0.01, 0.98}
	d.cardCells[1][0].p = p10
	for r := range d.cardCells {
		for c := range d.cardCells[r] {
			d.cardCells[r][c].dec = DecideHeight(d.cardCells[r][c].p[:])
		}
	}
	d.reconsiderEmpties(&Card{pose: p}, cam, shares, func(r, col, k int) float32 { return face })
	return d.cardCells[1][0].dec
}

// A cell read empty, but not surely, is read as its likeliest height where
// nothing hides it and that height has weakEmptyHeight of the probability;
// not where a tall neighbour hides it, nor where the empty reading is sure
// or the likeliest height too unlikely.
func TestReconsiderEmpties(t *testing.T) {
	d := NewDetector(Options{Classical: true})
	defer d.Close()
	p, behind, above := hiddenScene(d.opts.Model)
	var shares [3][2][MaxStack + 2]float64
	read := func(at Vec3, p10 [HeightClasses]float32) Decision {
		return reconsiderBesideSix(d, p, cameraDownFrom(t, at), p10, &shares, 1)
	}
	weak := [HeightClasses]float32{0.5, 0.1, 0.3, 0.05, 0.02, 0.02, 0.01}
	dec := read(above, weak)
	assert.Equal(t, 2, dec.Height, "a weak empty reading in the open becomes the likeliest height")
	assert.InDelta(t, 0.3, dec.Confidence, 1e-6)
	assert.Equal(t, 0, read(behind, weak).Height, "behind the six-high stack it stays empty")
	for _, face := range []float32{faceOnSure - 0.01, 0.4} {
		assert.Equal(t, 0, reconsiderBesideSix(d, p, cameraDownFrom(t, above), weak, &shares, face).Height,
			"no die's face at the likeliest height (pip networks %.2f sure): stays empty", face)
	}
	assert.Equal(t, 2, reconsiderBesideSix(d, p, cameraDownFrom(t, above), weak, &shares, faceOnSure).Height,
		"a die's face faceOnSure sure at the likeliest height: a stack")
	sure := [HeightClasses]float32{0.7, 0.05, 0.2, 0.02, 0.01, 0.01, 0.01}
	assert.Equal(t, 0, read(above, sure).Height, "an empty reading at weakEmpty or more stays")
	spread := [HeightClasses]float32{0.4, 0.12, 0.12, 0.12, 0.12, 0.06, 0.06}
	assert.Equal(t, 0, read(above, spread).Height, "no height with weakEmptyHeight: stays empty")
	hand := [HeightClasses]float32{0.3, 0.05, 0.05, 0, 0, 0, 0, 0.6}
	assert.True(t, read(above, hand).Occluded, "a hand stays a hand")
	// a die's face seen at level 1: an unsure empty read becomes a stack
	// however unlikely its likeliest height, unless hidden, sure or a
	// hand may be over it
	faint := [HeightClasses]float32{0.75, 0.02, 0.1, 0.03, 0.02, 0.02, 0.02, 0.04}
	assert.Equal(t, 0, read(above, faint).Height, "no face seen: stays empty")
	shares[1][0][1] = faceShare
	dec = read(above, faint)
	assert.Equal(t, 2, dec.Height, "a face seen at level 1: the likeliest height")
	assert.InDelta(t, 0.1, dec.Confidence, 1e-6)
	assert.Equal(t, 0, read(behind, faint).Height, "behind the six-high stack it stays empty")
	assert.Equal(t, 0, read(above, [HeightClasses]float32{0.85, 0.05, 0.1}).Height, "an empty reading faceEmpty sure stays")
	handy := [HeightClasses]float32{0.6, 0.02, 0.03, 0.01, 0.01, 0.01, 0.01, 0.31}
	assert.Equal(t, 0, read(above, handy).Height, "a hand class of faceHand or more: stays empty")
	shares[1][0][1] = faceShare - 0.01
	assert.Equal(t, 0, read(above, faint).Height, "a share under faceShare: stays empty")
}

// Since the thirty-fourth session a weak empty reading becomes a stack
// where the stacks in front hide up to weakEmptyHidden (0.3) of a one-high
// top there, not only where nothing hides it: a clear die partly hidden by
// a taller neighbour was most of the stacks read empty. Cameras between
// "above" and "behind" of hiddenScene hide more and more of cell (1,0)
// behind the six-high stack on (0,0).
func TestReconsiderEmptiesPartlyHidden(t *testing.T) {
	d := NewDetector(Options{Classical: true})
	defer d.Close()
	m := d.opts.Model
	p, behind, above := hiddenScene(m)
	heights := [3][2]int{{6, 0}, {0, 0}, {0, 0}}
	weak := [HeightClasses]float32{0.5, 0.1, 0.3, 0.05, 0.02, 0.02, 0.01}
	var shares [3][2][MaxStack + 2]float64
	read := func(cam Camera) int { return reconsiderBesideSix(d, p, cam, weak, &shares, 1).Height }
	var seenBelow, seenAbove bool
	for i := 0; i <= 200; i++ {
		f := float64(i) / 200
		at := above.Add(behind.Add(above.Scale(-1)).Scale(f))
		cam := cameraDownFrom(t, at)
		o, ok := eyeOnCard(&Card{pose: p}, cam)
		require.True(t, ok)
		share := d.hiddenShare(o, &heights, 1, 0, m.CardThickness+m.Die)
		switch {
		case share > 0.1 && share <= weakEmptyHidden:
			seenBelow = true
			assert.Equal(t, 2, read(cam), "hidden %.2f (at most weakEmptyHidden): the likeliest height", share)
		case share > weakEmptyHidden:
			seenAbove = true
			assert.Equal(t, 0, read(cam), "hidden %.2f (more than weakEmptyHidden): stays empty", share)
		}
	}
	require.True(t, seenBelow, "some camera hides between a tenth and weakEmptyHidden")
	require.True(t, seenAbove, "some camera hides more than weakEmptyHidden")
}
