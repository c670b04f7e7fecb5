package vision

import (
	"math"
	"sort"

	"github.com/blueprints-companion/blueprints/vision/internal/pix"
)

// background is what the card and the table around it look like,
// measured per card: their chromaticity (r, g shares of R+G+B, which
// shadows keep), so that anything else on a cell reads as a die.
type background struct {
	card, table [2]float64
	cardTol     float64
	tableTol    float64
	lineLum     float64    // lightness above which a near-card pixel is line work
	tableSum    float64    // the table's median R+G+B: how much light there is
	gain        [3]float64 // B, G, R gains that make the card's white line work grey
	white       float64    // the line work's level (0..255) after the gains
	scale       [3]float64 // gain / white, which topFeatures' colours are multiplied by (setGains)
}

// balanced is the blue, green and red of the pixel at index i of f's
// BGR data, times the gains that make the card's line work grey.
func (bg *background) balanced(f *frame, i int) (b, g, r float64) {
	return float64(f.bgr[i]) * bg.gain[0], float64(f.bgr[i+1]) * bg.gain[1], float64(f.bgr[i+2]) * bg.gain[2]
}

// setGains sets the gains, the line work's level and so the scale.
func (bg *background) setGains(gain [3]float64, white float64) {
	bg.gain, bg.white = gain, white
	for k := range bg.scale {
		bg.scale[k] = gain[k] / white
	}
}

// chroma gives a pixel's (r, g) shares and its R+G+B.
func chroma(b, g, r uint8) ([2]float64, int) {
	s := int(b) + int(g) + int(r)
	if s == 0 {
		return [2]float64{1.0 / 3, 1.0 / 3}, 0
	}
	return [2]float64{float64(r) / float64(s), float64(g) / float64(s)}, s
}

// dist2 is the distance between two chroma points. (math.Hypot guards
// against overflow these values cannot reach, at several times the cost;
// the reads of the bench, mistakes and fresh 2049 stills are the same.)
func dist2(a, b [2]float64) float64 {
	dx, dy := a[0]-b[0], a[1]-b[1]
	return math.Sqrt(dx*dx + dy*dy)
}

// measureBackground samples the card's right half (its drawing side, away
// from the dice) and a ring of table around the card (8 to 20 mm outside
// its edge), and keeps their median chromaticity and spread.
func (d *Detector) measureBackground(cam Camera, p cardPose) background {
	m := d.opts.Model
	sample := func(u, v, z float64) ([2]float64, int, bool) {
		x, y, ok := cam.Project(p.at(u, v, z))
		if !ok {
			return [2]float64{}, 0, false
		}
		i, ok := d.img.index(x, y)
		if !ok {
			return [2]float64{}, 0, false
		}
		c, s := chroma(d.img.bgr[i], d.img.bgr[i+1], d.img.bgr[i+2])
		return c, s, true
	}
	var cr, cg, sums []float64
	for u := m.CardWidth/2 + 6; u < m.CardWidth-4; u += 3 {
		for v := 4.0; v < m.CardHeight-4; v += 3 {
			if c, s, ok := sample(u, v, m.CardThickness); ok && s > 30 {
				cr, cg, sums = append(cr, c[0]), append(cg, c[1]), append(sums, float64(s))
			}
		}
	}
	var bg background
	bg.card = [2]float64{median(cr), median(cg)}
	var dc []float64
	for i := range cr {
		dc = append(dc, dist2([2]float64{cr[i], cg[i]}, bg.card))
	}
	bg.cardTol = max(0.03, 2.5*median(dc))
	bg.lineLum = 1.25 * median(sums)
	var tr, tg, ts []float64
	for _, off := range []float64{8, 14, 20} {
		add := func(u, v float64) {
			if c, s, ok := sample(u, v, 0); ok && s > 20 {
				tr, tg, ts = append(tr, c[0]), append(tg, c[1]), append(ts, float64(s))
			}
		}
		for u := -off; u <= m.CardWidth+off; u += 4 {
			add(u, -off)
			add(u, m.CardHeight+off)
		}
		for v := -off; v <= m.CardHeight+off; v += 4 {
			add(-off, v)
			add(m.CardWidth+off, v)
		}
	}
	bg.setGains(d.whiteGains(cam, p))
	bg.table = [2]float64{median(tr), median(tg)}
	bg.tableSum = median(ts)
	var dt []float64
	for i := range tr {
		dt = append(dt, dist2([2]float64{tr[i], tg[i]}, bg.table))
	}
	bg.tableTol = max(0.025, 2.5*median(dt))
	return bg
}

