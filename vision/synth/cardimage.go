package synth

import (
	"image"
	"math"

	"github.com/blueprints-companion/blueprints/vision/cardmodel"
)

// canvas is a float RGB image for drawing line work with anti-aliasing.
type canvas struct {
	w, h  int
	scale float64 // pixels per millimetre
	pix   []float64
}

func newCanvas(wmm, hmm, scale float64, bg [3]float64) *canvas {
	c := &canvas{w: int(math.Round(wmm * scale)), h: int(math.Round(hmm * scale)), scale: scale}
	c.pix = make([]float64, c.w*c.h*3)
	for i := 0; i < c.w*c.h; i++ {
		copy(c.pix[i*3:], bg[:])
	}
	return c
}

func (c *canvas) blend(x, y int, col [3]float64, a float64) {
	if x < 0 || y < 0 || x >= c.w || y >= c.h || a <= 0 {
		return
	}
	a = math.Min(a, 1)
	i := (y*c.w + x) * 3
	for k := 0; k < 3; k++ {
		c.pix[i+k] = c.pix[i+k]*(1-a) + col[k]*a
	}
}

// line draws a segment in millimetres with round caps; clip, if not nil,
// limits drawing to a rectangle (x0, y0, x1, y1) in millimetres.
func (c *canvas) line(x0, y0, x1, y1, width float64, col [3]float64, clip *[4]float64) {
	s := c.scale
	ax, ay, bx, by := x0*s, y0*s, x1*s, y1*s
	hw := width * s / 2
	minX, maxX := int(math.Floor(math.Min(ax, bx)-hw-1)), int(math.Ceil(math.Max(ax, bx)+hw+1))
	minY, maxY := int(math.Floor(math.Min(ay, by)-hw-1)), int(math.Ceil(math.Max(ay, by)+hw+1))
	dx, dy := bx-ax, by-ay
	l2 := dx*dx + dy*dy
	for y := minY; y <= maxY; y++ {
		for x := minX; x <= maxX; x++ {
			px, py := float64(x)+0.5, float64(y)+0.5
			if clip != nil && (px < clip[0]*s || px > clip[2]*s || py < clip[1]*s || py > clip[3]*s) {
				continue
			}
			t := 0.0
			if l2 > 0 {
				t = math.Max(0, math.Min(1, ((px-ax)*dx+(py-ay)*dy)/l2))
			}
			qx, qy := ax+t*dx-px, ay+t*dy-py
			d := math.Sqrt(qx*qx + qy*qy)
			c.blend(x, y, col, hw-d+0.5)
		}
	}
}

// poly fills a convex or concave polygon given in millimetres.
func (c *canvas) poly(pts [][2]float64, col [3]float64) {
	s := c.scale
	minX, minY, maxX, maxY := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	for _, p := range pts {
		minX, maxX = math.Min(minX, p[0]*s), math.Max(maxX, p[0]*s)
		minY, maxY = math.Min(minY, p[1]*s), math.Max(maxY, p[1]*s)
	}
	for y := int(minY); y <= int(maxY)+1; y++ {
		for x := int(minX); x <= int(maxX)+1; x++ {
			px, py := (float64(x)+0.5)/s, (float64(y)+0.5)/s
			in := false
			for i, j := 0, len(pts)-1; i < len(pts); j, i = i, i+1 {
				a, b := pts[i], pts[j]
				if (a[1] > py) != (b[1] > py) && px < (b[0]-a[0])*(py-a[1])/(b[1]-a[1])+a[0] {
					in = !in
				}
			}
			if in {
				c.blend(x, y, col, 1)
			}
		}
	}
}

func (c *canvas) image() *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, c.w, c.h))
	for i := 0; i < c.w*c.h; i++ {
		img.Pix[i*4+0] = uint8(math.Round(math.Max(0, math.Min(1, c.pix[i*3+0])) * 255))
		img.Pix[i*4+1] = uint8(math.Round(math.Max(0, math.Min(1, c.pix[i*3+1])) * 255))
		img.Pix[i*4+2] = uint8(math.Round(math.Max(0, math.Min(1, c.pix[i*3+2])) * 255))
		img.Pix[i*4+3] = 255
	}
	return img
}

