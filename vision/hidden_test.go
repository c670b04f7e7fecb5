package vision

import (
	"testing"

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
func TestFlagHidden(t *testing.T) {
	d := NewDetector(Options{Classical: true})
	defer d.Close()
	m := d.opts.Model
	// the card at the origin, u along +x, v along -y (printed top-left)
	p := cardPose{origin: Vec3{0, 0, 0}, u: Vec3{1, 0, 0}, v: Vec3{0, -1, 0}}
	cu0, cv0 := m.CellCenter(0, 0)
	cu1, cv1 := m.CellCenter(1, 0)
	var neighbour *Cell // what (1,0) is read as
	read := func(camAt Vec3) *Card {
		c := &Card{pose: p}
		c.Cells[0][0] = &Cell{Height: 6, Material: 'S', Pips: 3, Top: "S3"}
		if neighbour != nil {
			n := *neighbour
			c.Cells[1][0] = &n
		}
		// a camera looking straight down from camAt (R flips y and z)
		cam := Camera{Fx: 1000, Fy: 1000, Cx: 640, Cy: 360, R: [3][3]float64{{1, 0, 0}, {0, -1, 0}, {0, 0, -1}}}
		cam.T = [3]float64{-camAt.X, camAt.Y, camAt.Z}
		require.InDelta(t, camAt.X, cam.Center().X, 1e-9)
		require.InDelta(t, camAt.Y, cam.Center().Y, 1e-9)
		d.flagHidden(c, cam)
		return c
	}
	// the camera far beyond cell (0,0) on the line from (1,0) through it,
	// low: the six-high stack on (0,0) stands between it and (1,0)
	w0, w1 := p.at(cu0, cv0, 0), p.at(cu1, cv1, 0)
	dir := w0.Add(w1.Scale(-1))
	behind := w0.Add(dir.Scale(8))
	behind.Z = 260
	c := read(behind)
	require.NotNil(t, c.Cells[1][0], "the hidden neighbour is flagged")
	assert.True(t, c.Cells[1][0].Occluded)
	assert.GreaterOrEqual(t, c.Cells[1][0].Confidence, hiddenFlagShare)
	assert.Nil(t, c.Cells[2][1], "a cell far from the stack stays empty")
	assert.Equal(t, 6, c.Cells[0][0].Height, "the stack itself is kept")

	above := p.at(cu1, cv1, 0)
	above.Z = 500
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
	// as high as the stack in front, its top shows: kept
	neighbour = &Cell{Height: 6, Material: 'W', Pips: 2, Top: "W2"}
	c = read(behind)
	assert.False(t, c.Cells[1][0].Occluded, "a top as high as the stack in front is kept")
	assert.Equal(t, 6, c.Cells[1][0].Height)
}