// whiteGains measures the colour of the light on the card from its white
// line work (the grid lines, a known white): the brightest third of the
// samples on the lines gives the gains that turn it grey, and its level.
func (d *Detector) whiteGains(cam Camera, p cardPose) ([3]float64, float64) {
	m := d.opts.Model
	type px struct{ b, g, r float64 }
	var on []px
	for k := 0; k <= m.Rows; k++ {
		v := m.GridOrigin[1] + float64(k)*m.Cell
		for u := m.GridOrigin[0]; u <= m.GridOrigin[0]+float64(m.Cols)*m.Cell; u += 0.5 {
			if x, y, ok := cam.Project(p.at(u, v, m.CardThickness)); ok {
				if i, ok := d.img.index(x, y); ok {
					on = append(on, px{float64(d.img.bgr[i]), float64(d.img.bgr[i+1]), float64(d.img.bgr[i+2])})
				}
			}
		}
	}
	if len(on) < 10 {
		return [3]float64{1, 1, 1}, 200
	}
	sort.Slice(on, func(a, b int) bool { return on[a].b+on[a].g+on[a].r > on[b].b+on[b].g+on[b].r })
	on = on[:len(on)/3]
	var sb, sg, sr float64
	for _, q := range on {
		sb, sg, sr = sb+q.b, sg+q.g, sr+q.r
	}
	mean := (sb + sg + sr) / 3
	if sb < 1 || sg < 1 || sr < 1 {
		return [3]float64{1, 1, 1}, 200
	}
	return [3]float64{mean / sb, mean / sg, mean / sr}, max(mean/float64(len(on)), 20)
}

// dieTest is how the cells' level shares tell a pixel that shows a die:
// neither the card (its colour, in light or shadow, or its bright line
// work) nor the table, or black whatever the chroma noise says; of the
// table's colour only if far darker than the table in shadow (black
// plastic) or far brighter (a glare on glass). See pix.DieTest.
func (bg *background) dieTest() pix.DieTest {
	return pix.DieTest{Card: bg.card, Table: bg.table, CardTol: bg.cardTol, TableTol: bg.tableTol,
		Dark: 0.4 * bg.tableSum, Bright: 1.7 * bg.tableSum}
}

