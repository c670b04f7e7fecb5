package pix

import (
	"math"
	"math/rand/v2"
	"testing"
)

// yPoints sets a random camera and card pose on s, whose frame is w×h,
// and returns n card points for it: either through the
// pixel camera (pixel = card point), on the pixel grid and half pixels
// around and past the frame, its last row and column and just inside
// them; or through a camera tilted up to nearly the horizon, so that
// some points lie behind it and some outside the frame; and some points
// past what 32 bits hold.
func yPoints(rng *rand.Rand, s *Sampler, w, h, n int) (u, v []float64) {
	u, v = make([]float64, n), make([]float64, n)
	if rng.IntN(2) == 0 {
		s.pixelCamera(1)
		for i := range u {
			u[i], v[i] = float64(rng.IntN(2*w+6))/2-1.5, float64(rng.IntN(2*h+6))/2-1.5
			switch rng.IntN(8) {
			case 0:
				u[i] = float64(w - 1)
			case 1:
				v[i] = float64(h - 1)
			case 2:
				u[i], v[i] = math.Nextafter(float64(w-1), 0), math.Nextafter(float64(h-1), 0)
			case 3:
				u[i] = math.Nextafter(float64(w-1), float64(w))
			}
		}
	} else {
		a, tilt, roll := rng.Float64()*2*math.Pi, (rng.Float64()-0.5)*3, (rng.Float64()-0.5)*0.4
		ca, sa, ct, st, cr, sr := math.Cos(a), math.Sin(a), math.Cos(tilt), math.Sin(tilt), math.Cos(roll), math.Sin(roll)
		yaw := [3][3]float64{{ca, -sa, 0}, {sa, ca, 0}, {0, 0, 1}}
		pitch := [3][3]float64{{1, 0, 0}, {0, ct, -st}, {0, st, ct}}
		rl := [3][3]float64{{cr, -sr, 0}, {sr, cr, 0}, {0, 0, 1}}
		r := mul3(rl, mul3(pitch, yaw))
		f := float64(w+h) * (0.5 + rng.Float64())
		s.Camera(r, [3]float64{rng.Float64()*10 - 5, rng.Float64()*10 - 5, 5 + rng.Float64()*30}, f, f*(0.9+0.2*rng.Float64()), float64(w)*rng.Float64(), float64(h)*rng.Float64())
		b := rng.Float64() * 2 * math.Pi
		cb, sb := math.Cos(b), math.Sin(b)
		s.Plane(rng.Float64()*10-5, rng.Float64()*10-5, cb, sb, -sb, cb, rng.Float64()*4-2, r)
		for i := range u {
			u[i], v[i] = rng.Float64()*60-30, rng.Float64()*60-30
		}
	}
	for i := range u {
		if rng.IntN(40) == 0 {
			u[i] = 3e9
		}
	}
	return u, v
}

// mul3 is the matrix product ab.
func mul3(a, b [3][3]float64) (c [3][3]float64) {
	for i := range 3 {
		for j := range 3 {
			c[i][j] = a[i][0]*b[0][j] + a[i][1]*b[1][j] + a[i][2]*b[2][j]
		}
	}
	return c
}

// tieScale is a scale for channel c under which the colour at card
// point (u, v) (colour's double before it is scaled) falls on a midpoint
// between two float32s (or next to one), so that a result off by as
// little as a double's last bit there rounds to another float32 at least
// half the time; 0 where the point gives no colour.
func tieScale(s *Sampler, u, v float64, c int) float64 {
	px, py, ok := s.project(u, v)
	if !ok || !(px >= 0 && py >= 0 && px <= s.wMax && py <= s.hMax) {
		return 0
	}
	x0, y0 := int(px), int(py)
	x1, y1 := min(x0+1, int(s.wm1)), min(y0+1, int(s.hm1))
	fx, fy := px-float64(x0), py-float64(y0)
	w := int(s.w)
	at := func(x, y int) float64 { return float64(s.img[(y*w+x)*3+c]) }
	col := (1-fy)*((1-fx)*at(x0, y0)+fx*at(x1, y0)) + fy*((1-fx)*at(x0, y1)+fx*at(x1, y1))
	if col == 0 {
		return 0
	}
	f := float64(float32(col))
	return (f + float64(math.Nextafter32(float32(col), 1e9))) / 2 / col
}

