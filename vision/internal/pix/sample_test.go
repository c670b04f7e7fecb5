package pix

import (
	"math"
	"math/rand/v2"
	"testing"
)

// pixelCamera makes the card point (u, v) the pixel (u, v): a camera
// looking along z from depth tz (1: in front of the plane, -1: behind).
func (s *Sampler) pixelCamera(tz float64) {
	id := [3][3]float64{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}
	s.Camera(id, [3]float64{0, 0, tz}, 1, 1, 0, 0)
	s.Plane(0, 0, 1, 0, 0, 1, 0, id)
}

// randomFrame is a w×h BGR frame of random bytes.
func randomFrame(rng *rand.Rand, w, h int) []uint8 {
	img := make([]uint8, w*h*3)
	for i := range img {
		img[i] = uint8(rng.IntN(256))
	}
	return img
}

// checkColours compares Colours (the kernel where there is one) with
// colour point by point, bit for bit, over runs of every length up to
// the points given.
func checkColours(t *testing.T, s *Sampler, u, v []float64, what string) {
	t.Helper()
	n := len(u)
	b, g, gr := make([]float32, n+1), make([]float32, n+1), make([]float32, n+1)
	for _, m := range []int{n, n - 1, n - 7, 8, 7, 1} {
		if m < 0 || m > n {
			continue
		}
		b[m], g[m], gr[m] = 9, 9, 9 // past the run: untouched
		s.Colours(u[:m], v[:m], b[:m], g[:m], gr[:m])
		for i := 0; i < m; i++ {
			wb, wg, wr := s.colour(u[i], v[i])
			if math.Float32bits(b[i]) != math.Float32bits(wb) || math.Float32bits(g[i]) != math.Float32bits(wg) || math.Float32bits(gr[i]) != math.Float32bits(wr) {
				t.Fatalf("%s: point %d (%v, %v): %v %v %v, want %v %v %v", what, i, u[i], v[i], b[i], g[i], gr[i], wb, wg, wr)
			}
		}
		if b[m] != 9 || g[m] != 9 || gr[m] != 9 {
			t.Fatalf("%s: wrote past %d points", what, m)
		}
	}
}

// TestColoursExact: the kernel gives colour's bits for points on the
// frame's pixel grid, its edges and corners (the last pixel too: its
// bytes end the frame), just outside it, behind the camera, and for
// random cameras and points.
func TestColoursExact(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	const w, h = 37, 23
	var s Sampler
	s.Frame(randomFrame(rng, w, h), w, h, [3]float64{1.1, 0.9, 1.3})
	// camera: pixel = world point, so points fall exactly on the grid
	s.pixelCamera(1)
	var u, v []float64
	for y := -1.0; y <= h; y += 0.5 {
		for x := -1.0; x <= w; x += 0.5 {
			u, v = append(u, x), append(v, y)
		}
	}
	for _, c := range [][2]float64{{w - 1, h - 1}, {0, 0}, {w - 1, 0}, {0, h - 1}, {w - 1.0000001, h - 1}, {math.Nextafter(w-1, w), h - 1}} {
		for k := 0; k < 8; k++ {
			u, v = append(u, c[0]), append(v, c[1])
		}
	}
	checkColours(t, &s, u, v, "grid")
	// behind the camera: z = -1
	s.pixelCamera(-1)
	checkColours(t, &s, u[:40], v[:40], "behind")
	// random cameras looking down at a card, and random points on it
	for trial := 0; trial < 200; trial++ {
		a := rng.Float64() * 2 * math.Pi
		tilt := (rng.Float64() - 0.5) * 0.6
		ca, sa, ct, st := math.Cos(a), math.Sin(a), math.Cos(tilt), math.Sin(tilt)
		r := [3][3]float64{{ca, -sa * ct, sa * st}, {sa, ca * ct, -ca * st}, {0, st, ct}}
		s.Camera(r, [3]float64{rng.Float64()*20 - 10, rng.Float64()*20 - 10, 50 + rng.Float64()*20}, 40+rng.Float64()*10, 40+rng.Float64()*10, w/2, h/2)
		s.Plane(rng.Float64()*10-5, rng.Float64()*10-5, ca, sa, -sa, ca, rng.Float64()*5, r)
		n := 8 + rng.IntN(60)
		u, v = u[:0], v[:0]
		for i := 0; i < n; i++ {
			u, v = append(u, rng.Float64()*30-15), append(v, rng.Float64()*30-15)
		}
		checkColours(t, &s, u, v, "random")
	}
	if sampleLanes() == 0 {
		t.Log("no SIMD kernel here: only the Go version was checked")
	}
}

// BenchmarkColours: 208 points of a card cell (a 12×12 and an 8×8 patch's
// worth) by Colours and one by one in Go, on a 1280×720 frame.
func BenchmarkColours(b *testing.B) {
	rng := rand.New(rand.NewPCG(5, 6))
	const w, h = 1280, 720
	var s Sampler
	s.Frame(randomFrame(rng, w, h), w, h, [3]float64{1, 1, 1})
	id := [3][3]float64{{1, 0, 0}, {0, -1, 0}, {0, 0, -1}}
	s.Camera(id, [3]float64{-300, 200, 800}, 900, 900, 640, 360)
	s.Plane(0, 0, 1, 0, 0, 1, 5, id)
	u, v := make([]float64, 208), make([]float64, 208)
	for i := range u {
		u[i], v[i] = float64(i%12)*1.5, float64(i/12)*1.5
	}
	o := make([]float32, 3*208)
	b.Run("Colours", func(b *testing.B) {
		for b.Loop() {
			s.Colours(u, v, o[:208], o[208:416], o[416:])
		}
	})
	b.Run("Go", func(b *testing.B) {
		for b.Loop() {
			for i := range u {
				o[i], o[208+i], o[416+i] = s.colour(u[i], v[i])
			}
		}
	})
}