// levelShare is the share of die-like pixels in the part of the image that
// a die at level k (1 = on the card) of cell (row, col) would add to a
// stack k-1 high: where its top face is seen beyond the top face of level
// k-1 (for k = 1, beyond the die's footprint on the card). A stack's own
// top face stays inside that part only up to its real height. The second
// value is how many points were sampled there (few when the levels barely
// move in the image, right under the camera). The points are kept in
// d.shareSamples[row][col][k], for hiddenShare.
func (d *Detector) levelShare(cam Camera, p cardPose, bg *background, row, col, k int) (float64, int) {
	m := d.opts.Model
	samples := d.shareSamples[row][col][k][:0]
	defer func() { d.shareSamples[row][col][k] = samples }()
	cu, cv := m.CellCenter(row, col)
	half := m.Die / 2
	face := func(level int) ([4][2]float64, bool) {
		z := m.CardThickness + float64(level)*m.Die
		var q [4][2]float64
		for i, s := range [4][2]float64{{-1, -1}, {1, -1}, {1, 1}, {-1, 1}} {
			x, y, ok := cam.Project(p.at(cu+s[0]*half, cv+s[1]*half, z))
			if !ok {
				return q, false
			}
			q[i] = [2]float64{x, y}
		}
		return q, true
	}
	prevQ, ok1 := face(k - 1)
	_, ok2 := face(k)
	if !ok1 || !ok2 {
		return 0, 0
	}
	prev := newConvexQuad(prevQ)
	z := m.CardThickness + float64(k)*m.Die
	// every point listed, then each projected and tested by pix (8 at a
	// time where there is a kernel)
	lp := &d.levelPoints
	const steps = 6
	q := 0
	for i := -steps; i <= steps; i++ {
		for j := -steps; j <= steps; j++ {
			lp.u[q] = cu + float64(i)/steps*0.45*m.Die
			lp.v[q] = cv + float64(j)/steps*0.45*m.Die
			q++
		}
	}
	lp.s.Frame(d.img.bgr, d.img.w, d.img.h, [3]float64{})
	lp.s.Camera(cam.R, cam.T, cam.Fx, cam.Fy, cam.Cx, cam.Cy)
	lp.s.Plane(p.origin.X, p.origin.Y, p.u.X, p.u.Y, p.v.X, p.v.Y, z, cam.R)
	dt := bg.dieTest()
	lp.s.DieLike(&dt, lp.u[:], lp.v[:], lp.x[:], lp.y[:], lp.flags[:])
	in := 0
	for q := range lp.flags {
		x, y := lp.x[q], lp.y[q]
		if lp.flags[q]&1 == 0 || prev.inside(x, y, 1.5) {
			continue // behind the camera, or inside the level below
		}
		die := lp.flags[q]&2 != 0
		if die {
			in++
		}
		samples = append(samples, shareSample{x, y, die})
	}
	if len(samples) == 0 {
		return 0, 0
	}
	return float64(in) / float64(len(samples)), len(samples)
}

// levelPoints are the points levelShare samples (13 x 13), where they are
// seen and how pix.DieTest judged them.
type levelPoints struct {
	s          pix.Sampler
	u, v, x, y [169]float64
	flags      [169]uint8
}

// shareSample is one point levelShare sampled: where it lies in the image
// and whether it shows a die.
type shareSample struct {
	x, y float64
	die  bool
}

// hiddenShare is levelShare's share again, from its samples, leaving out
// the points inside the hidden outlines.
func hiddenShare(samples []shareSample, hidden [][]pt2) (float64, int) {
	in, n := 0, 0
	for _, s := range samples {
		if insideAny(hidden, s.x, s.y) {
			continue
		}
		n++
		if s.die {
			in++
		}
	}
	if n == 0 {
		return 0, 0
	}
	return float64(in) / float64(n), n
}

// convexQuad is a convex quad with its edges' unit normals, for fast
// inside tests.
type convexQuad struct {
	a  [4][2]float64 // edge start points
	n  [4][2]float64 // unit normals, pointing inwards
	ok bool
}

func newConvexQuad(q [4][2]float64) convexQuad {
	var c convexQuad
	// orientation from the signed area
	area := 0.0
	for i := 0; i < 4; i++ {
		j := (i + 1) % 4
		area += q[i][0]*q[j][1] - q[j][0]*q[i][1]
	}
	sign := 1.0
	if area < 0 {
		sign = -1
	}
	for i := 0; i < 4; i++ {
		a, b := q[i], q[(i+1)%4]
		ex, ey := b[0]-a[0], b[1]-a[1]
		l := math.Sqrt(ex*ex + ey*ey)
		if l == 0 {
			return c
		}
		c.a[i] = a
		c.n[i] = [2]float64{-ey / l * sign, ex / l * sign}
	}
	c.ok = true
	return c
}