// TestSampleYExact: the AVX2 kernel, called directly, gives colour's bits
// for every point of random frames, cameras and poses (behind the
// camera, outside the frame, on its last row and column), under scales
// that put some of them on float32 midpoints (tieScale: a fused
// multiply-add would show), and writes nothing past its points; Colours
// gives them for every count of points.
func TestSampleYExact(t *testing.T) {
	if !hasSampleY {
		t.Skip("no AVX2 here")
	}
	rng := rand.New(rand.NewPCG(23, 24))
	var kinds [4]int // behind the camera, outside the frame, inside, on its last row or column
	for trial := 0; trial < 3000; trial++ {
		w, h := 1+rng.IntN(70), 1+rng.IntN(40)
		if w*h < 3 { // (the kernel needs 8 bytes)
			w = 3
		}
		var s Sampler
		s.Frame(randomFrame(rng, w, h), w, h, [3]float64{})
		n := 4 + rng.IntN(100)
		u, v := yPoints(rng, &s, w, h, n)
		k := n &^ 3
		for c := range 3 { // a point that gives a colour, if one of 8 picks does
			for pick := 0; pick < 8 && s.scale[c] == 0; pick++ {
				i := rng.IntN(k)
				s.scale[c] = tieScale(&s, u[i], v[i], c)
			}
			if s.scale[c] == 0 {
				s.scale[c] = 1
			}
		}
		b, g, r := make([]float32, n), make([]float32, n), make([]float32, n)
		for i := k; i < n; i++ {
			b[i], g[i], r[i] = 9, 9, 9
		}
		sampleY(&s, &s.img[0], &u[0], &v[0], &b[0], &g[0], &r[0], k)
		for i := 0; i < n; i++ {
			if i >= k {
				if b[i] != 9 || g[i] != 9 || r[i] != 9 {
					t.Fatalf("trial %d: wrote point %d past the %d", trial, i, k)
				}
				continue
			}
			wb, wg, wr := s.colour(u[i], v[i])
			if math.Float32bits(b[i]) != math.Float32bits(wb) || math.Float32bits(g[i]) != math.Float32bits(wg) || math.Float32bits(r[i]) != math.Float32bits(wr) {
				t.Fatalf("trial %d (%d×%d) point %d (%v, %v): %v %v %v, want %v %v %v", trial, w, h, i, u[i], v[i], b[i], g[i], r[i], wb, wg, wr)
			}
			switch px, py, ok := s.project(u[i], v[i]); {
			case !ok:
				kinds[0]++
			case !(px >= 0 && py >= 0 && px <= s.wMax && py <= s.hMax):
				kinds[1]++
			case px == s.wMax || py == s.hMax:
				kinds[3]++
			default:
				kinds[2]++
			}
		}
		checkColours(t, &s, u, v, "random")
	}
	for k, c := range kinds {
		if c < 1000 {
			t.Fatalf("kind %d of point read only %d times: %v", k, c, kinds)
		}
	}
}

// dieEdges are BGR pixels that DieTest's comparisons (with TestDieYExact's
// colours) decide exactly at their thresholds, each beside one just past.
var dieEdges = [][3]uint8{
	{138, 156, 156}, {139, 156, 156}, // bl = -18/450: the double nearest -0.04
	{138, 130, 132}, {137, 130, 132}, // bl = 6/400: the double nearest 0.015
	{100, 96, 60}, {99, 96, 60}, // b - max(g, r) = 4
	{253, 195, 255}, {253, 196, 255}, // saturation 60, 59
	{150, 150, 150}, {151, 151, 151}, // value 150, 151
	{10, 10, 10}, {9, 10, 10}, // sum 30, 29
	{30, 42, 48}, {29, 42, 48}, // the table's chroma, sum = Dark
	{128, 178, 204}, {129, 178, 204}, // the table's chroma, sum = Bright
}

// TestDieYExact: the AVX2 kernel, called directly, gives DieLike's Go
// pixels and flags bit for bit for every point of random frames of every
// kind of pixel (dieEdges too), cameras and poses, every branch of the
// test deciding some, and writes nothing past its points.
func TestDieYExact(t *testing.T) {
	if !hasSampleY {
		t.Skip("no AVX2 here")
	}
	rng := rand.New(rand.NewPCG(25, 26))
	var kinds [6]int // behind the camera, outside the frame, dark, card-like, die-like, not
	for trial := 0; trial < 3000; trial++ {
		w, h := 1+rng.IntN(70), 1+rng.IntN(40)
		if w*h < 2 { // (the kernel needs 4 bytes)
			w = 2
		}
		img := dieFrame(rng, w, h)
		for i := 0; i < w*h; i++ {
			if rng.IntN(6) == 0 {
				copy(img[3*i:], dieEdges[rng.IntN(len(dieEdges))][:])
			}
		}
		var s Sampler
		s.Frame(img, w, h, [3]float64{1, 1, 1})
		n := 4 + rng.IntN(100)
		u, v := yPoints(rng, &s, w, h, n)
		k := n &^ 3
		dt := DieTest{Card: [2]float64{0.2, 0.3}, Table: [2]float64{0.4, 0.35}, CardTol: 0.05, TableTol: 0.04, Dark: 0.4 * 300, Bright: 1.7 * 300}
		dt.constants(&s)
		x, y, flags := make([]float64, n), make([]float64, n), make([]uint8, n)
		for i := k; i < n; i++ {
			x[i], y[i], flags[i] = 7, 7, 77
		}
		dieY(&s, &dt, &s.img[0], &u[0], &v[0], &x[0], &y[0], &flags[0], k)
		for i := 0; i < n; i++ {
			if i >= k {
				if x[i] != 7 || y[i] != 7 || flags[i] != 77 {
					t.Fatalf("trial %d: wrote point %d past the %d", trial, i, k)
				}
				continue
			}
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
				t.Fatalf("trial %d (%d×%d) point %d (%v, %v) at (%v, %v): flags %d, want %d", trial, w, h, i, u[i], v[i], wx, wy, flags[i], want)
			}
			ix, iy := int(wx+0.5), int(wy+0.5)
			var sum int
			if ok && wx >= -0.5 && wy >= -0.5 && ix < w && iy < h {
				j := 3 * (iy*w + ix)
				sum = int(s.img[j]) + int(s.img[j+1]) + int(s.img[j+2])
			}
			switch {
			case !ok:
				kinds[0]++
			case !(wx >= -0.5 && wy >= -0.5) || ix >= w || iy >= h:
				kinds[1]++
			case sum < 30:
				kinds[2]++
			case want&2 != 0:
				kinds[4]++
			default:
				c := [2]float64{float64(s.img[3*(iy*w+ix)+2]) / float64(sum), float64(s.img[3*(iy*w+ix)+1]) / float64(sum)}
				if math.Hypot(c[0]-dt.Table[0], c[1]-dt.Table[1]) >= dt.TableTol {
					kinds[3]++ // card-like: a die by the table's test alone
				} else {
					kinds[5]++
				}
			}
		}
	}
	for k, c := range kinds {
		if c < 500 {
			t.Fatalf("kind %d of point decided only %d times: %v", k, c, kinds)
		}
	}
}

