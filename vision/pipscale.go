package vision

import (
	"math"
)

// A stack's height from how far apart its top die's pips look.
//
// Under the camera a stack's top hardly slides as the stack grows, so its
// height shows only in how large the top face looks: about 3 % larger per
// die, a pixel on a 33 px face, which the nadir height CNNs read from
// patches sampled every 1.1-1.7 px and still get wrong about one time in
// twenty-five (the forty-sixth session: 27 of the 636 stacks on cards
// under the camera misread by height, most of all the misread heights).
// The pips measure it better. Each is a small blob of high contrast whose
// centre can be found to a tenth of a pixel; the pattern's spacing, in
// millimetres on the table, is fixed by the die (PipSpacing). Every pip
// centre is cast back along its ray from the camera onto one horizontal
// plane, which scales the distances between points of one height by
// (camera height − plane) / (camera height − that height), exactly,
// wherever they lie. So a similarity fitted from the pattern's layout to the centres
// gives the top's height in millimetres, and the stack's in dice, with no
// network, from the top face's own pixels.
//
// pipScaleHeight measures it for a top read with two or more pips (one
// pip has no spacing) and not clear glass (whose bottom face's pips show
// through it); readLearned takes its height instead of the networks' for
// the stacks on cards under the camera where the measurement is clean
// (pipScaleTrusted).

// PipSpacing is the distance from a die face's centre to its corner pips
// along each edge, as a share of the die's edge: the renderer's dice
// (vision/synth) place them at 0.27. Dice of another layout would need
// their own (measured once, like the card model), or the heights this
// gives are off by the same share.
const PipSpacing = 0.27

// pipScaleRef is the height of the plane the pip centres are cast onto, in
// dice above the card: the middle of the six levels.
const pipScaleRef = 3.5

// pipContrastFloor is the colour distance from the face's median under
// which a pixel counts nothing towards a pip's centre (0-441, BGR).
const pipContrastFloor = 20

// Where pipScaleHeight's measurement is trusted (pipScaleTrusted): the pip
// centres fit the layout within pipScaleResidual millimetres on average
// (on the plane they are cast onto), no pip's colour strays more than
// pipScaleSpread from the pips' mean, the height lies within
// pipScaleMargin of a whole number of dice, and that number is 1..MaxStack.
// readLearned takes it only where the height networks give that height
// at least pipScaleNetFloor. Set on the stacks under the camera of fresh
// 2109-2140 (1,200 with a top of 2-6 pips read not glass, started from
// the read height and pips): 1,100 trusted, every one at the true height,
// against 1,173 of the 1,200 read right by the networks (the forty-seventh
// session, vision/JOURNAL.md).
const (
	pipScaleResidual = 0.25
	pipScaleSpread   = 40
	pipScaleMargin   = 0.3
	pipScaleNetFloor = 0.01
)

// pipLayout is each face value's pips in units of the pip spacing, along
// the face's two edges.
var pipLayout = [6][][2]float64{
	{{0, 0}},
	{{-1, -1}, {1, 1}},
	{{-1, -1}, {0, 0}, {1, 1}},
	{{-1, -1}, {-1, 1}, {1, -1}, {1, 1}},
	{{-1, -1}, {-1, 1}, {0, 0}, {1, -1}, {1, 1}},
	{{-1, -1}, {-1, 0}, {-1, 1}, {1, -1}, {1, 0}, {1, 1}},
}

// pipFaceGrid is the side of the grid of points over the top face whose
// median colour stands for the face without its pips.
const pipFaceGrid = 13

// pipMeasure is what pipScaleHeight measures of a top face.
type pipMeasure struct {
	// height is the top's height in dice, a fraction.
	height float64
	// resid is how far, on average, the pip centres lie from the fitted
	// layout, in millimetres on the plane they are cast onto.
	resid float64
	// spread is how far the colour of a pip's pixels lies from their mean
	// over the pips, for the pip that strays most (0-441, BGR): a place
	// where a neighbour's die stands in for a hidden pip strays.
	spread float64
}

