package vision

import (
	"math"

	"github.com/blueprints-companion/blueprints/vision/cardmodel"
)

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
		t.blue = (b-max(g, r))/t.sum >= blueWeak
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

// sidePoint is the card point a mm along side k (0: v = 0, 1: v =
// height, 2: u = 0, 3: u = width) and in mm inside it (outside where in
// is negative).
func sidePoint(m cardmodel.Model, k int, a, in float64) (u, v float64) {
	switch k {
	case 0:
		return a, in
	case 1:
		return a, m.CardHeight - in
	case 2:
		return in, a
	default:
		return m.CardWidth - in, a
	}
}

// sideLength is the length of side k (see sidePoint).
func sideLength(m cardmodel.Model, k int) float64 {
	if k >= 2 {
		return m.CardHeight
	}
	return m.CardWidth
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
			u, v := sidePoint(m, k, float64(i)/steps*sideLength(m, k), -paleRingMM)
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

// A card whose strip from slideIn0 to slideIn1 mm inside one side shows
// the table over at least slideDirty of it, while the strip inside the
// opposite side shows it over at most slideClean, lies partly over the
// table (its fit took a screen's texture or edge for its printed lines):
// slideOffTable slides it away from the table, in slideStep steps up to
// slideMax mm, to where both strips show at most slideClean table and,
// of those places in one run, the one that shows most of its printed
// lines, if that shows no fewer than slideLines less of them than the
// card where it was. (A hand the table's colour over one end looks like
// the table too: glass-heavy 2024 still_0093's card, under a hand, would
// slide 7 mm wrong, its lines shown 0.67 -> 0.40; fresh 2031 still_0101's,
// under a screen, slides 4 mm right, 0.40 -> 0.33. Over the bench,
// mistakes, fresh 2019, 2020, 2023 and 2025-2032, glass-heavy 2021, 2022
// and 2024 and the renders of seeds 1201 and 1202 only fresh 2031 read
// differently, by that card. The strips are sampled every slideEvery mm
// at two depths: every 3 mm at three read the same and cost about 0.3 ms
// a frame more. Until the thirty-ninth session the slide stopped at the
// first clean place, and a strip had to be half table: fresh 2086
// still_0162's card, 2.7 mm out over the table with its strip 0.5 table,
// stopped 1.5 mm along, where a third of its lines showed, against half
// 1 mm further, and did not move; fresh 2067 still_0129's, its strip 0.38
// table, was not slid. Over 38 development corpora the two changes read
// 13 more stacks wholly right and 6 fewer empty/occupied mistakes: the
// thirty-ninth session in vision/JOURNAL.md. Until the forty-second
// session the slide went 8 mm at most: fresh 2110 still_0029's card, its
// lower long side under a screen and fitted to the screen's edge, lay
// 12.8 mm out over the table and did not move, three cells misread. The
// outline's fit takes a rectangle down to 0.6 of the card's sides, so a
// card can be placed 28 mm off across its long sides; 14, 20 and 28 mm
// read fresh 2109-2118, the bench and the mistakes corpus the same, that
// card right and nothing else otherwise: 20.)
const (
	slideIn0, slideIn1     = 1.0, 4.0
	slideDirty, slideClean = 0.3, 0.1
	slideStep, slideMax    = 0.5, 20.0
	slideLines             = 0.1
	slideEvery             = 6.0
)

// slideOffTable returns p slid off the table (see above) and the share of
// its printed lines shown there, or p and shown, the share at p.
func (d *Detector) slideOffTable(cam Camera, p cardPose, shown float64) (cardPose, float64) {
	for axis := 0; axis < 2; axis++ { // 0: across the v sides, 1: the u sides
		lo := d.edgeTable(cam, p, 2*axis)
		if lo > slideClean && lo < slideDirty {
			continue
		}
		hi := d.edgeTable(cam, p, 2*axis+1)
		var dir float64
		switch {
		case lo >= slideDirty && hi <= slideClean:
			dir = 1
		case hi >= slideDirty && lo <= slideClean:
			dir = -1
		default:
			continue
		}
		// the clean places of the first run of them, the most lines shown
		best, bestLines, clean := p, -1.0, false
		for t := slideStep; t <= slideMax; t += slideStep {
			q := p.slid(axis == 0, dir*t)
			if d.edgeTable(cam, q, 2*axis) > slideClean || d.edgeTable(cam, q, 2*axis+1) > slideClean {
				if clean {
					break
				}
				continue
			}
			clean = true
			if there := d.linesShown(cam, q); there > bestLines {
				best, bestLines = q, there
			}
		}
		if bestLines >= shown-slideLines { // (-1 where no place was clean)
			p, shown = best, bestLines
		}
	}
	return p, shown
}

// edgeTable is the share of the points of the strip inside side k of
// pose p (see sidePoint), slideIn0 and
// slideIn1 mm in, every slideEvery mm along it, that show the table's
// colour (0 where none lies in the frame).
func (d *Detector) edgeTable(cam Camera, p cardPose, k int) float64 {
	m := d.opts.Model
	along := sideLength(m, k)
	n, on := 0, 0
	for a := 0.05 * along; a <= 0.95*along; a += slideEvery {
		for _, in := range [2]float64{slideIn0, slideIn1} {
			u, v := sidePoint(m, k, a, in)
			if table, ok := d.tableAt(cam, p.at(u, v, m.CardThickness)); ok {
				n++
				if table {
					on++
				}
			}
		}
	}
	if n == 0 {
		return 0
	}
	return float64(on) / float64(n)
}
