package vision

import "gocv.io/x/gocv"

// frame gives Go code read access to one frame's BGR pixels. The slice
// aliases the Mat's memory and is valid only while the Mat is.
type frame struct {
	mat  gocv.Mat
	w, h int
	bgr  []uint8
}

func newFrame(bgr gocv.Mat) frame {
	b, _ := bgr.DataPtrUint8()
	return frame{mat: bgr, w: bgr.Cols(), h: bgr.Rows(), bgr: b}
}

func (f *frame) index(x, y float64) (int, bool) {
	if !(x >= -0.5 && y >= -0.5) { // int() truncates towards zero; NaN is outside too
		return 0, false
	}
	ix, iy := int(x+0.5), int(y+0.5)
	if ix < 0 || iy < 0 || ix >= f.w || iy >= f.h {
		return 0, false
	}
	return (iy*f.w + ix) * 3, true
}

// whiteness is high for the card's white line work: bright and unsaturated
// (HSV value minus saturation, from BGR).
func (f *frame) whiteness(x, y float64) float64 {
	i, ok := f.index(x, y)
	if !ok {
		return 0
	}
	v, s := valSat(f.bgr[i], f.bgr[i+1], f.bgr[i+2])
	return float64(v) - float64(s)
}

// valSat is HSV's value and saturation (0..255) of a BGR pixel. The
// saturation is (v-lo)·255/v rounded down, by a multiply with v's
// reciprocal instead of a division (exact for every pixel:
// TestValSatExact), as it is read for millions of pixels a frame.
func valSat(b, g, r uint8) (v, s int) {
	hi := max(b, g, r)
	v = int(hi)
	lo := int(min(b, g, r))
	if v == 0 {
		return 0, 0
	}
	return v, int(uint64((v-lo)*255) * recip32[hi] >> 32)
}

// recip32[d] is 2^32/d rounded up (d > 0): n·recip32[d] >> 32 is n/d
// rounded down for every n < 2^16, since the rounding adds less than
// n/2^32 < 1/d to the quotient.
var recip32 = func() (t [256]uint64) {
	for d := uint64(1); d < 256; d++ {
		t[d] = (1<<32)/d + 1
	}
	return t
}()

// gray is the brightness at a point, bilinear between pixels.
func (f *frame) gray(x, y float64) float64 {
	if x < 0 || y < 0 || x > float64(f.w-1) || y > float64(f.h-1) {
		return 0
	}
	x0, y0 := int(x), int(y)
	x1, y1 := min(x0+1, f.w-1), min(y0+1, f.h-1)
	fx, fy := x-float64(x0), y-float64(y0)
	lum := func(xx, yy int) float64 {
		i := (yy*f.w + xx) * 3
		return 0.114*float64(f.bgr[i]) + 0.587*float64(f.bgr[i+1]) + 0.299*float64(f.bgr[i+2])
	}
	return (1-fy)*((1-fx)*lum(x0, y0)+fx*lum(x1, y0)) + fy*((1-fx)*lum(x0, y1)+fx*lum(x1, y1))
}

// blueness is (B - max(G, R)) / (B + G + R) at a pixel; -1 when too dark.
func (f *frame) blueness(x, y float64) float64 {
	i, ok := f.index(x, y)
	if !ok {
		return -1
	}
	b, g, r := int(f.bgr[i]), int(f.bgr[i+1]), int(f.bgr[i+2])
	sum := b + g + r
	if sum < 45 {
		return -1
	}
	return float64(b-max(g, r)) / float64(sum)
}

// cardLike is true where a pixel looks like the printed card: blue, or the
// white line work on it (bright, neutral).
func (f *frame) cardLike(x, y float64) bool {
	i, ok := f.index(x, y)
	if !ok {
		return false
	}
	b, g, r := int(f.bgr[i]), int(f.bgr[i+1]), int(f.bgr[i+2])
	sum := b + g + r
	if sum < 24 {
		return false
	}
	bl := float64(b-max(g, r)) / float64(sum)
	if bl >= 0.015 && b-max(g, r) >= 4 {
		return true
	}
	// white line work: neutral and bright
	v, sat := valSat(f.bgr[i], f.bgr[i+1], f.bgr[i+2])
	return bl > -0.04 && sat < 60 && v > 150
}