// digitStrokes are polylines of the digits 0-9 in a box 0..1 wide, 0..1.6
// high (y down): a plain stroke font for the printed numbers.
var digitStrokes = map[byte][][][2]float64{
	'0': {{{0.5, 0}, {0.15, 0.2}, {0, 0.8}, {0.15, 1.4}, {0.5, 1.6}, {0.85, 1.4}, {1, 0.8}, {0.85, 0.2}, {0.5, 0}}},
	'1': {{{0.2, 0.35}, {0.6, 0}, {0.6, 1.6}}, {{0.25, 1.6}, {0.95, 1.6}}},
	'2': {{{0.05, 0.35}, {0.25, 0.05}, {0.55, 0}, {0.85, 0.1}, {0.95, 0.4}, {0.85, 0.7}, {0, 1.6}, {1, 1.6}}},
	'3': {{{0.05, 0.2}, {0.35, 0}, {0.75, 0.02}, {0.95, 0.3}, {0.85, 0.62}, {0.45, 0.78}}, {{0.45, 0.78}, {0.9, 0.95}, {1, 1.25}, {0.8, 1.55}, {0.4, 1.6}, {0, 1.4}}},
	'4': {{{0.75, 1.6}, {0.75, 0}, {0, 1.15}, {1, 1.15}}},
	'5': {{{0.9, 0}, {0.15, 0}, {0.05, 0.72}, {0.45, 0.62}, {0.85, 0.75}, {1, 1.1}, {0.85, 1.45}, {0.45, 1.6}, {0, 1.45}}},
	'6': {{{0.85, 0.1}, {0.5, 0}, {0.15, 0.25}, {0, 0.9}, {0.1, 1.4}, {0.5, 1.6}, {0.9, 1.4}, {1, 1.05}, {0.8, 0.75}, {0.45, 0.7}, {0.1, 0.9}}},
	'7': {{{0, 0}, {1, 0}, {0.4, 1.6}}},
	'8': {{{0.5, 0.75}, {0.15, 0.6}, {0.1, 0.3}, {0.5, 0}, {0.9, 0.3}, {0.85, 0.6}, {0.5, 0.75}, {0.05, 0.95}, {0, 1.3}, {0.5, 1.6}, {1, 1.3}, {0.95, 0.95}, {0.5, 0.75}}},
	'9': {{{0.9, 0.7}, {0.5, 0.9}, {0.1, 0.7}, {0, 0.4}, {0.5, 0}, {0.9, 0.2}, {1, 0.7}, {0.85, 1.3}, {0.5, 1.6}, {0.15, 1.5}}},
}

// text draws digits with their top-left at (x, y), h mm high.
func (c *canvas) text(s string, x, y, h, width float64, col [3]float64) {
	k := h / 1.6
	for _, ch := range []byte(s) {
		for _, pl := range digitStrokes[ch] {
			for i := 1; i < len(pl); i++ {
				c.line(x+pl[i-1][0]*k, y+pl[i-1][1]*k, x+pl[i][0]*k, y+pl[i][1]*k, width, col, nil)
			}
		}
		x += 1.45 * k
	}
}

// Card face colours (sRGB, 0-1).
var (
	cardBlue  = [3]float64{0.10, 0.30, 0.62}
	cardWhite = [3]float64{0.96, 0.97, 1.0}
)

