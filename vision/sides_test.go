package vision

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/blueprints-companion/blueprints/vision/cardmodel"
)

// outline is a card's rectangle (centre c, long axis turned th) on the
// card plane with a bump of depth × length mm grown onto one long side at
// along mm from its middle, as a polygon.
func outline(m cardmodel.Model, c Vec3, th, depth, length, along float64) []Vec3 {
	a := Vec3{math.Cos(th), math.Sin(th), 0}
	b := Vec3{-a.Y, a.X, 0}
	W, H := m.CardWidth/2, m.CardHeight/2
	at := func(u, v float64) Vec3 {
		return Vec3{c.X + u*a.X + v*b.X, c.Y + u*a.Y + v*b.Y, m.CardThickness}
	}
	pts := []Vec3{at(-W, -H), at(W, -H), at(W, H)}
	if depth > 0 {
		pts = append(pts, at(along+length/2, H), at(along+length/2, H+depth), at(along-length/2, H+depth), at(along-length/2, H))
	}
	return append(pts, at(-W, H))
}

func TestFitCardSidesThroughAShadow(t *testing.T) {
	m := cardmodel.Default()
	for _, tc := range []struct {
		th, depth, length, along float64
	}{
		{0.3, 25, 40, -20}, {1.2, 30, 60, 10}, {-0.7, 40, 30, 30}, {2.5, 25, 110, 0},
	} {
		c := Vec3{40, -70, m.CardThickness}
		pts := outline(m, c, tc.th, tc.depth, tc.length, tc.along)
		_, _, _, _, ok := fitCardRect(pts, m)
		require.False(t, ok, "%+v: the minimum-area rectangle fits; the case tests nothing", tc)
		gc, ga, ok := fitCardSides(pts, m)
		require.True(t, ok, "%+v", tc)
		assert.InDelta(t, c.X, gc.X, 1, "%+v: centre x", tc)
		assert.InDelta(t, c.Y, gc.Y, 1, "%+v: centre y", tc)
		// the long axis either way round
		dot := math.Abs(ga.X*math.Cos(tc.th) + ga.Y*math.Sin(tc.th))
		assert.InDelta(t, 1, dot, 1e-3, "%+v: long axis", tc)
	}
}

func TestFitCardSidesRefusesWhatIsNoCard(t *testing.T) {
	m := cardmodel.Default()
	// a disc a card's width across: no straight sides
	var disc []Vec3
	for k := 0; k < 90; k++ {
		a := 2 * math.Pi * float64(k) / 90
		disc = append(disc, Vec3{65 * math.Cos(a), 65 * math.Sin(a), 0})
	}
	_, _, ok := fitCardSides(disc, m)
	assert.False(t, ok, "a disc")
	// an L of two card-wide arms: the card would stick out of it
	l := []Vec3{{0, 0, 0}, {150, 0, 0}, {150, 40, 0}, {40, 40, 0}, {40, 150, 0}, {0, 150, 0}}
	_, _, ok = fitCardSides(l, m)
	assert.False(t, ok, "an L")
	_, _, ok = fitCardSides(nil, m)
	assert.False(t, ok, "no outline")
}