// pipScaleHeight measures the top face of the stack on cell (row, col) of
// a card at pose p, whose top was read as h dice high with pips pips
// (2..6), from where its pips' centres lie (see above). ok is false where
// the face or a pip falls outside the frame, or no pip shows at one of
// the layout's places.
func (d *Detector) pipScaleHeight(cam Camera, p cardPose, row, col, h, pips int) (pm pipMeasure, ok bool) {
	if pips < 2 || pips > 6 || h < 1 || h > MaxStack {
		return pm, false
	}
	m := d.opts.Model
	cu, cv := m.CellCenter(row, col)
	z0 := m.CardThickness + float64(h)*m.Die
	face, ok := d.faceMedianColour(cam, p, cu, cv, z0)
	if !ok {
		return pm, false
	}
	sp := PipSpacing * m.Die
	layout := pipLayout[pips-1]
	// The layouts of 2, 3 and 6 differ from themselves turned a quarter:
	// the die's turn is the one whose places show more contrast where the
	// pips are looked for first. Those of 4 and 5 turned are themselves.
	turns := 2
	if pips == 4 || pips == 5 {
		turns = 1
	}
	var spots [2][6]pipSpot
	turn, bestStart := -1, 0.0
	for t := 0; t < turns; t++ {
		start, found := 0.0, true
		for i, o := range layout {
			a, b := layoutPlace(o, t == 1)
			x, y, ok := cam.Project(p.at(cu+a*sp, cv+b*sp, z0))
			if !ok {
				return pm, false
			}
			spots[t][i] = d.pipCentre(x, y, face)
			if spots[t][i].weight <= 0 {
				found = false
				break
			}
			start += spots[t][i].start
		}
		if found && start > bestStart {
			turn, bestStart = t, start
		}
	}
	if turn < 0 {
		return pm, false
	}
	zRef := m.CardThickness + pipScaleRef*m.Die
	var pts [6][2]float64
	var mean [3]float64
	for i, spot := range spots[turn][:len(layout)] {
		wp, ok := cam.OnPlane(spot.x, spot.y, zRef)
		if !ok {
			return pm, false
		}
		u, v, ok := p.toCard(wp)
		if !ok {
			return pm, false
		}
		pts[i] = [2]float64{u, v}
		for k := range mean {
			mean[k] += spot.colour[k] / float64(len(layout))
		}
	}
	for _, spot := range spots[turn][:len(layout)] {
		pm.spread = max(pm.spread, math.Sqrt(sq(spot.colour[0]-mean[0])+sq(spot.colour[1]-mean[1])+sq(spot.colour[2]-mean[2])))
	}
	s, resid, ok := fitSpacing(layout, pts[:len(layout)], turn == 1)
	if !ok || s <= 0 {
		return pm, false
	}
	// On the plane zRef the layout's spacing sp at height z shows as
	// sp·(zc − zRef)/(zc − z).
	zc := cam.Center().Z
	z := zc - (zc-zRef)*sp/s
	pm.height, pm.resid = (z-m.CardThickness)/m.Die, resid
	return pm, true
}

func sq(x float64) float64 { return x * x }

// layoutPlace is a pip layout's place o (in pip spacings from the face's
// centre), turned a quarter if turned.
func layoutPlace(o [2]float64, turned bool) (float64, float64) {
	if turned {
		return -o[1], o[0]
	}
	return o[0], o[1]
}

// fitSpacing fits pts = c + s·R(θ)·layout (layout turned a quarter first
// if turned) by least squares and returns s — the pip spacing as pts show
// it — and the mean distance of pts from the fit.
func fitSpacing(layout [][2]float64, pts [][2]float64, turned bool) (s, resid float64, ok bool) {
	n := float64(len(layout))
	if len(layout) < 2 || len(pts) != len(layout) {
		return 0, 0, false
	}
	lay := func(i int) (float64, float64) { return layoutPlace(layout[i], turned) }
	var mx, my, qx, qy float64
	for i := range layout {
		a, b := lay(i)
		mx, my = mx+a, my+b
		qx, qy = qx+pts[i][0], qy+pts[i][1]
	}
	mx, my, qx, qy = mx/n, my/n, qx/n, qy/n
	var sa, sb, mm float64
	for i := range layout {
		a, b := lay(i)
		ax, ay := a-mx, b-my
		bx, by := pts[i][0]-qx, pts[i][1]-qy
		sa += ax*bx + ay*by
		sb += ax*by - ay*bx
		mm += ax*ax + ay*ay
	}
	if mm == 0 {
		return 0, 0, false
	}
	norm := math.Hypot(sa, sb)
	s = norm / mm
	c, sn := sa/norm, sb/norm
	for i := range layout {
		a, b := lay(i)
		ax, ay := a-mx, b-my
		px := qx + s*(c*ax-sn*ay)
		py := qy + s*(sn*ax+c*ay)
		resid += math.Hypot(px-pts[i][0], py-pts[i][1])
	}
	return s, resid / n, true
}

