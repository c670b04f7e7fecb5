package vision

import (
	"image"
	"image/color"
	"math"
	"sort"

	"gocv.io/x/gocv"
)

// The line-work card finder: the last resort for a seat still without a
// card after every mask. A card a lamp has washed white or pink has no
// colour left to find it by, and a card half behind a screen leaves an
// outline too short for a card, but its printed white lines (the frame
// inside the edge, the grid) still show as thin ridges. lineCards finds
// straight ridges (Hough segments of the whiteness's top-hat, off the
// cards already found and not over bare table), supposes each lies on one
// side of the printed frame, either way round, slides the card along that
// side and scores every pose by the share of the model's line probes
// (refine.go) that land on a ridge, the smaller of the two ways (a card
// shows lines both ways, a striped table one). The best poses of each
// seat still without a card are fitted to the printed lines (refinePose)
// and go to placeCard as a card fitted by its sides: its grid must show
// (looseGrid; looseGridLow for a pose of lineSureScore) and half its
// printed lines lie on a ridge (sidesMinLines), or, as findCards keeps a
// pale card (keptByGrid), paleLines of them with its grid at least
// looseGrid and looseGridRatio times as clear as the other way up and
// none of it over the table (fresh 2167 still_0067: a card a lamp
// washed white, a screen along its near edge, placed within a pixel,
// grid 47 against 2.7, 25 % of its lines, 0.6 % table). A
// pose lying a fifth or more on a card already found that stands is not
// tried; a weaker card there is replaced if the new one is clearly better
// (placeCard).
//
// It costs a few milliseconds in every frame where a seat has no card, so
// --seats should list only the seats in play.

// Line-work search parameters: ridges are whiter than the image around
// them by lineRidge (HSV value minus saturation, top-hat over
// lineKernel px); segments are at least lineMinSeg mm long, the longest
// lineMaxSegs of them are tried, each slid along a frame side in
// lineSlideStep mm steps; a pose needs lineMinScore of the probes on a
// ridge to be placed; lineTries poses per seat at most are placed, at least
// lineApart mm apart.
const (
	lineRidge     = 10.0
	lineKernel    = 5
	lineMinSeg    = 15.0
	lineMaxSegs   = 60
	lineSlideStep = 1.0
	lineMinScore  = 0.3
	lineTries     = 3
	lineApart     = 10.0
	// lineMaxOverlap is the share of a pose's area that may lie on cards
	// already found: cards do not lie on each other.
	lineMaxOverlap = 0.2
	// lineSureScore: a pose scoring this much (half the probes both ways
	// on a ridge) shows a card by its lines; its grid need only show
	// looseGridLow, not looseGrid. (Fresh 2027 still_0087's washed card,
	// 0.62, grid 22 against 7.6 the other way up; on the bench, mistakes,
	// fresh 2023-2028 and the height training renders of seeds 1201 and
	// 1202 no other card is placed so.)
	lineSureScore = 0.5
)

// linePose is a scored candidate pose.
type linePose struct {
	p     cardPose
	score float64
}