// inside reports whether (x, y) lies inside, at least margin pixels from
// every edge.
func (c *convexQuad) inside(x, y, margin float64) bool {
	if !c.ok {
		return false
	}
	for i := 0; i < 4; i++ {
		if (x-c.a[i][0])*c.n[i][0]+(y-c.a[i][1])*c.n[i][1] < margin {
			return false
		}
	}
	return true
}

// insideQuad reports whether (x, y) lies inside the convex quad q, at least
// margin pixels from its edges.
func insideQuad(q [4][2]float64, x, y, margin float64) bool {
	c := newConvexQuad(q)
	return c.inside(x, y, margin)
}

// shareRunHeight is the height the level shares sh (index 1..MaxStack)
// say: the h whose run of levels 1..h has the largest sum of share - 1/2,
// 0 where no run sums above 0.
func shareRunHeight(sh *[MaxStack + 2]float64) int {
	best, bestH, acc := 0.0, 0, 0.0
	for h := 1; h <= MaxStack; h++ {
		acc += sh[h] - 0.5
		if acc > best {
			best, bestH = acc, h
		}
	}
	return bestH
}

// cellShares computes every cell's level shares on a card posed p, and
// the height each share run says (see readCells).
func (d *Detector) cellShares(cam Camera, p cardPose, bg *background) (shares [3][2][MaxStack + 2]float64, heights [3][2]int) {
	m := d.opts.Model
	// read computes the level shares of a cell; where the hidden outlines
	// leave too little of a level to see, it keeps the share read before.
	read := func(r, col int, hidden [][]pt2) {
		sh := &shares[r][col]
		for k := 1; k <= MaxStack+1; k++ {
			var s float64
			var n int
			if hidden == nil {
				s, n = d.levelShare(cam, p, bg, r, col, k)
			} else {
				s, n = hiddenShare(d.shareSamples[r][col][k], hidden)
			}
			switch {
			case n >= 4:
				sh[k] = s
			case hidden == nil:
				sh[k] = sh[k-1] // too little moves to tell: like the level below
			}
		}
		heights[r][col] = shareRunHeight(sh)
	}
	for r := 0; r < m.Rows; r++ {
		for col := 0; col < m.Cols; col++ {
			read(r, col, nil)
		}
	}
	first := heights
	for r := 0; r < m.Rows; r++ {
		for col := 0; col < m.Cols; col++ {
			var hidden [][]pt2
			for r2 := 0; r2 < m.Rows; r2++ {
				for c2 := 0; c2 < m.Cols; c2++ {
					if (r2 != r || c2 != col) && first[r2][c2] > 0 {
						hidden = append(hidden, d.silhouette(cam, p, r2, c2, first[r2][c2]))
					}
				}
			}
			if hidden != nil {
				read(r, col, hidden)
			}
		}
	}
	return shares, heights
}

