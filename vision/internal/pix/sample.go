package pix

import "unsafe"

// Sampler reads a frame's colour, bilinear between pixels, at points of a
// horizontal plane given in a card's axes: the point (u, v) of the card
// lies in the world at X = (OX + UX·u) + VX·v, Y = (OY + UY·u) + VY·v and
// the plane's height Z, and a pinhole camera (rotation R, translation T,
// focal lengths and centre) maps it to pixels. Each operation is the one
// the detector's Go code does, in the same order and precision (the card
// pose's at, Camera.Project, and the bilinear read topFeatures did in Go
// before), so Colours gives the same bits as reading the points one by
// one; the AVX-512 kernel (sample_amd64.s) does 8 points at a time, the
// AVX2 one (sampley_amd64.s) 4.
//
// The field order is the kernel's: it reads them by offset.
type Sampler struct {
	ox, oy, ux, uy, vx, vy float64    // 0: the card pose in the plane
	r0                     [4]float64 // 48: R00, R01, R02·Z, T0
	r1                     [4]float64 // 80: R10, R11, R12·Z, T1
	r2                     [4]float64 // 112: R20, R21, R22·Z, T2
	fx, fy, cx, cy         float64    // 144: focal lengths and centre
	scale                  [3]float64 // 176: per channel B, G, R
	wMax, hMax             float64    // 200: the last pixel's column and row
	one, eps               float64    // 216: 1 and the nearest depth in front of the camera
	w, wm1, hm1, last      int32      // 232: width, w-1, h-1, the last 4-byte load's offset
	one32, last8           int32      // 248: 1, the last 8-byte load's offset
	img                    []uint8    // the frame's BGR bytes, w·h·3
}

// Check the kernel's offsets.
var _ = [1]struct{}{}[unsafe.Offsetof(Sampler{}.last8)-252]

// Frame sets the frame the sampler reads: w·h BGR pixels, 3 bytes each,
// row by row (bgr must hold them all), and the factor each channel (B, G,
// R) is multiplied by.
func (s *Sampler) Frame(bgr []uint8, w, h int, scale [3]float64) {
	s.img = bgr[:w*h*3]
	s.wMax, s.hMax = float64(w-1), float64(h-1)
	s.w, s.wm1, s.hm1 = int32(w), int32(w-1), int32(h-1)
	s.last, s.last8 = int32(len(s.img)-4), int32(len(s.img)-8)
	s.scale = scale
	s.one, s.eps, s.one32 = 1, 1e-6, 1
}

// Camera sets the pinhole camera (rows of R, T, focal lengths, centre).
func (s *Sampler) Camera(r [3][3]float64, t [3]float64, fx, fy, cx, cy float64) {
	s.r0 = [4]float64{r[0][0], r[0][1], r[0][2], t[0]}
	s.r1 = [4]float64{r[1][0], r[1][1], r[1][2], t[1]}
	s.r2 = [4]float64{r[2][0], r[2][1], r[2][2], t[2]}
	s.fx, s.fy, s.cx, s.cy = fx, fy, cx, cy
}

// Plane sets the card pose (origin and axes in the world; their heights
// are not used) and the height z of the plane read. The camera must be set
// first.
func (s *Sampler) Plane(ox, oy, ux, uy, vx, vy, z float64, r [3][3]float64) {
	s.ox, s.oy, s.ux, s.uy, s.vx, s.vy = ox, oy, ux, uy, vx, vy
	s.r0[2], s.r1[2], s.r2[2] = r[0][2]*z, r[1][2]*z, r[2][2]*z
}

// FastSampling is whether the samplers (Colours, DieLike, Tiles.Along and
// Sampler.White) run their SIMD kernels here, by AVX-512 or AVX2
// (SamplingKernel says which); else Colours and DieLike read the points
// one by one in Go, and Tiles.Along and Sampler.White read none, for
// their callers to read.
var FastSampling = hasSampleZ || hasSampleY