// lineCards returns cards with the cards the line work shows appended, for
// seats that have none yet (see above).
func (d *Detector) lineCards(cam Camera, cards []Card) []Card {
	if d.allSeated(cards) || len(d.opts.SeatUp) > 64 {
		return cards // (seats are kept as bits: more than 64, no search)
	}
	d.lineSearches++
	// Every seat without a standing card is searched, seats not in play
	// too: orient may turn a candidate facing one round into a seat in
	// play (fresh 2009 still_0082's washed card is found so).
	seated := d.seatedBits(cards)
	// Only the cards that stand are taken off the ridge map and kept
	// clear of: a weak card (a washed card fitted a quarter turn off by a
	// mask) may lie on the very lines of the card to find, which
	// placeCard then puts in its place.
	standing := standingCards(cards, make([]Card, 0, len(cards)))
	ridge := d.ridgeMap(standing)
	segs := d.ridgeSegments(cam, *ridge)
	if len(segs) == 0 {
		return cards
	}
	rb, err := ridge.DataPtrUint8()
	if err != nil {
		return cards
	}
	best := make([][]linePose, len(d.opts.SeatUp))
	m := d.opts.Model
	in := m.FrameInset
	W, H := m.CardWidth, m.CardHeight
	// the lines a segment may lie on: the printed frame's sides, or
	// without a frame the grid's outer lines; each runs from lo to hi
	type side struct {
		alongU bool
		at     float64 // v of a side along u, u of a side along v
		lo, hi float64 // its extent along its line
	}
	sides := []side{{true, in, in, W - in}, {true, H - in, in, W - in}, {false, in, in, H - in}, {false, W - in, in, H - in}}
	if in <= 0 {
		g0u, g0v, cell := m.GridOrigin[0], m.GridOrigin[1], m.Cell
		gu, gv := g0u+float64(m.Cols)*cell, g0v+float64(m.Rows)*cell
		sides = []side{{true, g0v, g0u, gu}, {true, gv, g0u, gu}, {false, g0u, g0v, gv}, {false, gu, g0v, gv}}
	}
	for _, sg := range segs {
		a, b := sg[0], sg[1]
		e := Vec3{b.X - a.X, b.Y - a.Y, 0}
		L := math.Hypot(e.X, e.Y)
		e = e.Scale(1 / L)
		for _, sd := range sides {
			lo, hi := sd.lo, sd.hi
			if hi-lo < L-lineSlideStep {
				continue // longer than this side
			}
			for _, way := range []float64{1, -1} {
				var p cardPose
				start := a
				if way < 0 {
					start = b
				}
				dir := e.Scale(way)
				if sd.alongU {
					p.u = dir
					p.v = Vec3{dir.Y, -dir.X, 0}
				} else {
					p.v = dir
					p.u = Vec3{-dir.Y, dir.X, 0}
				}
				seat := seatOf(p, d.opts.SeatUp)
				if seated&(1<<seat) != 0 {
					continue
				}
				for s := lo; s <= max(lo, hi-L); s += lineSlideStep {
					// start lies at card (s, sd.at) or (sd.at, s)
					cu, cv := s, sd.at
					if !sd.alongU {
						cu, cv = sd.at, s
					}
					p.origin = start.Add(p.u.Scale(-cu)).Add(p.v.Scale(-cv))
					p.origin.Z = m.CardThickness
					sc := d.lineScore(cam, p, rb)
					best[seat] = keepBest(best[seat], linePose{p, sc}, m.CardWidth/2, m.CardHeight/2)
				}
			}
		}
	}
	// Place the candidates best first; a placed card seats its seat (orient
	// may turn a candidate round, into another seat).
	var tries []linePose
	for _, cands := range best {
		tries = append(tries, cands...)
	}
	sort.SliceStable(tries, func(i, j int) bool { return tries[i].score > tries[j].score })
	var more []Card
	poses := make([]cardPose, len(cards))
	for i, c := range cards {
		poses[i] = c.pose
	}
	for _, c := range tries {
		if c.score < lineMinScore {
			break
		}
		if seated&(1<<seatOf(c.p, d.opts.SeatUp)) != 0 {
			continue
		}
		// fitted to its printed lines first: the search's pose is a
		// segment's angle and a millimetre's slide off at best
		p, _ := d.refinePose(cam, c.p)
		centre := p.at(W/2, H/2, m.CardThickness)
		if nearIndex(more, centre, 0.8*H, m) >= 0 || d.onCards(p, standing, more) >= lineMaxOverlap {
			continue
		}
		minGrid := looseGrid
		if c.score >= lineSureScore {
			minGrid = looseGridLow
		}
		before := len(more)
		more = d.placeCard(cam, passLine, centre, p.u, Vec3{}, Vec3{}, false, true, minGrid, cards, more)
		if len(more) > before {
			if s := more[len(more)-1].Seat; s >= 0 && s < 64 {
				seated |= 1 << s
			}
		} else {
			// It may have replaced a weak card, which may stand now: the
			// later candidates keep clear of it too (training render 1201
			// still_0133: a weak card replaced by one that stands, then a
			// false card of another seat placed half over it).
			standing = standingCards(cards, standing[:0])
		}
	}
	for i := range more {
		more[i].byLines = true
	}
	// a weak card placeCard replaced by a line card (its pose changed)
	for i := range cards {
		if cards[i].pose != poses[i] {
			cards[i].byLines = true
		}
	}
	return append(cards, more...)
}