// DrawCard draws the printed face of a blueprint card: blue with white line
// work; the 3x2 grid of cells on the left half (hatched or numbered), an
// isometric drawing of the building on the right half, the card number in
// the bottom-right corner. scale is pixels per millimetre.
func DrawCard(m cardmodel.Model, l Layout, id int, scale float64) *image.RGBA {
	c := newCanvas(m.CardWidth, m.CardHeight, scale, cardBlue)
	lw := 0.55
	W, H := m.CardWidth, m.CardHeight
	if in := m.FrameInset; in > 0 { // the frame
		for _, s := range [][4]float64{{in, in, W - in, in}, {W - in, in, W - in, H - in}, {W - in, H - in, in, H - in}, {in, H - in, in, in}} {
			c.line(s[0], s[1], s[2], s[3], 0.35, cardWhite, nil)
		}
	}
	// grid
	x0, y0, cs := m.GridOrigin[0], m.GridOrigin[1], m.Cell
	for r := 0; r < 3; r++ {
		for col := 0; col < 2; col++ {
			cx0, cy0 := x0+float64(col)*cs, y0+float64(r)*cs
			switch v := l[r][col]; {
			case v == Hatched:
				clip := [4]float64{cx0, cy0, cx0 + cs, cy0 + cs}
				for d := -cs; d < cs; d += 2.6 {
					c.line(cx0+d, cy0+cs, cx0+d+cs, cy0, 0.4, cardWhite, &clip)
				}
			case v > 0:
				hgt := 0.62 * cs
				c.text(string(rune('0'+v)), cx0+cs/2-hgt/1.6/2, cy0+(cs-hgt)/2, hgt, 1.1, cardWhite)
			}
		}
	}
	for r := 0; r <= 3; r++ {
		y := y0 + float64(r)*cs
		c.line(x0, y, x0+2*cs, y, lw, cardWhite, nil)
	}
	for col := 0; col <= 2; col++ {
		x := x0 + float64(col)*cs
		c.line(x, y0, x, y0+3*cs, lw, cardWhite, nil)
	}
	// isometric drawing on the right half
	drawIso(c, l, W/2+W/4, H*0.5, W, H)
	const in = 2.5 // the card number's margin
	c.text(itoa2(id), W-in-9, H-in-6, 4, 0.45, cardWhite)
	return c.image()
}

func itoa2(n int) string {
	return string([]byte{byte('0' + n/10%10), byte('0' + n%10)})
}

// drawIso draws the blueprint as isometric cubes centred near (cx, cy).
func drawIso(c *canvas, l Layout, cx, cy, W, H float64) {
	maxH := 1
	for r := 0; r < 3; r++ {
		for col := 0; col < 2; col++ {
			maxH = max(maxH, l[r][col])
		}
	}
	// cube size so that the drawing fits the right half
	avail := math.Min(W/2*0.8, H*0.85)
	a := math.Cos(math.Pi / 6)
	b := 0.5
	// extent in cube units: width (2+3)*a, height (2+3)*b + maxH
	sz := math.Min(avail/((5)*a), avail/(5*b+float64(maxH)))
	// origin so that the drawing is centred
	ox := cx - (2-3)*a*sz/2
	oy := cy - (5*b*sz-float64(maxH)*sz)/2
	iso := func(x, y, z float64) [2]float64 { // x along columns, y along rows, z up
		return [2]float64{ox + (x-y)*a*sz, oy + (x+y)*b*sz - z*sz}
	}
	shadeTop := [3]float64{0.16, 0.40, 0.74}
	shadeL := [3]float64{0.08, 0.24, 0.52}
	shadeR := [3]float64{0.12, 0.33, 0.66}
	// base plate outline: hatched cells dashed as a thin outline
	for s := 0; s <= 6; s++ {
		for r := 0; r < 3; r++ {
			for col := 0; col < 2; col++ {
				if r+col != s {
					continue
				}
				x, y := float64(col), float64(r)
				p := [4][2]float64{iso(x, y, 0), iso(x+1, y, 0), iso(x+1, y+1, 0), iso(x, y+1, 0)}
				for i := 0; i < 4; i++ {
					q := p[(i+1)%4]
					c.line(p[i][0], p[i][1], q[0], q[1], 0.25, cardWhite, nil)
				}
			}
		}
	}
	for s := 0; s <= 3; s++ {
		for r := 0; r < 3; r++ {
			for col := 0; col < 2; col++ {
				if r+col != s {
					continue
				}
				for k := 0; k < l[r][col]; k++ {
					x, y, z := float64(col), float64(r), float64(k)
					top := [][2]float64{iso(x, y, z+1), iso(x+1, y, z+1), iso(x+1, y+1, z+1), iso(x, y+1, z+1)}
					left := [][2]float64{iso(x, y+1, z), iso(x+1, y+1, z), iso(x+1, y+1, z+1), iso(x, y+1, z+1)}
					right := [][2]float64{iso(x+1, y, z), iso(x+1, y+1, z), iso(x+1, y+1, z+1), iso(x+1, y, z+1)}
					c.poly(top, shadeTop)
					c.poly(left, shadeL)
					c.poly(right, shadeR)
					for _, f := range [][][2]float64{top, left, right} {
						for i := range f {
							q := f[(i+1)%len(f)]
							c.line(f[i][0], f[i][1], q[0], q[1], 0.35, cardWhite, nil)
						}
					}
				}
			}
		}
	}
}
