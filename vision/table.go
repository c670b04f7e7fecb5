package vision

import "math"

// tableColour is the table's colour in one frame: the median B, G and R of
// a sparse sample of the frame (the table covers most of it), as shares of
// B+G+R, and the median B+G+R. It is measured the first time a card's
// outline leaves in doubt which side of it the card lies on.
type tableColour struct {
	measured bool
	b, g     float64 // shares of B+G+R
	sum      float64
	// blue: the median pixel is as blue as the cards (a close camera,
	// cards filling most of the frame, or a blue cloth): the table's
	// colour cannot be told from the cards', and nothing looks like it.
	blue bool
}

// tableStep is the sampling step (pixels, both ways) of the table's colour.
const tableStep = 4

// table returns the frame's table colour, measuring it once per frame.
func (d *Detector) table() *tableColour {
	t := &d.tableC
	if t.measured {
		return t
	}
	t.measured = true
	f := &d.img
	var hb, hg, hr [256]int
	n := 0
	for y := tableStep / 2; y < f.h; y += tableStep {
		row := f.bgr[y*f.w*3 : (y+1)*f.w*3]
		for x := tableStep / 2; x < f.w; x += tableStep {
			p := row[3*x : 3*x+3 : 3*x+3]
			hb[p[0]]++
			hg[p[1]]++
			hr[p[2]]++
			n++
		}
	}
	median := func(h *[256]int) float64 {
		acc := 0
		for v, c := range h {
			acc += c
			if 2*acc >= n {
				return float64(v)
			}
		}
		return 255
	}
	b, g, r := median(&hb), median(&hg), median(&hr)
	t.sum = b + g + r
	if t.sum > 0 {
		t.b, t.g = b/t.sum, g/t.sum
		t.blue = (b-math.Max(g, r))/t.sum >= blueWeak
	}
	return t
}

// tableLike reports whether the pixel at (x, y) has the table's colour:
// its shares of B, G and R within tableShareTol of the table's, and its
// brightness from tableDark to tableBright times the table's (a shadow on
// the table is still the table).
func (d *Detector) tableLike(x, y float64) bool {
	i, ok := d.img.index(x, y)
	if !ok {
		return false
	}
	t := d.table()
	if t.sum < 24 || t.blue {
		return false
	}
	b, g, r := float64(d.img.bgr[i]), float64(d.img.bgr[i+1]), float64(d.img.bgr[i+2])
	s := b + g + r
	if s < tableDark*t.sum || s > tableBright*t.sum || s == 0 {
		return false
	}
	return math.Abs(b/s-t.b) < tableShareTol && math.Abs(g/s-t.g) < tableShareTol
}

const (
	tableShareTol = 0.035
	tableDark     = 0.4
	tableBright   = 1.8
)

// tableInside is the share of points of the card p would cover (every
// tableGridMM millimetres, inside a margin of tableMarginMM) that show the
// bare table: none where p is right, for nothing the card lies under
// looks like the table, however much a hand, a screen or dice hide.
func (d *Detector) tableInside(cam Camera, p cardPose) float64 {
	m := d.opts.Model
	n, in := 0, 0
	for v := tableMarginMM; v <= m.CardHeight-tableMarginMM; v += tableGridMM {
		for u := tableMarginMM; u <= m.CardWidth-tableMarginMM; u += tableGridMM {
			if table, ok := d.tableAt(cam, p.at(u, v, m.CardThickness)); ok {
				n++
				if table {
					in++
				}
			}
		}
	}
	// a card mostly out of the frame: too few points to say
	nu := int((m.CardWidth-2*tableMarginMM)/tableGridMM) + 1
	nv := int((m.CardHeight-2*tableMarginMM)/tableGridMM) + 1
	if n == 0 || 4*n < nu*nv {
		return 0
	}
	return float64(in) / float64(n)
}

const tableGridMM, tableMarginMM = 3.0, 1.5

// tableAt reports whether the point w of the card plane shows the table's
// colour (tableLike); ok is false where it lies outside the frame.
func (d *Detector) tableAt(cam Camera, w Vec3) (table, ok bool) {
	x, y, ok := cam.Project(w)
	if !ok {
		return false, false
	}
	if _, in := d.img.index(x, y); !in {
		return false, false
	}
	return d.tableLike(x, y), true
}

// loneOnTable reports whether pose p covers at most paleTableInside of
// the table and the table shows all round it (see paleTableInside): a
// rectangle of the card's size, the table's colour nowhere inside and
// everywhere around.
func (d *Detector) loneOnTable(cam Camera, p cardPose) bool {
	if d.tableInside(cam, p) > paleTableInside {
		return false
	}
	m := d.opts.Model
	const steps = 20
	n, on := 0, 0
	for k := 0; k < 4; k++ {
		for i := 1; i < steps; i++ {
			f := float64(i) / steps
			u, v := f*m.CardWidth, -paleRingMM
			switch k {
			case 1:
				v = m.CardHeight + paleRingMM
			case 2:
				u, v = -paleRingMM, f*m.CardHeight
			case 3:
				u, v = m.CardWidth+paleRingMM, f*m.CardHeight
			}
			if table, ok := d.tableAt(cam, p.at(u, v, m.CardThickness)); ok {
				n++
				if table {
					on++
				}
			}
		}
	}
	return n > 0 && float64(on) >= paleTableAround*float64(n)
}

// A card is moved to its outline's other side when at least tableSwitchMin
// of it shows the bare table where it is and at most tableSwitchRatio
// times that there.
const tableSwitchMin, tableSwitchRatio = 0.06, 0.5
