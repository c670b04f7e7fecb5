package pix

import (
	"math"
	"unsafe"
)

// TileW is how many pixels of a row a Tiles plane fills at a time.
const TileW = 64

// Tiles is a plane of int16 values, w·h pixels row by row, that its owner
// fills a tile (TileW pixels of a row) at a time when first read: done[y·
// perRow + x/TileW] says whether the tile holding pixel (x, y) is filled.
// The readers here read only filled tiles: a point that needs a tile not
// filled yet they give +Inf, for the owner to read (and fill the tile).
//
// The kernels load 4 bytes where they need 2 or 1, so the plane must have
// room for 1 value past w·h and done for 3 flags past h·perRow (their
// capacity); where they do not, the readers do nothing.
type Tiles struct {
	Plane  []int16
	Done   []bool
	W, H   int
	PerRow int
}

// tileArgs is what the kernels read of a Tiles and a line; the field
// order is theirs.
type tileArgs struct {
	x0, y0, dx, dy      float64 // 0: a line's start and direction
	wMax, hMax          float64 // 32: the last pixel's column and row
	one, nan            float64 // 48
	w, wm1, hm1, perRow int32   // 64
	one32, byte0, byte1 int32   // 80: 1, 0xff, 0xff00
	_                   int32
	plane               *int16  // 96
	done                *bool   // 104
	half, mhalf         float64 // 112: 0.5, -0.5
	h                   int32   // 128
	_                   int32
	inf                 float64 // 136: +Inf
}

var _ = [1]struct{}{}[unsafe.Offsetof(tileArgs{}.inf)-136]

// args fills a's plane fields from t; false where the kernels may not
// read t (no room past its ends).
func (t *Tiles) args(a *tileArgs) bool {
	if t.W < 1 || t.H < 1 || len(t.Plane) != t.W*t.H || len(t.Done) != t.H*t.PerRow ||
		cap(t.Plane) < len(t.Plane)+1 || cap(t.Done) < len(t.Done)+3 || t.PerRow < (t.W+TileW-1)/TileW {
		return false
	}
	a.wMax, a.hMax = float64(t.W-1), float64(t.H-1)
	a.one, a.nan, a.half, a.mhalf, a.inf = 1, math.NaN(), 0.5, -0.5, math.Inf(1)
	a.w, a.wm1, a.hm1, a.perRow, a.h = int32(t.W), int32(t.W-1), int32(t.H-1), int32(t.PerRow), int32(t.H)
	a.one32, a.byte0, a.byte1 = 1, 0xff, 0xff00
	a.plane, a.done = &t.Plane[0], &t.Done[0]
	return true
}

// Along writes to out[i] the plane's value bilinear between pixels at
// (x0 + fr[i]·(x1-x0), y0 + fr[i]·(y1-y0)), NaN outside the plane, as
// vision's frame.whitenessAt computes it, or +Inf where a tile it needs
// is not filled, for the leading points it can: it returns how many (all
// but the last len(fr)%8 by AVX-512, len(fr)%4 by AVX2; 0 where there is
// no kernel). out must be as long as fr.
func (t *Tiles) Along(x0, y0, x1, y1 float64, fr, out []float64) int {
	var a tileArgs
	m := sampleLanes()
	if m == 0 || len(fr) < m || !t.args(&a) {
		return 0
	}
	out = out[:len(fr)]
	a.x0, a.y0, a.dx, a.dy = x0, y0, x1-x0, y1-y0
	if m == 8 {
		return alongZ(&a, &fr[0], &out[0], len(fr)&^7)
	}
	return alongY(&a, &fr[0], &out[0], len(fr)&^3)
}

// White writes to out[i] the plane's value at the pixel nearest card
// point (u[i], v[i]) seen through s's camera at s's plane height, 0 where
// that is behind the camera or outside the plane (vision's whiteness at a
// projected point), or +Inf where the pixel's tile is not filled, with
// the pixel's index (y·w + x) in idx[i], for the leading points it can:
// it returns how many (all but the last len(u)%8 by AVX-512, len(u)%4 by
// AVX2; 0 where there is no kernel). v, out and idx must be as long as u.
func (s *Sampler) White(t *Tiles, u, v, out []float64, idx []int32) int {
	var a tileArgs
	m := sampleLanes()
	if m == 0 || len(u) < m || !t.args(&a) {
		return 0
	}
	v, out, idx = v[:len(u)], out[:len(u)], idx[:len(u)]
	s.one, s.eps = 1, 1e-6
	if m == 8 {
		return nearestZ(s, &a, &u[0], &v[0], &out[0], &idx[0], len(u)&^7)
	}
	return nearestY(s, &a, &u[0], &v[0], &out[0], &idx[0], len(u)&^3)
}