// standingCards appends to dst the cards of cards that stand.
func standingCards(cards, dst []Card) []Card {
	for _, c := range cards {
		if c.stands() {
			dst = append(dst, c)
		}
	}
	return dst
}

// keepBest keeps the lineTries best-scoring poses of list (best first), at
// least lineApart mm apart at the card's centre (cu, cv) or turned apart.
func keepBest(list []linePose, c linePose, cu, cv float64) []linePose {
	if len(list) == lineTries && c.score <= list[len(list)-1].score {
		return list
	}
	cc := c.p.at(cu, cv, 0)
	for i, o := range list {
		oc := o.p.at(cu, cv, 0)
		if math.Hypot(cc.X-oc.X, cc.Y-oc.Y) < lineApart && o.p.u.X*c.p.u.X+o.p.u.Y*c.p.u.Y > 0.99 {
			if c.score > o.score {
				list[i] = c
				sort.SliceStable(list, func(a, b int) bool { return list[a].score > list[b].score })
			}
			return list
		}
	}
	list = append(list, c)
	sort.SliceStable(list, func(a, b int) bool { return list[a].score > list[b].score })
	if len(list) > lineTries {
		list = list[:lineTries]
	}
	return list
}

// lineScore is the smaller of two shares at pose p: of the model's probes
// across vertical lines, and of those across horizontal ones, the share
// that land on the ridge map rb (the frame's size, 255 on a ridge). A card
// shows lines both ways; a striped table only one. A pose that can no
// longer reach lineMinScore one way scores 0 there and then: no such pose
// is ever placed, and keepBest never keeps one in place of a better, so
// the cards placed are the same as with its full score (most poses are
// far off, and stop a third of the way through).
func (d *Detector) lineScore(cam Camera, p cardPose, rb []uint8) float64 {
	axes := d.lineProbeAxes()
	g := poseHomography(cam, p, d.opts.Model.CardThickness)
	w, h := float64(d.img.w), float64(d.img.h)
	score := 1.0
	for _, probes := range axes {
		n := len(probes)
		need := lineMinScore * float64(n)
		on := 0
		for i, pr := range probes {
			if float64(on+n-i) < need {
				return 0
			}
			zc := g[2][0]*pr.u + g[2][1]*pr.v + g[2][2]
			if zc <= 1e-6 {
				continue
			}
			x := (g[0][0]*pr.u + g[0][1]*pr.v + g[0][2]) / zc
			y := (g[1][0]*pr.u + g[1][1]*pr.v + g[1][2]) / zc
			if !(x >= 0 && y >= 0 && x < w-0.5 && y < h-0.5) {
				continue
			}
			if rb[int(y+0.5)*d.img.w+int(x+0.5)] != 0 {
				on++
			}
		}
		score = min(score, float64(on)/float64(max(1, n)))
	}
	return score
}

// lineProbeAxes is refineProbes split by axis: the probes across vertical
// lines, then those across horizontal ones (made once; a model with no
// probes one way leaves that list empty, and the other is not made again).
func (d *Detector) lineProbeAxes() *[2][]lineProbe {
	if d.lw.axes[0] == nil && d.lw.axes[1] == nil {
		for _, pr := range d.refineProbes() {
			k := 0
			if pr.acrossV {
				k = 1
			}
			d.lw.axes[k] = append(d.lw.axes[k], pr)
		}
	}
	return &d.lw.axes
}

