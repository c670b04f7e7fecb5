package pix

import (
	"math"
	"math/rand/v2"
	"testing"
)

// randomTiles is a w×h plane of random whiteness values with room past
// its ends, its tiles filled with probability filled.
func randomTiles(rng *rand.Rand, w, h int, filled float64) *Tiles {
	per := (w + TileW - 1) / TileW
	t := &Tiles{Plane: make([]int16, w*h, w*h+1), Done: make([]bool, h*per, h*per+3), W: w, H: h, PerRow: per}
	for i := range t.Plane {
		t.Plane[i] = int16(rng.IntN(511) - 255)
	}
	for i := range t.Done {
		t.Done[i] = rng.Float64() < filled
	}
	return t
}

// alongRef is vision's frame.whitenessAt at one point of a line, and
// whether the tiles it reads are filled.
func (t *Tiles) alongRef(x, y float64) (float64, bool) {
	if !(x >= 0 && y >= 0 && x <= float64(t.W-1) && y <= float64(t.H-1)) {
		return math.NaN(), true
	}
	x0, y0 := int(x), int(y)
	x1, y1 := min(x0+1, t.W-1), min(y0+1, t.H-1)
	fx, fy := x-float64(x0), y-float64(y0)
	ready := true
	for _, p := range [4][2]int{{x0, y0}, {x1, y0}, {x0, y1}, {x1, y1}} {
		ready = ready && t.Done[p[1]*t.PerRow+p[0]/TileW]
	}
	at := func(x, y int) float64 { return float64(t.Plane[y*t.W+x]) }
	return float64((1-fy)*(float64((1-fx)*at(x0, y0))+float64(fx*at(x1, y0)))) +
		float64(fy*(float64((1-fx)*at(x0, y1))+float64(fx*at(x1, y1)))), ready
}

// nearestRef is vision's whiteness at one projected point, whether its
// tile is filled, and the pixel's index.
func (s *Sampler) nearestRef(t *Tiles, u, v float64) (float64, bool, int32) {
	px, py, ok := s.project(u, v)
	if !ok {
		return 0, true, 0
	}
	if !(px >= -0.5 && py >= -0.5) {
		return 0, true, 0
	}
	ix, iy := int(px+0.5), int(py+0.5)
	if ix < 0 || iy < 0 || ix >= t.W || iy >= t.H {
		return 0, true, 0
	}
	return float64(t.Plane[iy*t.W+ix]), t.Done[iy*t.PerRow+ix/TileW], int32(iy*t.W + ix)
}

// checkReads checks a reader's result against the reference's values and
// readiness: it must do every whole block of lanes points (none where
// lanes is 0: no kernel), give the reference's bits where the tiles are
// filled and +Inf where not, and leave the rest alone.
func checkReads(t *testing.T, what string, k, lanes int, out, want []float64, ready []bool) {
	t.Helper()
	n, done := len(want), 0
	if lanes > 0 {
		done = n - n%lanes
	}
	if k != done {
		t.Fatalf("%s: did %d of %d points, want %d", what, k, n, done)
	}
	for i := 0; i < n; i++ {
		switch {
		case i >= k:
			if out[i] != 7777 {
				t.Fatalf("%s: wrote point %d past the %d done", what, i, k)
			}
		case !ready[i]:
			if !math.IsInf(out[i], 1) {
				t.Fatalf("%s: point %d needs a tile not filled: %v, want +Inf", what, i, out[i])
			}
		case math.Float64bits(out[i]) != math.Float64bits(want[i]) && !(math.IsNaN(out[i]) && math.IsNaN(want[i])):
			t.Fatalf("%s: point %d: %v, want %v", what, i, out[i], want[i])
		}
	}
}

// TestAlongExact: Tiles.Along gives frame.whitenessAt's bits along lines
// inside, across and outside the plane, on its last row and column and
// corners, and +Inf where a tile is not filled.
func TestAlongExact(t *testing.T) { testAlong(t, (*Tiles).Along, sampleLanes()) }

// TestAlongYExact: the AVX2 kernel, called directly, does as
// TestAlongExact checks.
func TestAlongYExact(t *testing.T) {
	if !hasSampleY {
		t.Skip("no AVX2 here")
	}
	testAlong(t, func(tl *Tiles, x0, y0, x1, y1 float64, fr, out []float64) int {
		var a tileArgs
		if !tl.args(&a) {
			t.Fatal("along: no room past the plane's ends")
		}
		a.x0, a.y0, a.dx, a.dy = x0, y0, x1-x0, y1-y0
		return alongY(&a, &fr[0], &out[0], len(fr)&^3)
	}, 4)
}

