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

// A card most of whose width a screen hides leaves an outline of its
// whole length and a third of its width: fitCardRect keeps the long side
// the outline supports best (the card's edge, the straight run of outline
// points all along it) and offers the other, the screen's edge, as the
// alternative; narrower than cutMin, or cut short along its length too,
// it is no card.
func TestFitCardRectCutByAScreen(t *testing.T) {
	m := cardmodel.Default()
	W, H := m.CardWidth, m.CardHeight
	// the card's edge at v = 0 sampled every 2 mm, its ends, and the
	// screen's edge at v = 0.35 H in two points
	cut := func(width, length float64) []Vec3 {
		var pts []Vec3
		for u := 0.0; u <= length; u += 2 {
			pts = append(pts, Vec3{u, 0, 0})
		}
		for v := 2.0; v < width; v += 2 {
			pts = append(pts, Vec3{length, v, 0})
		}
		pts = append(pts, Vec3{length, width, 0}, Vec3{0, width, 0})
		for v := width - 2; v > 0; v -= 2 {
			pts = append(pts, Vec3{0, v, 0})
		}
		return pts
	}
	c, a, altA, altB, ok := fitCardRect(cut(0.35*H, W), m)
	require.True(t, ok, "a card a screen hides 0.65 of")
	assert.InDelta(t, 1, math.Abs(a.X), 1e-6, "the long axis along the outline's length")
	assert.InDelta(t, W/2, c.X, 0.2, "centre along the length")
	assert.InDelta(t, H/2, math.Abs(c.Y), 0.2, "centre half a card's width from the edge kept")
	assert.Greater(t, c.Y, 0.0, "the card reaches out from the edge at v = 0, over the screen's side")
	assert.Equal(t, Vec3{}, altA, "the length is whole: nothing else to try along it")
	assert.InDelta(t, H-0.35*H, math.Hypot(altB.X, altB.Y), 0.2, "the other choice: the screen's edge kept, the card a width minus the cut across")
	_, _, _, _, ok = fitCardRect(cut(0.25*H, W), m)
	assert.False(t, ok, "a quarter of the width is too little")
	_, _, _, _, ok = fitCardRect(cut(0.35*H, 0.8*W), m)
	assert.False(t, ok, "cut short along the length too")
}