// BenchmarkSamplersY: the AVX2 kernels and the Go code, per point, on
// 208 points of a card cell on a 1280×720 frame (as BenchmarkColours), and
// along a line across it, its whiteness plane filled.
func BenchmarkSamplersY(b *testing.B) {
	if !hasSampleY {
		b.Skip("no AVX2 here")
	}
	rng := rand.New(rand.NewPCG(5, 6))
	const w, h, n = 1280, 720, 208
	var s Sampler
	s.Frame(dieFrame(rng, w, h), w, h, [3]float64{1, 1, 1})
	id := [3][3]float64{{1, 0, 0}, {0, -1, 0}, {0, 0, -1}}
	s.Camera(id, [3]float64{-300, 200, 800}, 900, 900, 640, 360)
	s.Plane(0, 0, 1, 0, 0, 1, 5, id)
	u, v := make([]float64, n), make([]float64, n)
	for i := range u {
		u[i], v[i] = float64(i%12)*1.5, float64(i/12)*1.5
	}
	o := make([]float32, 3*n)
	x, y, flags := make([]float64, n), make([]float64, n), make([]uint8, n)
	dt := DieTest{Card: [2]float64{0.2, 0.3}, Table: [2]float64{0.4, 0.35}, CardTol: 0.05, TableTol: 0.04, Dark: 120, Bright: 510}
	dt.constants(&s)
	tl := randomTiles(rng, w, h, 1)
	fr := make([]float64, n)
	for i := range fr {
		fr[i] = float64(i) / float64(n-1)
	}
	out, idx := make([]float64, n), make([]int32, n)
	var ta tileArgs
	tl.args(&ta)
	ta.x0, ta.y0, ta.dx, ta.dy = 300, 200, 40, 15
	perPoint := func(b *testing.B) { b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/point") }
	b.Run("Colours/Y", func(b *testing.B) {
		for b.Loop() {
			sampleY(&s, &s.img[0], &u[0], &v[0], &o[0], &o[n], &o[2*n], n)
		}
		perPoint(b)
	})
	b.Run("Colours/Go", func(b *testing.B) {
		for b.Loop() {
			for i := range u {
				o[i], o[n+i], o[2*n+i] = s.colour(u[i], v[i])
			}
		}
		perPoint(b)
	})
	b.Run("DieLike/Y", func(b *testing.B) {
		for b.Loop() {
			dieY(&s, &dt, &s.img[0], &u[0], &v[0], &x[0], &y[0], &flags[0], n)
		}
		perPoint(b)
	})
	b.Run("DieLike/Go", func(b *testing.B) {
		for b.Loop() {
			for i := range u {
				var ok bool
				x[i], y[i], ok = s.project(u[i], v[i])
				flags[i] = 0
				if ok {
					flags[i] = 1
					if dt.die(&s, x[i], y[i]) {
						flags[i] |= 2
					}
				}
			}
		}
		perPoint(b)
	})
	b.Run("Along/Y", func(b *testing.B) {
		for b.Loop() {
			alongY(&ta, &fr[0], &out[0], n)
		}
		perPoint(b)
	})
	b.Run("Along/Go", func(b *testing.B) {
		for b.Loop() {
			for i, f := range fr {
				out[i], _ = tl.alongRef(300+f*40, 200+f*15)
			}
		}
		perPoint(b)
	})
	b.Run("White/Y", func(b *testing.B) {
		for b.Loop() {
			nearestY(&s, &ta, &u[0], &v[0], &out[0], &idx[0], n)
		}
		perPoint(b)
	})
	b.Run("White/Go", func(b *testing.B) {
		for b.Loop() {
			for i := range u {
				out[i], _, idx[i] = s.nearestRef(tl, u[i], v[i])
			}
		}
		perPoint(b)
	})
}
