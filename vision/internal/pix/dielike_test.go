package pix

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// dieFrame is a frame of pixels of every kind DieTest tells apart: dark,
// the card's chroma, blue, white line work, the table's chroma (in its
// light, in shadow, in glare) and others.
func dieFrame(rng *rand.Rand, w, h int) []uint8 {
	img := make([]uint8, w*h*3)
	for i := 0; i < w*h; i++ {
		var b, g, r int
		switch rng.IntN(7) {
		case 0: // dark
			b, g, r = rng.IntN(12), rng.IntN(12), rng.IntN(12)
		case 1: // the card: r/sum 0.2, g/sum 0.3
			s := 60 + rng.IntN(500)
			r, g = s/5+rng.IntN(5)-2, 3*s/10+rng.IntN(5)-2
			b = s - r - g
		case 2: // blue
			b, g, r = 100+rng.IntN(150), 50+rng.IntN(60), 40+rng.IntN(60)
		case 3: // white line work
			v := 140 + rng.IntN(116)
			b, g, r = v, v-rng.IntN(30), v-rng.IntN(30)
		case 4: // the table: r/sum 0.4, g/sum 0.35, at every lightness
			s := 40 + rng.IntN(720)
			r, g = 2*s/5+rng.IntN(3)-1, 7*s/20+rng.IntN(3)-1
			b = s - r - g
		default:
			b, g, r = rng.IntN(256), rng.IntN(256), rng.IntN(256)
		}
		clamp := func(v int) uint8 { return uint8(max(0, min(255, v))) }
		img[3*i], img[3*i+1], img[3*i+2] = clamp(b), clamp(g), clamp(r)
	}
	return img
}

// TestDieLikeExact: Sampler.DieLike (the kernel where there is one) gives
// the Go test's pixels, flags and decisions bit for bit, at points on the
// pixel grid, half pixels, past the edges and behind the camera, and
// every branch of the test decides some of them.
func TestDieLikeExact(t *testing.T) {
	rng := rand.New(rand.NewPCG(19, 20))
	const w, h = 61, 37
	var s Sampler
	s.Frame(dieFrame(rng, w, h), w, h, [3]float64{1, 1, 1})
	dt := DieTest{Card: [2]float64{0.2, 0.3}, Table: [2]float64{0.4, 0.35}, CardTol: 0.05, TableTol: 0.04, Dark: 0.4 * 300, Bright: 1.7 * 300}
	var kinds [4]int // out of frame, dark, die, not
	for trial := 0; trial < 300; trial++ {
		switch trial % 3 {
		case 0: // pixel = card point
			s.pixelCamera(1)
		case 1: // behind the camera
			s.pixelCamera(-1)
		default:
			a := rng.Float64() * 2 * math.Pi
			ca, sa := math.Cos(a), math.Sin(a)
			r := [3][3]float64{{ca, -sa, 0}, {sa, ca, 0}, {0, 0, 1}}
			s.Camera(r, [3]float64{rng.Float64() * 5, rng.Float64() * 5, 20 + rng.Float64()*20}, 20, 20, w/2, h/2)
			s.Plane(rng.Float64()*4-2, rng.Float64()*4-2, ca, sa, -sa, ca, rng.Float64()*3-2, r)
		}
		n := 1 + rng.IntN(100)
		u, v := make([]float64, n), make([]float64, n)
		for i := range u {
			u[i], v[i] = float64(rng.IntN(2*w+6))/2-2, float64(rng.IntN(2*h+6))/2-2
			if trial%3 == 2 {
				u[i], v[i] = rng.Float64()*60-30, rng.Float64()*60-30
			}
			if rng.IntN(30) == 0 {
				u[i] = 3e9 // past what 32 bits hold
			}
		}
		x, y, flags := make([]float64, n), make([]float64, n), make([]uint8, n+1)
		flags[n] = 77
		s.DieLike(&dt, u, v, x, y, flags[:n])
		for i := range u {
			wx, wy, ok := s.project(u[i], v[i])
			var want uint8
			if ok {
				want = 1
				if dt.die(&s, wx, wy) {
					want |= 2
				}
				if math.Float64bits(x[i]) != math.Float64bits(wx) || math.Float64bits(y[i]) != math.Float64bits(wy) {
					t.Fatalf("trial %d point %d (%v, %v): pixel (%v, %v), want (%v, %v)", trial, i, u[i], v[i], x[i], y[i], wx, wy)
				}
			}
			if flags[i] != want {
				t.Fatalf("trial %d point %d (%v, %v) at (%v, %v): flags %d, want %d", trial, i, u[i], v[i], wx, wy, flags[i], want)
			}
			// which branch decided it
			ix, iy := int(wx+0.5), int(wy+0.5)
			switch {
			case !ok || !(wx >= -0.5 && wy >= -0.5) || ix >= w || iy >= h:
				kinds[0]++
			case int(s.img[3*(iy*w+ix)])+int(s.img[3*(iy*w+ix)+1])+int(s.img[3*(iy*w+ix)+2]) < 30:
				kinds[1]++
			case want&2 != 0:
				kinds[2]++
			default:
				kinds[3]++
			}
		}
		if flags[n] != 77 {
			t.Fatalf("trial %d: wrote past %d points", trial, n)
		}
	}
	for k, c := range kinds {
		if c < 20 {
			t.Fatalf("kind %d of point decided only %d times: %v", k, c, kinds)
		}
	}
}

// TestDieTestBranches: each of the test's branches decides a pixel made
// for it.
func TestDieTestBranches(t *testing.T) {
	dt := DieTest{Card: [2]float64{0.2, 0.3}, Table: [2]float64{0.4, 0.35}, CardTol: 0.05, TableTol: 0.04, Dark: 120, Bright: 600}
	for _, c := range []struct {
		name    string
		b, g, r uint8
		die     bool
	}{
		{"dark", 5, 10, 10, true},
		{"the card", 50, 30, 20, false},
		{"blue", 200, 90, 80, false},
		{"white line work", 185, 190, 200, false},
		{"the table", 50, 70, 80, false},
		{"the table in deep shadow", 15, 21, 24, true},
		{"the table in glare", 200, 245, 255, true},
		{"red", 20, 20, 200, true},
		{"faintly blue but by too little", 35, 32, 33, true},
		{"the table as dark as Dark", 30, 42, 48, false},
		{"the table as bright as Bright", 150, 210, 240, false},
		{"the table brighter than Bright", 155, 217, 248, true},
	} {
		var s Sampler
		px := []uint8{c.b, c.g, c.r}
		s.Frame(slices.Concat(px, px, px, px), 2, 2, [3]float64{1, 1, 1}) // (room for the kernel's loads)
		s.pixelCamera(1)
		x, y, flags := make([]float64, 9), make([]float64, 9), make([]uint8, 9)
		s.DieLike(&dt, make([]float64, 9), make([]float64, 9), x, y, flags)
		for i, f := range flags {
			if got := f&2 != 0; got != c.die || f&1 == 0 {
				t.Errorf("%s (%d %d %d), point %d: flags %d, want die-like %v", c.name, c.b, c.g, c.r, i, f, c.die)
			}
		}
	}
}