// SamplingKernel names the kernels the samplers run here: "avx512",
// "avx2" (4 points at a time where AVX-512 does 8; the same results) or
// "go" (none, or FastSampling is off).
func SamplingKernel() string {
	switch {
	case !FastSampling:
	case hasSampleZ:
		return "avx512"
	case hasSampleY:
		return "avx2"
	}
	return "go"
}

// sampleLanes is how many points at a time the samplers' kernels here
// read: 8 by AVX-512, 4 by AVX2, 0 where there are none or FastSampling
// is off.
func sampleLanes() int {
	switch {
	case !FastSampling:
	case hasSampleZ:
		return 8
	case hasSampleY:
		return 4
	}
	return 0
}

// Colours writes to b[i], g[i], r[i] the colour at card point (u[i], v[i])
// for every i below len(u): 0 where the point is behind the camera or
// outside the frame. v, b, g and r must be as long as u.
func (s *Sampler) Colours(u, v []float64, b, g, r []float32) {
	n := len(u)
	v, b, g, r = v[:n], b[:n], g[:n], r[:n]
	k := 0
	if m := sampleLanes(); m > 0 && n >= m && len(s.img) >= 8 {
		k = n - n%m
		if m == 8 {
			sampleZ(s, &s.img[0], &u[0], &v[0], &b[0], &g[0], &r[0], k)
		} else {
			sampleY(s, &s.img[0], &u[0], &v[0], &b[0], &g[0], &r[0], k)
		}
	}
	for i := k; i < n; i++ {
		b[i], g[i], r[i] = s.colour(u[i], v[i])
	}
}

// project is the pixel where card point (u, v) is seen (the card pose's
// at, then Camera.Project; r[i][2] holds R[i][2]·Z); ok is false behind
// the camera.
func (s *Sampler) project(u, v float64) (px, py float64, ok bool) {
	// (every product converted on its own: no fused multiply-add, as the
	// kernels do them, whatever GOAMD64 lets the compiler use)
	X := s.ox + float64(s.ux*u) + float64(s.vx*v)
	Y := s.oy + float64(s.uy*u) + float64(s.vy*v)
	x := float64(s.r0[0]*X) + float64(s.r0[1]*Y) + s.r0[2] + s.r0[3]
	y := float64(s.r1[0]*X) + float64(s.r1[1]*Y) + s.r1[2] + s.r1[3]
	z := float64(s.r2[0]*X) + float64(s.r2[1]*Y) + s.r2[2] + s.r2[3]
	if z <= 1e-6 {
		return 0, 0, false
	}
	return s.fx*x/z + s.cx, s.fy*y/z + s.cy, true
}

// colour is one point's colour, in Go.
func (s *Sampler) colour(u, v float64) (b, g, r float32) {
	px, py, ok := s.project(u, v)
	if !ok {
		return 0, 0, 0
	}
	// the bilinear read, under the channels' scale
	if px < 0 || py < 0 || px > s.wMax || py > s.hMax {
		return 0, 0, 0
	}
	x0, y0 := int(px), int(py)
	x1, y1 := min(x0+1, int(s.wm1)), min(y0+1, int(s.hm1))
	fx, fy := px-float64(x0), py-float64(y0)
	w := int(s.w)
	i00, i10 := (y0*w+x0)*3, (y0*w+x1)*3
	i01, i11 := (y1*w+x0)*3, (y1*w+x1)*3
	var c [3]float32
	for k := 0; k < 3; k++ {
		v := float64((1-fy)*(float64((1-fx)*float64(s.img[i00+k]))+float64(fx*float64(s.img[i10+k])))) +
			float64(fy*(float64((1-fx)*float64(s.img[i01+k]))+float64(fx*float64(s.img[i11+k]))))
		c[k] = float32(v * s.scale[k])
	}
	return c[0], c[1], c[2]
}
