package pix

import (
	"math"
	"unsafe"
)

// DieTest tells a pixel that shows a die from the card and the table, by
// the colours measured on them: a pixel is die-like where it is dark
// (B+G+R under 30), or else neither near the card's chroma, nor blue, nor
// the card's bright neutral line work, and either far from the table's
// chroma or far darker or brighter than the table (B+G+R under Dark or
// over Bright). Chroma is (R, G) over B+G+R; near and far are Euclidean
// distances under CardTol and at least TableTol.
//
// The field order is the kernel's: it reads them by offset.
type DieTest struct {
	Card, Table       [2]float64
	CardTol, TableTol float64
	Dark, Bright      float64
	// set by DieLike
	blue, neutral      float64 // 64: 0.015, -0.04
	half, mhalf        float64 // 80: 0.5, -0.5
	k30, k4, k60, k150 int32   // 96
	one32, two32       int32   // 112
}

var _ = [1]struct{}{}[unsafe.Offsetof(DieTest{}.two32)-116]

// DieLike writes, for every card point (u[i], v[i]), the pixel where the
// camera sees it (x[i], y[i]) and flags[i]: bit 0 set where the point is
// in front of the camera, bit 1 where the pixel nearest it lies in the
// frame and is die-like by t. The frame is the one Frame set; v, x, y and
// flags must be as long as u. Where bit 0 is clear, x[i] and y[i] mean
// nothing (the Go code leaves 0, the kernels what they computed).
func (s *Sampler) DieLike(t *DieTest, u, v, x, y []float64, flags []uint8) {
	n := len(u)
	v, x, y, flags = v[:n], x[:n], y[:n], flags[:n]
	t.constants(s)
	k := 0
	if m := sampleLanes(); m > 0 && n >= m && len(s.img) >= 4 {
		k = n - n%m
		if m == 8 {
			dieZ(s, t, &s.img[0], &u[0], &v[0], &x[0], &y[0], &flags[0], k)
		} else {
			dieY(s, t, &s.img[0], &u[0], &v[0], &x[0], &y[0], &flags[0], k)
		}
	}
	for i := k; i < n; i++ {
		var ok bool
		x[i], y[i], ok = s.project(u[i], v[i])
		flags[i] = 0
		if ok {
			flags[i] = 1
			if t.die(s, x[i], y[i]) {
				flags[i] |= 2
			}
		}
	}
}

// constants sets the constants the kernels read of t and s.
func (t *DieTest) constants(s *Sampler) {
	t.blue, t.neutral, t.half, t.mhalf = 0.015, -0.04, 0.5, -0.5
	t.k30, t.k4, t.k60, t.k150, t.one32, t.two32 = 30, 4, 60, 150, 1, 2
	s.one, s.eps = 1, 1e-6
}

// die is DieTest for the pixel nearest (x, y), in Go: false outside the
// frame.
func (t *DieTest) die(s *Sampler, x, y float64) bool {
	if !(x >= -0.5 && y >= -0.5) {
		return false
	}
	ix, iy := int(x+0.5), int(y+0.5)
	if ix < 0 || iy < 0 || ix >= int(s.w) || iy > int(s.hm1) {
		return false
	}
	i := (iy*int(s.w) + ix) * 3
	b, g, r := int(s.img[i]), int(s.img[i+1]), int(s.img[i+2])
	sum := b + g + r
	if sum < 30 {
		return true // black, whatever the chroma noise says
	}
	c := [2]float64{float64(r) / float64(sum), float64(g) / float64(sum)}
	dist := func(a, b [2]float64) float64 {
		dx, dy := a[0]-b[0], a[1]-b[1]
		return math.Sqrt(float64(dx*dx) + float64(dy*dy)) // (no fused multiply-add)
	}
	if dist(c, t.Card) < t.CardTol {
		return false
	}
	// blue, or the white line work: bright and neutral
	bl := float64(b-max(g, r)) / float64(sum)
	if bl >= 0.015 && b-max(g, r) >= 4 {
		return false
	}
	if v, sat := ValSat(uint8(b), uint8(g), uint8(r)); bl > -0.04 && sat < 60 && v > 150 {
		return false
	}
	if dist(c, t.Table) >= t.TableTol {
		return true
	}
	return float64(sum) < t.Dark || float64(sum) > t.Bright
}