// faceMedianColour is the median B, G and R over a grid on the top face
// (0.84 of the die's edge) at height z of the cell centred at (cu, cv):
// the face's own colour, which its few pips do not move.
func (d *Detector) faceMedianColour(cam Camera, p cardPose, cu, cv, z float64) (bgr [3]float64, ok bool) {
	const n = pipFaceGrid * pipFaceGrid
	var bs, gs, rs [n]float64
	half := 0.42 * d.opts.Model.Die
	k := 0
	for i := 0; i < pipFaceGrid; i++ {
		for j := 0; j < pipFaceGrid; j++ {
			u := cu + (2*float64(i)/(pipFaceGrid-1)-1)*half
			v := cv + (2*float64(j)/(pipFaceGrid-1)-1)*half
			x, y, ok := cam.Project(p.at(u, v, z))
			if !ok {
				return bgr, false
			}
			o, ok := d.img.index(x, y)
			if !ok {
				return bgr, false
			}
			bs[k], gs[k], rs[k] = float64(d.img.bgr[o]), float64(d.img.bgr[o+1]), float64(d.img.bgr[o+2])
			k++
		}
	}
	return [3]float64{selectKth(bs[:], n/2), selectKth(gs[:], n/2), selectKth(rs[:], n/2)}, true
}

// pipSpot is a pip's centre as pipCentre finds it (image pixels), the
// weight of contrast it was found from, the weight where it was first
// looked for, and the mean colour (B, G, R) of its pixels by that weight.
type pipSpot struct {
	x, y, weight, start float64
	colour              [3]float64
}

// pipCentre finds the centre of the pip nearest image point (x, y): the
// mean of the pixels within a few pixels, each weighed by how far its
// colour lies from the face's beyond pipContrastFloor, moved there and
// taken again, four times. A weight of 0 means no pip there.
func (d *Detector) pipCentre(x, y float64, face [3]float64) pipSpot {
	f := &d.img
	rad := 4.5
	var spot pipSpot
	for it := 0; it < 4; it++ {
		var sx, sy, sw float64
		var col [3]float64
		x0, x1 := max(0, int(x-rad-1)), min(f.w-1, int(x+rad+1))
		y0, y1 := max(0, int(y-rad-1)), min(f.h-1, int(y+rad+1))
		for iy := y0; iy <= y1; iy++ {
			for ix := x0; ix <= x1; ix++ {
				dx, dy := float64(ix)-x, float64(iy)-y
				if dx*dx+dy*dy > rad*rad {
					continue
				}
				o := (iy*f.w + ix) * 3
				b, g, r := float64(f.bgr[o]), float64(f.bgr[o+1]), float64(f.bgr[o+2])
				c := math.Sqrt(sq(b-face[0])+sq(g-face[1])+sq(r-face[2])) - pipContrastFloor
				if c <= 0 {
					continue
				}
				sx += c * float64(ix)
				sy += c * float64(iy)
				sw += c
				col[0], col[1], col[2] = col[0]+c*b, col[1]+c*g, col[2]+c*r
			}
		}
		if it == 0 {
			spot.start = sw
		}
		if sw <= 0 {
			spot.weight = 0
			return spot
		}
		x, y = sx/sw, sy/sw
		spot.x, spot.y, spot.weight = x, y, sw
		spot.colour = [3]float64{col[0] / sw, col[1] / sw, col[2] / sw}
		rad = 3.5
	}
	return spot
}

// pipScaleTrusted says whether a pipScaleHeight measurement is clean enough
// to take (see its constants), and the height it gives, in whole dice.
func pipScaleTrusted(pm pipMeasure) (int, bool) {
	k := math.Round(pm.height)
	if pm.resid > pipScaleResidual || pm.spread > pipScaleSpread || math.Abs(pm.height-k) > pipScaleMargin || k < 1 || k > MaxStack {
		return 0, false
	}
	return int(k), true
}