// readCells reads every cell of the cards. Level by level, the part of the
// image a die at that level would add to the stack is checked for die-like
// pixels; the stack is as high as the run of levels that shows a die best
// (the sum of share - 1/2 over levels 1..h is largest). A second pass reads
// each cell again without the pixels that the other cells' stacks, as first
// read, cover: a tall stack leaning over its neighbours in the image must
// not make them look occupied.
func (d *Detector) readCells(cards []Card, cam Camera) {
	m := d.opts.Model
	learned := d.top != nil && d.pips != nil
	if learned {
		d.growCardReads(len(cards))
	}
	for i := range cards {
		c := &cards[i]
		c.UnderCamera = d.cardUnderCamera(cam, c.pose)
		c.SlidePx = d.cardSlide(cam, c.pose)
		bg := d.measureBackground(cam, c.pose)
		shares, heights := d.cellShares(cam, c.pose, &bg)
		if d.keepFeatures {
			c.feats = d.cardFeatures(cam, c.pose, &bg, &shares)
			for k := 0; k < d.jitterCopies; k++ {
				jp := jitterPose(m, c.pose, d.jitterRng)
				jbg := d.measureBackground(cam, jp)
				jshares, _ := d.cellShares(cam, jp, &jbg)
				c.jittered = append(c.jittered, d.cardFeatures(cam, jp, &jbg, &jshares))
			}
		}
		if learned {
			cd := &d.cardReads[i]
			cd.bg, cd.shares = bg, shares
			for r := range cd.cells {
				for col := range cd.cells[r] {
					cd.cells[r][col].shareH = heights[r][col]
				}
			}
			continue
		}
		for r := 0; r < m.Rows; r++ {
			for col := 0; col < m.Cols; col++ {
				h := heights[r][col]
				if h == 0 {
					continue
				}
				sh := shares[r][col]
				cell := &Cell{Height: h}
				cell.HeightConf = max(0, min(1, sh[h]-sh[h+1]))
				fs := d.topFace(cam, c.pose, &bg, r, col, h)
				cell.Material = material(fs)
				var pipConf float64
				cell.Pips, pipConf = d.countPips(cam, c.pose, r, col, h)
				if cell.Pips > 0 {
					cell.Top = string([]byte{cell.Material, byte('0' + cell.Pips)})
				}
				cell.Confidence = min(cell.HeightConf, pipConf)
				c.Cells[r][col] = cell
			}
		}
	}
	if learned {
		d.readLearned(cards, cam)
	}
}

// pt2 is an image point.
type pt2 = [2]float64

// silhouette is the outline in the image of a stack h dice high on cell
// (row, col): the convex hull of its box's corners.
func (d *Detector) silhouette(cam Camera, p cardPose, row, col, h int) []pt2 {
	m := d.opts.Model
	cu, cv := m.CellCenter(row, col)
	half := m.Die / 2
	var pts []pt2
	for _, z := range []float64{m.CardThickness, m.CardThickness + float64(h)*m.Die} {
		for _, s := range [4][2]float64{{-1, -1}, {1, -1}, {1, 1}, {-1, 1}} {
			if x, y, ok := cam.Project(p.at(cu+s[0]*half, cv+s[1]*half, z)); ok {
				pts = append(pts, pt2{x, y})
			}
		}
	}
	return convexHull(pts)
}

// convexHull returns the hull of pts, counter-clockwise (monotone chain).
func convexHull(pts []pt2) []pt2 {
	if len(pts) < 3 {
		return pts
	}
	ps := append([]pt2(nil), pts...)
	sort.Slice(ps, func(i, j int) bool {
		if ps[i][0] != ps[j][0] {
			return ps[i][0] < ps[j][0]
		}
		return ps[i][1] < ps[j][1]
	})
	cross := func(o, a, b pt2) float64 { return (a[0]-o[0])*(b[1]-o[1]) - (a[1]-o[1])*(b[0]-o[0]) }
	var hull []pt2
	for _, p := range ps {
		for len(hull) >= 2 && cross(hull[len(hull)-2], hull[len(hull)-1], p) <= 0 {
			hull = hull[:len(hull)-1]
		}
		hull = append(hull, p)
	}
	lower := len(hull) + 1
	for i := len(ps) - 2; i >= 0; i-- {
		p := ps[i]
		for len(hull) >= lower && cross(hull[len(hull)-2], hull[len(hull)-1], p) <= 0 {
			hull = hull[:len(hull)-1]
		}
		hull = append(hull, p)
	}
	return hull[:len(hull)-1]
}

// insideAny reports whether (x, y) lies inside any of the convex polygons.
func insideAny(polys [][]pt2, x, y float64) bool {
	for _, poly := range polys {
		inside := len(poly) >= 3
		for i := 0; i < len(poly) && inside; i++ {
			a, b := poly[i], poly[(i+1)%len(poly)]
			if (b[0]-a[0])*(y-a[1])-(b[1]-a[1])*(x-a[0]) < 0 {
				inside = false
			}
		}
		if inside {
			return true
		}
	}
	return false
}

// MaxStack is the tallest stack the detector considers.
const MaxStack = 6