// poseHomography maps card millimetres (u, v, 1) of pose p, on the plane z
// high, to the image (x w, y w, w): cam.Project(p.at(u, v, z)) as one 3x3
// matrix.
func poseHomography(cam Camera, p cardPose, z float64) (g [3][3]float64) {
	k := [3][3]float64{{cam.Fx, 0, cam.Cx}, {0, cam.Fy, cam.Cy}, {0, 0, 1}}
	// camera coordinates of the pose's u axis, v axis and origin (on z)
	var a [3][3]float64
	for r := 0; r < 3; r++ {
		a[r][0] = cam.R[r][0]*p.u.X + cam.R[r][1]*p.u.Y
		a[r][1] = cam.R[r][0]*p.v.X + cam.R[r][1]*p.v.Y
		a[r][2] = cam.R[r][0]*p.origin.X + cam.R[r][1]*p.origin.Y + cam.R[r][2]*z + cam.T[r]
	}
	for r := 0; r < 3; r++ {
		for c := 0; c < 3; c++ {
			g[r][c] = k[r][0]*a[0][c] + k[r][1]*a[1][c] + k[r][2]*a[2][c]
		}
	}
	return g
}

// ridgeMap is the frame's thin white ridges (255), with the cards already
// found blanked out.
func (d *Detector) ridgeMap(cards []Card) *gocv.Mat {
	lw := &d.lw
	// whiteness: HSV value minus saturation, saturating at 0
	gocv.CvtColor(d.img.mat, &lw.hsv, gocv.ColorBGRToHSV)
	gocv.ExtractChannel(lw.hsv, &lw.sat, 1)
	gocv.ExtractChannel(lw.hsv, &lw.white, 2)
	gocv.Subtract(lw.white, lw.sat, &lw.white)
	gocv.MorphologyEx(lw.white, &lw.top, gocv.MorphTophat, lw.kernel)
	gocv.Threshold(lw.top, &lw.ridge, lineRidge-1, 255, gocv.ThresholdBinary)
	if len(cards) > 0 {
		pts := make([][]image.Point, 0, len(cards))
		for _, c := range cards {
			q := make([]image.Point, 4)
			for k, p := range c.Corners {
				q[k] = image.Pt(int(math.Round(p[0])), int(math.Round(p[1])))
			}
			pts = append(pts, q)
		}
		pv := gocv.NewPointsVectorFromPoints(pts)
		gocv.FillPoly(&lw.ridge, pv, color.RGBA{})
		pv.Close()
	}
	return &lw.ridge
}

// lineBufs are the line-work finder's Mats, kept from frame to frame.
type lineBufs struct {
	hsv, sat, white, top, ridge, halfRidge, lines, kernel gocv.Mat
	axes                                                  [2][]lineProbe // lineProbeAxes
}

func newLineBufs() lineBufs {
	return lineBufs{
		hsv: gocv.NewMat(), sat: gocv.NewMat(), white: gocv.NewMat(), top: gocv.NewMat(),
		ridge: gocv.NewMat(), halfRidge: gocv.NewMat(), lines: gocv.NewMat(),
		kernel: gocv.GetStructuringElement(gocv.MorphRect, image.Pt(lineKernel, lineKernel)),
	}
}

func (lw *lineBufs) close() {
	for _, m := range []*gocv.Mat{&lw.hsv, &lw.sat, &lw.white, &lw.top, &lw.ridge, &lw.halfRidge, &lw.lines, &lw.kernel} {
		m.Close()
	}
}

