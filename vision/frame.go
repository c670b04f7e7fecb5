package vision

import (
	"gocv.io/x/gocv"

	"github.com/blueprints-companion/blueprints/vision/internal/pix"
)

// frame gives Go code read access to one frame's BGR pixels. The slice
// aliases the Mat's memory and is valid only while the Mat is.
type frame struct {
	mat  gocv.Mat
	w, h int
	bgr  []uint8
	// the whiteness plane (whitePlane), if any: Plane, Done and PerRow
	// (tiles per row) are read here too
	tiles pix.Tiles
}

func newFrame(bgr gocv.Mat) frame {
	b, _ := bgr.DataPtrUint8()
	return frame{mat: bgr, w: bgr.Cols(), h: bgr.Rows(), bgr: b}
}

// index is the byte offset of the pixel nearest (x, y) (pixel).
func (f *frame) index(x, y float64) (int, bool) {
	ix, iy, ok := f.pixel(x, y)
	return (iy*f.w + ix) * 3, ok
}

// pixel is the pixel nearest (x, y); ok is false outside the frame.
func (f *frame) pixel(x, y float64) (ix, iy int, ok bool) {
	if !(x >= -0.5 && y >= -0.5) { // int() truncates towards zero; NaN is outside too
		return 0, 0, false
	}
	ix, iy = int(x+0.5), int(y+0.5)
	if ix < 0 || iy < 0 || ix >= f.w || iy >= f.h {
		return 0, 0, false
	}
	return ix, iy, true
}

// whiteness is high for the card's white line work: bright and unsaturated
// (HSV value minus saturation, from BGR).
func (f *frame) whiteness(x, y float64) float64 {
	ix, iy, ok := f.pixel(x, y)
	if !ok {
		return 0
	}
	if t := iy*f.tiles.PerRow + ix/whiteTile; t < len(f.tiles.Done) && f.tiles.Done[t] {
		return float64(f.tiles.Plane[iy*f.w+ix]) // (white, inline)
	}
	return float64(f.whiteSlow(ix, iy))
}

// valSat is HSV's value and saturation (0..255) of a BGR pixel
// (pix.ValSat: the saturation rounded down).
func valSat(b, g, r uint8) (v, s int) { return pix.ValSat(b, g, r) }

// whiteTile is how many pixels of a row the whiteness plane fills at a
// time, when the first of them is read.
const whiteTile = pix.TileW

// whitePlane is a frame's whiteness (HSV value minus saturation) kept
// pixel by pixel, filled a tile of whiteTile pixels of a row at a time as
// the line fits first read them, by pix.Whiteness's AVX-512 or AVX2
// kernel: the card finder reads each pixel of a card's line work some
// five times a frame. Where there is no such kernel the plane is not used (plane nil)
// and each read computes the pixel's whiteness again, which is then
// cheaper than filling tiles of pixels never read.
type whitePlane struct {
	plane []int16 // w·h (and room for pix's readers past it), valid where its tile is done
	done  []bool  // per tile: h rows of tiles (and room past them)
	tiles int     // tiles per row
}

// use makes p the whiteness plane of frame f, every tile still to fill:
// p's memory is kept from frame to frame.
func (p *whitePlane) use(f *frame) {
	if !pix.FastWhiteness {
		return
	}
	p.tiles = (f.w + whiteTile - 1) / whiteTile
	if len(p.plane) != f.w*f.h || len(p.done) != f.h*p.tiles {
		p.plane, p.done = make([]int16, f.w*f.h, f.w*f.h+1), make([]bool, f.h*p.tiles, f.h*p.tiles+3)
	} else {
		clear(p.done)
	}
	f.tiles = pix.Tiles{Plane: p.plane, Done: p.done, W: f.w, H: f.h, PerRow: p.tiles}
}

// white is the whiteness (HSV value minus saturation) of pixel (x, y),
// which must lie in the frame.
func (f *frame) white(x, y int) int {
	if t := y*f.tiles.PerRow + int(uint(x)/whiteTile); t < len(f.tiles.Done) && f.tiles.Done[t] {
		return int(f.tiles.Plane[y*f.w+x])
	}
	return f.whiteSlow(x, y)
}

// whiteSlow is white where the pixel's tile is not filled yet (it fills
// it), or where there is no plane.
func (f *frame) whiteSlow(x, y int) int {
	if f.tiles.Plane != nil {
		x0 := x / whiteTile * whiteTile
		x1 := min(x0+whiteTile, f.w)
		pix.Whiteness(f.tiles.Plane[y*f.w+x0:y*f.w+x1], f.bgr[(y*f.w+x0)*3:(y*f.w+x1)*3])
		f.tiles.Done[y*f.tiles.PerRow+x/whiteTile] = true
		return int(f.tiles.Plane[y*f.w+x])
	}
	i := (y*f.w + x) * 3
	v, s := valSat(f.bgr[i], f.bgr[i+1], f.bgr[i+2])
	return v - s
}

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