// testAlong checks along, a reader like Tiles.Along that reads every
// whole block of lanes points, on random planes and lines.
func testAlong(t *testing.T, along func(tl *Tiles, x0, y0, x1, y1 float64, fr, out []float64) int, lanes int) {
	rng := rand.New(rand.NewPCG(9, 10))
	for trial := 0; trial < 3000; trial++ {
		w, h := 1+rng.IntN(200), 1+rng.IntN(30)
		filled := 1.0
		if trial%3 == 0 {
			filled = 0.9
		}
		tl := randomTiles(rng, w, h, filled)
		var x0, y0, x1, y1 float64
		switch trial % 4 {
		case 0: // anywhere, partly outside
			x0, y0 = rng.Float64()*float64(w+4)-2, rng.Float64()*float64(h+4)-2
			x1, y1 = rng.Float64()*float64(w+4)-2, rng.Float64()*float64(h+4)-2
		case 1: // along the last row
			x0, y0, x1, y1 = 0, float64(h-1), float64(w-1), float64(h-1)
		case 2: // down the last column
			x0, y0, x1, y1 = float64(w-1), 0, float64(w-1), float64(h-1)
		default: // corner to corner
			x0, y0, x1, y1 = 0, 0, float64(w-1), float64(h-1)
		}
		n := 8 + rng.IntN(80)
		fr := make([]float64, n)
		for i := range fr {
			fr[i] = float64(i) / float64(n-1)
		}
		out := make([]float64, n)
		for i := range out {
			out[i] = 7777
		}
		k := along(tl, x0, y0, x1, y1, fr, out)
		want, ready := make([]float64, n), make([]bool, n)
		for i, f := range fr {
			want[i], ready[i] = tl.alongRef(x0+float64(f*(x1-x0)), y0+float64(f*(y1-y0)))
		}
		checkReads(t, "along", k, lanes, out, want, ready)
	}
}

// TestWhiteExact: Sampler.White gives vision's whiteness at projected
// points, on the pixel grid, at half pixels (where rounding changes),
// past the edges and far past them, behind the camera, and +Inf where a
// tile is not filled, with the pixel's index.
func TestWhiteExact(t *testing.T) { testWhite(t, (*Sampler).White, sampleLanes()) }

// TestWhiteYExact: the AVX2 kernel, called directly, does as
// TestWhiteExact checks.
func TestWhiteYExact(t *testing.T) {
	if !hasSampleY {
		t.Skip("no AVX2 here")
	}
	testWhite(t, func(s *Sampler, tl *Tiles, u, v, out []float64, idx []int32) int {
		var a tileArgs
		if !tl.args(&a) {
			t.Fatal("nearest: no room past the plane's ends")
		}
		s.one, s.eps = 1, 1e-6
		return nearestY(s, &a, &u[0], &v[0], &out[0], &idx[0], len(u)&^3)
	}, 4)
}

// testWhite checks white, a reader like Sampler.White that reads every
// whole block of lanes points, on random planes, cameras and points.
func testWhite(t *testing.T, white func(s *Sampler, tl *Tiles, u, v, out []float64, idx []int32) int, lanes int) {
	rng := rand.New(rand.NewPCG(11, 12))
	for trial := 0; trial < 2000; trial++ {
		w, h := 1+rng.IntN(200), 1+rng.IntN(30)
		filled := 1.0
		if trial%3 == 0 {
			filled = 0.95
		}
		tl := randomTiles(rng, w, h, filled)
		var s Sampler
		n := 8 + rng.IntN(80)
		u, v := make([]float64, n), make([]float64, n)
		switch trial % 4 {
		case 0, 2: // pixel = card point: grid and half points
			s.pixelCamera(1)
			for i := range u {
				u[i], v[i] = float64(rng.IntN(2*w+4))/2-1, float64(rng.IntN(2*h+4))/2-1
				if rng.IntN(20) == 0 { // past what 32 bits hold
					u[i] = 3e9
				}
			}
		case 1:
			a := rng.Float64() * 2 * math.Pi
			ca, sa := math.Cos(a), math.Sin(a)
			r := [3][3]float64{{ca, -sa, 0}, {sa, ca, 0}, {0, 0, 1}}
			s.Camera(r, [3]float64{rng.Float64() * 5, rng.Float64() * 5, 20 + rng.Float64()*20}, 20, 20, float64(w)/2, float64(h)/2)
			s.Plane(rng.Float64()*4-2, rng.Float64()*4-2, ca, sa, -sa, ca, rng.Float64()*3-2, r)
			for i := range u {
				u[i], v[i] = rng.Float64()*40-20, rng.Float64()*40-20
			}
		default: // a camera tilted up to nearly the horizon, or the pixel camera
			u, v = yPoints(rng, &s, w, h, n)
		}
		out := make([]float64, n)
		for i := range out {
			out[i] = 7777
		}
		idx := make([]int32, n)
		k := white(&s, tl, u, v, out, idx)
		want, ready, wantIdx := make([]float64, n), make([]bool, n), make([]int32, n)
		for i := range u {
			want[i], ready[i], wantIdx[i] = s.nearestRef(tl, u[i], v[i])
		}
		checkReads(t, "nearest", k, lanes, out, want, ready)
		for i := 0; i < k; i++ {
			if !ready[i] && idx[i] != wantIdx[i] {
				t.Fatalf("nearest: point %d needs pixel %d, said %d", i, wantIdx[i], idx[i])
			}
		}
	}
}

// TestTilesNeedRoom: without room past the plane's or the flags' ends,
// the readers do nothing.
func TestTilesNeedRoom(t *testing.T) {
	tl := randomTiles(rand.New(rand.NewPCG(1, 1)), 70, 5, 1)
	fr := make([]float64, 16)
	out := make([]float64, 16)
	tight := *tl
	tight.Plane = tight.Plane[:len(tight.Plane):len(tight.Plane)]
	if k := tight.Along(0, 0, 69, 4, fr, out); k != 0 {
		t.Fatalf("plane without room: did %d points", k)
	}
	tight = *tl
	tight.Done = tight.Done[: len(tight.Done) : len(tight.Done)+2]
	var s Sampler
	if k := s.White(&tight, fr, fr, out, make([]int32, 16)); k != 0 {
		t.Fatalf("flags without room: did %d points", k)
	}
}