// ridgeSegments finds straight runs of the ridge map, at least lineMinSeg
// mm long on the card plane, and returns their ends there (the
// lineMaxSegs longest).
func (d *Detector) ridgeSegments(cam Camera, ridge gocv.Mat) [][2]Vec3 {
	z := d.opts.Model.CardThickness
	// pixels per millimetre at the frame's centre
	cx, cy := float64(d.img.w)/2, float64(d.img.h)/2
	p0, ok0 := cam.OnPlane(cx, cy, z)
	p1, ok1 := cam.OnPlane(cx+100, cy, z)
	if !ok0 || !ok1 {
		return nil
	}
	pxPerMM := 100 / math.Hypot(p1.X-p0.X, p1.Y-p0.Y)
	// Hough on the ridge map at half size (a ridge anywhere in a 2x2
	// block marks it): a quarter of the points to vote, and the segments
	// are only where the search starts.
	lw := &d.lw
	gocv.Resize(ridge, &lw.halfRidge, image.Pt(d.img.w/2, d.img.h/2), 0, 0, gocv.InterpolationArea)
	gocv.Threshold(lw.halfRidge, &lw.halfRidge, 31, 255, gocv.ThresholdBinary)
	minLen := float32(0.8 * lineMinSeg * pxPerMM / 2)
	gocv.HoughLinesPWithParams(lw.halfRidge, &lw.lines, 1, math.Pi/90, int(minLen/2), minLen, 2)
	type seg struct {
		a, b Vec3
		l    float64
	}
	var segs []seg
	lines := &lw.lines
	for i := 0; i < lines.Rows(); i++ {
		v := lines.GetVeciAt(i, 0)
		if len(v) < 4 {
			continue
		}
		// to full size: a half-size pixel's centre is 2i+0.5
		a, okA := cam.OnPlane(2*float64(v[0])+0.5, 2*float64(v[1])+0.5, z)
		b, okB := cam.OnPlane(2*float64(v[2])+0.5, 2*float64(v[3])+0.5, z)
		if !okA || !okB {
			continue
		}
		if l := math.Hypot(b.X-a.X, b.Y-a.Y); l >= lineMinSeg && !d.onTable(cam, a, b) {
			segs = append(segs, seg{a, b, l})
		}
	}
	sort.Slice(segs, func(i, j int) bool { return segs[i].l > segs[j].l })
	if len(segs) > lineMaxSegs {
		segs = segs[:lineMaxSegs]
	}
	out := make([][2]Vec3, len(segs))
	for i, s := range segs {
		out[i] = [2]Vec3{s.a, s.b}
	}
	return out
}

// onTable reports whether the segment a-b (card plane) runs over bare
// table: at most of five points along it, the table's colour lies on both
// sides of it, lineSideMM away (a printed line lies on a card).
func (d *Detector) onTable(cam Camera, a, b Vec3) bool {
	e := Vec3{b.X - a.X, b.Y - a.Y, 0}
	l := math.Hypot(e.X, e.Y)
	if l == 0 {
		return true
	}
	nx, ny := -e.Y/l*lineSideMM, e.X/l*lineSideMM
	both := 0
	for k := 0; k < 5; k++ {
		f := (float64(k) + 0.5) / 5
		p := Vec3{a.X + f*e.X, a.Y + f*e.Y, a.Z}
		x0, y0, ok0 := cam.Project(Vec3{p.X + nx, p.Y + ny, p.Z})
		x1, y1, ok1 := cam.Project(Vec3{p.X - nx, p.Y - ny, p.Z})
		if ok0 && ok1 && d.tableLike(x0, y0) && d.tableLike(x1, y1) {
			both++
		}
	}
	return both >= 3
}

// lineSideMM is how far either side of a ridge onTable looks (mm).
const lineSideMM = 1.5

// onCards is the share of pose p's area (a 7x5 grid of points) that lies
// on a card of either list.
func (d *Detector) onCards(p cardPose, lists ...[]Card) float64 {
	m := d.opts.Model
	const nu, nv = 7, 5
	on := 0
	for i := 0; i < nu; i++ {
		for j := 0; j < nv; j++ {
			w := p.at((float64(i)+0.5)/nu*m.CardWidth, (float64(j)+0.5)/nv*m.CardHeight, m.CardThickness)
		search:
			for _, l := range lists {
				for _, c := range l {
					if u, v, ok := c.pose.toCard(w); ok && u >= 0 && v >= 0 && u <= m.CardWidth && v <= m.CardHeight {
						on++
						break search
					}
				}
			}
		}
	}
	return float64(on) / (nu * nv)
}
