package vision

import (
	"math"
)

// Pose refinement: the outline and the grid's slides (orient) place most
// cards to a fraction of a pixel, but where a screen or a hand cuts the
// outline the rectangle fitted to it can come out turned by a degree or
// two, or slid along its length by more than the grid's slides reach, and
// then the far cells are read in the wrong places. refinePose fits the
// card to its own printed line work instead: the thin frame inside the
// edge (Model.FrameInset) and the grid's lines. Along each line it looks, across the
// line, for the nearest thin white ridge (whiter than the image a
// millimetre either side), and then solves for the slide and turn that
// move the lines onto the ridges, by least squares that give up on
// measurements far from the fit (something standing on the line, a hatched
// cell's strokes, a hidden part). The ridges of a card seen whole agree
// with where it already is, so such a card stays put.

// A probe: a point on a printed line (card mm) and the direction across
// the line it searches along (true: along v, the line is horizontal).
type lineProbe struct {
	u, v    float64
	acrossV bool
}

// refineProbes lists the probe points of the card model: every 2 mm along
// the frame's sides (if the card has a printed frame: Model.FrameInset)
// and the grid's lines, leaving out the frame's corners and the card
// number near the bottom-right corner.
func (d *Detector) refineProbes() []lineProbe {
	if d.probes != nil {
		return d.probes
	}
	m := d.opts.Model
	const step, endGap = 2.0, 4.0
	W, H := m.CardWidth, m.CardHeight
	var ps []lineProbe
	if in := m.FrameInset; in > 0 {
		for u := in + endGap; u <= W-in-endGap; u += step {
			ps = append(ps, lineProbe{u, in, true})
			if u < W-in-numberGap {
				ps = append(ps, lineProbe{u, H - in, true})
			}
		}
		for v := in + endGap; v <= H-in-endGap; v += step {
			ps = append(ps, lineProbe{in, v, false})
			if v < H-in-numberGap {
				ps = append(ps, lineProbe{W - in, v, false})
			}
		}
	}
	g0u, g0v, cell := m.GridOrigin[0], m.GridOrigin[1], m.Cell
	gw, gh := float64(m.Cols)*cell, float64(m.Rows)*cell
	for k := 0; k <= m.Rows; k++ {
		for u := g0u + 1; u <= g0u+gw-1; u += step {
			ps = append(ps, lineProbe{u, g0v + float64(k)*cell, true})
		}
	}
	for k := 0; k <= m.Cols; k++ {
		for v := g0v + 1; v <= g0v+gh-1; v += step {
			ps = append(ps, lineProbe{g0u + float64(k)*cell, v, false})
		}
	}
	for _, pr := range ps {
		if pr.acrossV {
			d.probeN[1]++
		} else {
			d.probeN[0]++
		}
	}
	d.probes = ps
	return ps
}

// numberGap is how far from the frame's bottom-right corner the card
// number reaches along either side (mm).
const numberGap = 14.0

// Probing: ridges are looked for up to voteReach mm either side of where a
// line should be at first, then up to fitReach, in probeStep steps: points
// whiter than the image probeSide mm either side (at least minProbeSidePx,
// up to maxProbeSide mm, on a card small in the frame) by at least
// minRidge (HSV value minus saturation). The vote reaches 20 mm: a card half behind a
// screen can be placed that far out over bare table (bench still_0082);
// 7 mm left it 44 px off, and tuning, checks and bench read the same or
// better with 20 (bench 1,052 stacks instead of 1,051, empty/occupied
// mistakes 3 instead of 6). (Tuning renders, seed 2001: voting in half
// millimetre steps read 2 stacks fewer right and left a card 44 px off;
// probes every 3 mm instead of 2 left the median corner 0.40 px off
// instead of 0.26.)
const (
	voteReach = 20.0
	fitReach  = 2.0
	probeStep = 0.25
	probeSide = 1.0
	minRidge  = 10.0
	// minProbeSidePx: the fewest pixels either side of a line a probe
	// compares it with. At 1 mm, a card at 1.44 px/mm showed 5.4 % of its
	// lines on a ridge (fresh 2181 still_0010, dropped); at 2 px it is
	// kept, and fresh 2141-2146 and 2167-2184 read as many stacks
	// (fifty-third session; see vision/JOURNAL.md).
	minProbeSidePx = 2.0
	maxProbeSide   = 4.0
)

// ridgesAt measures across the line at probe pr of pose p, up to reach mm
// either side, and appends to out where thin white ridges lie (mm from the
// line): the local maxima of the ridge strength, at least minRidge, none
// within the side distance (probeSide, or more on a small card) of a
// stronger one.
func (d *Detector) ridgesAt(cam Camera, p cardPose, pr lineProbe, z, reach, step float64, buf, str, out []float64) []float64 {
	sideMM := probeSide
	full := reach + sideMM
	x0, y0, x1, y1, ok := probeEnds(cam, p, pr, z, full)
	if !ok {
		return out
	}
	// On a card small in the frame probeSide is under minProbeSidePx,
	// inside the blurred line itself: look that many pixels out instead.
	// (In whole steps, so that probes come in few lengths; at most
	// maxProbeSide, so that they fit measureRidges' buffers.)
	if pxPerMM := math.Hypot(x1-x0, y1-y0) / (2 * full); pxPerMM > 0 && probeSide*pxPerMM < minProbeSidePx {
		sideMM = min(maxProbeSide, math.Round(minProbeSidePx/pxPerMM/step)*step)
		full = reach + sideMM
		if x0, y0, x1, y1, ok = probeEnds(cam, p, pr, z, full); !ok {
			return out
		}
	}
	n := int(math.Round(2*full/step)) + 1
	if n > len(buf) || n > len(str) {
		return out
	}
	buf, str = buf[:n], str[:n]
	fr := d.fractions(n)
	// 8 points at a time by pix's kernel; one by one (filling the tiles
	// of the whiteness plane they need) the rest and those it left +Inf
	k := d.img.tiles.Along(x0, y0, x1, y1, fr, buf)
	for i := range buf {
		if i >= k || math.IsInf(buf[i], 1) {
			f := fr[i]
			buf[i] = d.img.whitenessAt(x0+float64(f*(x1-x0)), y0+float64(f*(y1-y0)))
		}
		if math.IsNaN(buf[i]) {
			return out
		}
	}
	side := int(math.Round(sideMM / step))
	// (only str[side:n-side] is read below; the values are finite and
	// never -0, so the smaller by < is min's)
	for i := side; i < n-side; i++ {
		a, b := buf[i]-buf[i-side], buf[i]-buf[i+side]
		if b < a {
			a = b
		}
		str[i] = a
	}
	for i := side; i < n-side; i++ {
		if str[i] < minRidge {
			continue
		}
		peak := true
		for k := max(side, i-side); k <= min(n-side-1, i+side) && peak; k++ {
			peak = k == i || str[k] < str[i] || (str[k] == str[i] && k > i)
		}
		if !peak {
			continue
		}
		sub := 0.0 // the ridge's centre, to a fraction of a step
		if i > side && i < n-side-1 {
			a, b, c := str[i-1], str[i], str[i+1]
			if den := a - 2*b + c; den < 0 {
				sub = max(-0.5, min(0.5, 0.5*(a-c)/den))
			}
		}
		out = append(out, (float64(i)+sub)*step-full)
	}
	return out
}

// probeEnds projects the ends of probe pr's measuring segment, full mm
// either side of its line.
func probeEnds(cam Camera, p cardPose, pr lineProbe, z, full float64) (x0, y0, x1, y1 float64, ok bool) {
	du, dv := full, 0.0
	if pr.acrossV {
		du, dv = 0, full
	}
	x0, y0, ok0 := cam.Project(p.at(pr.u-du, pr.v-dv, z))
	x1, y1, ok1 := cam.Project(p.at(pr.u+du, pr.v+dv, z))
	return x0, y0, x1, y1, ok0 && ok1
}

// fractions is i/(n-1) for i < n, made once for each n (ridgesAt's
// probes come in two lengths).
func (d *Detector) fractions(n int) []float64 {
	for _, f := range d.fracs {
		if len(f) == n {
			return f
		}
	}
	f := make([]float64, n)
	for i := range f {
		f[i] = float64(i) / float64(n-1)
	}
	d.fracs = append(d.fracs, f)
	return f
}

// whitenessAt is whiteness bilinear between pixels; NaN outside the frame.
func (f *frame) whitenessAt(x, y float64) float64 {
	if !(x >= 0 && y >= 0 && x <= float64(f.w-1) && y <= float64(f.h-1)) {
		return math.NaN()
	}
	x0, y0 := int(x), int(y)
	x1, y1 := min(x0+1, f.w-1), min(y0+1, f.h-1)
	fx, fy := x-float64(x0), y-float64(y0)
	var w00, w10, w01, w11 int
	if t0, t1, k0, k1 := y0*f.tiles.PerRow, y1*f.tiles.PerRow, x0/whiteTile, x1/whiteTile; t1+k1 < len(f.tiles.Done) &&
		f.tiles.Done[t0+k0] && f.tiles.Done[t0+k1] && f.tiles.Done[t1+k0] && f.tiles.Done[t1+k1] {
		r0, r1 := f.tiles.Plane[y0*f.w:y0*f.w+f.w], f.tiles.Plane[y1*f.w:y1*f.w+f.w]
		w00, w10, w01, w11 = int(r0[x0]), int(r0[x1]), int(r1[x0]), int(r1[x1])
	} else {
		w00, w10, w01, w11 = f.white(x0, y0), f.white(x1, y0), f.white(x0, y1), f.white(x1, y1)
	}
	// (every product converted on its own: no fused multiply-add, as pix's
	// kernels do them, whatever GOAMD64 lets the compiler use)
	return float64((1-fy)*(float64((1-fx)*float64(w00))+float64(fx*float64(w10)))) +
		float64(fy*(float64((1-fx)*float64(w01))+float64(fx*float64(w11))))
}

// A probe's ridges: where across its line they lie (a slice of
// Detector.ridgeT).
type probeRidges struct {
	pr     lineProbe
	lo, hi int
}

// refinePose fits p to the card's printed lines (see above) and returns
// the refined pose, or p where the lines do not support a change, and the
// share of the model's probes that find their line on a ridge there. Every
// probe lists the ridges up to fitReach across its line. Where fewer than
// half the lines across either axis lie on one, the probes look again up
// to voteReach, and the slide along u and along v that puts the most
// probes on a ridge is chosen (a card slid further than the grid's slides
// reach, where a screen cut its outline short). From there slide and turn
// are fitted to the ridge nearest each line, and measured again, until a
// fit hardly moves the card.
func (d *Detector) refinePose(cam Camera, p cardPose) (_ cardPose, shown float64) {
	m := d.opts.Model
	z := m.CardThickness
	probes := d.refineProbes()
	cu, cv := m.CardWidth/2, m.CardHeight/2
	d.measureRidges(cam, p, probes, z, fitReach, probeStep)
	on := d.countOnRidges()
	before := on[0] + on[1]
	q := p
	voted := false
	if m.FrameInset > 0 && (2*on[0] < d.probeN[0] || 2*on[1] < d.probeN[1]) {
		voted = true
		// Fewer than half the lines across one axis lie on a ridge:
		// look further (voteReach) for where they do. Only on a card
		// with a printed frame: the grid's lines alone repeat every
		// cell, and a vote over them picks a wrong period (tuning
		// renders read with a model that leaves their frame out: 825
		// stacks with the vote, 835 without, 831 with no fit at all).
		d.measureRidges(cam, p, probes, z, voteReach, probeStep)
		a0, b0, an, bn := d.voteSlides()
		if an == a0 && bn == b0 {
			a, b, th, ok := d.fitSlideTurn(a0, b0, cu, cv)
			if !ok {
				return p, d.share(before)
			}
			q = p.moved(a, b, th, cu, cv)
		} else {
			// The vote's peak lies beyond fitReach: fit from it and
			// from the best slide within fitReach, and keep the
			// nearer where it shows nearMinShown of the lines, unless
			// the far one puts more than nearSlack of them more on
			// ridges.
			af, bf, thf, okFar := d.fitSlideTurn(a0, b0, cu, cv)
			ah, bh, thh, okNear := d.fitSlideTurn(an, bn, cu, cv)
			var far, near cardPose
			var onFar, onNear int
			if okFar {
				far, onFar = d.settle(cam, p.moved(af, bf, thf, cu, cv), probes, z, cu, cv)
			}
			if okNear {
				near, onNear = d.settle(cam, p.moved(ah, bh, thh, cu, cv), probes, z, cu, cv)
			}
			switch {
			case okNear && float64(onNear) >= nearMinShown*float64(d.probeN[0]+d.probeN[1]) &&
				(!okFar || float64(onNear) >= float64(onFar)-nearSlack*float64(d.probeN[0]+d.probeN[1])):
				q = near
			case okNear && okFar && d.gridFades(cam, near, far):
				q = near
			case okFar:
				q = far
			default:
				return p, d.share(before)
			}
		}
		d.measureRidges(cam, q, probes, z, fitReach, probeStep)
	}
	q = d.fitIterations(cam, q, probes, z, cu, cv)
	on = d.countOnRidges()
	shownN := on[0] + on[1]
	if voted {
		// The vote was taken at the outline's pose, turned a little
		// from the card's: its peak can lie a millimetre or two short
		// of the slide most lines agree on, and the fit then settles
		// there (bench still_0181: a card half behind a screen left
		// 8 px off). Vote again from the fitted pose, and keep what
		// puts at least minRidgeGain more lines on ridges, as any fit
		// must (keeping every gain moved a far, small card of fresh
		// 2053, still_0222, 3.5 px off for two lines more), and at
		// least revoteGain of them (fresh 2120 still_0017: the near
		// slide, kept by nearSlack, was voted 9 px back off for 5 of
		// 299 lines more).
		gain := max(minRidgeGain, int(math.Ceil(revoteGain*float64(d.probeN[0]+d.probeN[1]))))
		for range revotes {
			d.measureRidges(cam, q, probes, z, voteReach, probeStep)
			a0, b0, _, _ := d.voteSlides()
			if math.Abs(a0) < revoteMin && math.Abs(b0) < revoteMin {
				break
			}
			a, b, th, ok := d.fitSlideTurn(a0, b0, cu, cv)
			if !ok {
				break
			}
			r, shownR := d.settle(cam, q.moved(a, b, th, cu, cv), probes, z, cu, cv)
			if shownR < shownN+gain || d.gridFades(cam, q, r) {
				break
			}
			q, shownN = r, shownR
		}
	}
	// Keep the refined pose only where more of the printed lines lie
	// on ridges there than where the card was.
	if shownN < before+minRidgeGain {
		return p, d.share(before)
	}
	// The vote may pick a period of the grid's lines over bare table (a
	// card half behind a screen, put on the right side by its outline
	// and the table, then voted back out over the table): the table
	// cannot lie under a card.
	if voted {
		if d.overTable(cam, p, q) {
			return p, d.share(before)
		}
	}
	return q, d.share(shownN)
}

// settle measures the ridges at q and fits slide and turn to them until
// the fit hardly moves; it returns the pose and how many probes find
// their line on a ridge there.
func (d *Detector) settle(cam Camera, q cardPose, probes []lineProbe, z, cu, cv float64) (cardPose, int) {
	d.measureRidges(cam, q, probes, z, fitReach, probeStep)
	q = d.fitIterations(cam, q, probes, z, cu, cv)
	on := d.countOnRidges()
	return q, on[0] + on[1]
}

// nearSlack: where the vote's best slide lies beyond fitReach of where the
// outline put the card, the best slide within fitReach is fitted too and
// kept where it shows at least nearMinShown of the probes on a ridge,
// unless the far one, fitted, puts more than nearSlack of them more on a
// ridge. A screen or a hand over part of a card leaves few of its lines
// to vote, and the card's other printed strokes (the hatching, the
// drawing) can then out-vote them by a little a few millimetres off
// (fresh 2112 still_0089: the vote's far slide, 7.5 mm, put 157 of 299
// probes on a ridge, 28 px off, against 152 for the card where it lies;
// fresh 2118 still_0161, 2120 still_0017, 2122 still_0134). nearMinShown
// leaves the vote alone on a card seen too little for its own place to
// be known (fresh 2136 still_0198, two thirds behind two screens: the near
// slides showed 63-91 probes, the card where it lies 119; without it the
// card was found 46 px off instead of not at all, and the rule's first
// form was not kept). revoteGain is the share of the probes a later vote
// (revotes) must gain. (Forty-fourth session, fresh 2109-2138, the bench
// and the mistakes corpus: cards placed more than poseOffPx off 13 → 9,
// stacks wholly right +3, empty/occupied mistakes 41 → 38, no cell read
// worse; nearSlack 0.02 read the same. Judged on fresh 2139 and 2140:
// stacks the same, empty/occupied mistakes 5 → 4. A vote that preferred
// near peaks by their votes alone, before fitting, moved four cards off
// that had been placed right and lost one.)
const nearSlack, revoteGain, nearMinShown = 0.05, 0.02, 0.4

// gridFades reports whether the printed grid's horizontal lines, each
// pose let slide up to trustedReach, show clearly at near (looseGrid) and
// fade at far to less than 1/gridFadeRatio of that: a vote's far slide
// that puts a few more probes on ridges there lined some of the card's
// lines up with something else's (a screen's edge, the table's stripes),
// and refinePose keeps the near one. (Fresh 2167 still_0067: a card a
// lamp washed white, 73 of 299 probes on a ridge where it lies; the vote
// slid it 16 mm onto a screen's edge for 80, its grid 51 -> 8.5.)
func (d *Detector) gridFades(cam Camera, near, far cardPose) bool {
	gn, _ := d.bestGridShift(cam, near, true, trustedReach)
	if gn < looseGrid {
		return false
	}
	gf, _ := d.bestGridShift(cam, far, true, trustedReach)
	return gn >= gridFadeRatio*gf
}

const gridFadeRatio = 2.0

// fitIterations fits slide and turn to the ridges measured last at q, up
// to refineIters times, measuring again after each fit that moved the
// card, and returns the pose fitted last; the ridges measured last stand
// for it.
func (d *Detector) fitIterations(cam Camera, q cardPose, probes []lineProbe, z, cu, cv float64) cardPose {
	for iter := 0; iter < refineIters; iter++ {
		a, b, th, ok := d.fitSlideTurn(0, 0, cu, cv)
		if !ok {
			break
		}
		q = q.moved(a, b, th, cu, cv)
		if math.Abs(a) < 0.05 && math.Abs(b) < 0.05 && math.Abs(th*(cu+cv)) < 0.05 {
			break // the last measurement stands for this pose as well
		}
		d.measureRidges(cam, q, probes, z, fitReach, probeStep)
	}
	return q
}

// revotes bounds how often a voted card votes again from its fitted pose;
// revoteMin (mm) is the least slide a new vote must ask for.
const (
	revotes   = 2
	revoteMin = 0.75
)

// refineIters bounds the fit-and-measure rounds;
// minRidges is how many ridges each way (across horizontal lines, across
// vertical ones) a fit needs; minRidgeGain how many more probes must lie on
// a ridge after it.
const (
	refineIters  = 3
	minRidges    = 12
	minRidgeGain = 4
)

// linesShown is the share of the model's probes that find their line on
// a ridge (within half a millimetre) at pose p, as refinePose counts them.
func (d *Detector) linesShown(cam Camera, p cardPose) float64 {
	d.measureRidges(cam, p, d.refineProbes(), d.opts.Model.CardThickness, fitReach, probeStep)
	on := d.countOnRidges()
	return d.share(on[0] + on[1])
}

// share is n probes' share of all the model's probes.
func (d *Detector) share(n int) float64 {
	return float64(n) / float64(max(1, d.probeN[0]+d.probeN[1]))
}

// measureRidges lists every probe's ridges at pose p (d.ridges, d.ridgeT).
func (d *Detector) measureRidges(cam Camera, p cardPose, probes []lineProbe, z, reach, step float64) {
	// (voteReach and maxProbeSide either side, in probeStep steps)
	var buf, str [2*int((voteReach+maxProbeSide)/probeStep) + 1]float64
	d.ridges, d.ridgeT = d.ridges[:0], d.ridgeT[:0]
	for _, pr := range probes {
		lo := len(d.ridgeT)
		d.ridgeT = d.ridgesAt(cam, p, pr, z, reach, step, buf[:], str[:], d.ridgeT)
		if len(d.ridgeT) > lo {
			d.ridges = append(d.ridges, probeRidges{pr, lo, len(d.ridgeT)})
		}
	}
}

// voteSlides returns the slides along u and along v (to probeStep) that
// put the most probes' lines within half a millimetre of a ridge, and the
// slides within fitReach that do (an, bn).
func (d *Detector) voteSlides() (a, b, an, bn float64) {
	const bins = int(2*voteReach/probeStep) + 1
	var votes [2][bins]int
	for _, pr := range d.ridges {
		k := 0
		if pr.pr.acrossV {
			k = 1
		}
		for _, t := range d.ridgeT[pr.lo:pr.hi] {
			i := int(math.Round((t + voteReach) / probeStep))
			for j := max(0, i-2); j <= min(bins-1, i+2); j++ { // half a millimetre either side
				votes[k][j]++
			}
		}
	}
	const nearBins = int(fitReach / probeStep)
	var best, near [2]float64
	mid := bins / 2
	for k := range votes {
		best[k] = float64(peakBin(votes[k][:], 0, bins-1, mid)-mid) * probeStep
		near[k] = float64(peakBin(votes[k][:], mid-nearBins, mid+nearBins, mid)-mid) * probeStep
	}
	return best[0], best[1], near[0], near[1]
}

// peakBin is the bin of votes[lo..hi] with the most votes, the one
// nearest mid among equals.
func peakBin(votes []int, lo, hi, mid int) int {
	bi := mid
	for i := lo; i <= hi; i++ {
		if votes[i] > votes[bi] || (votes[i] == votes[bi] && absInt(i-mid) < absInt(bi-mid)) {
			bi = i
		}
	}
	return bi
}

func absInt(i int) int {
	if i < 0 {
		return -i
	}
	return i
}

// countOnRidges counts the probes measured last (measureRidges) whose
// line lies on a ridge, to within half a millimetre: across vertical lines
// and across horizontal ones.
func (d *Detector) countOnRidges() (n [2]int) {
	for _, pr := range d.ridges {
		for _, t := range d.ridgeT[pr.lo:pr.hi] {
			if math.Abs(t) <= 0.5 {
				if pr.pr.acrossV {
					n[1]++
				} else {
					n[0]++
				}
				break
			}
		}
	}
	return n
}

// moved is p slid a mm along u, b mm along v and turned th radians about
// the card point (cu, cv): the card point (U, V) of the result lies where
// p's point (cu + cos th (U-cu) - sin th (V-cv) + a, cv + sin th (U-cu) +
// cos th (V-cv) + b) lay.
func (p cardPose) moved(a, b, th, cu, cv float64) cardPose {
	c, s := math.Cos(th), math.Sin(th)
	u0 := cu - c*cu + s*cv + a
	v0 := cv - s*cu - c*cv + b
	o := p.origin.Add(p.u.Scale(u0)).Add(p.v.Scale(v0))
	nu := p.u.Scale(c).Add(p.v.Scale(s))
	nv := p.u.Scale(-s).Add(p.v.Scale(c))
	return cardPose{origin: o, u: nu, v: nv}
}

// fitSlideTurn solves for the slide (a along u, b along v, mm) and the
// small turn th (radians, about (cu, cv)) that carry each probe's line
// onto its ridge (d.ridges): across a horizontal line the ridge lies at
// b + th (u - cu), across a vertical one at a - th (v - cv). Each probe
// takes its ridge nearest the fit so far, starting from the slides a0, b0
// and no turn, and Tukey's biweight lets ridges far from the fit (dice on
// the lines, hatching) drop out. ok is false when the fit is not
// determined (fewer than minRidges ridges near it either way) or turns
// further than a card found by its outline plausibly is off.
func (d *Detector) fitSlideTurn(a0, b0, cu, cv float64) (a, b, th float64, ok bool) {
	a, b = a0, b0
	for _, c := range []float64{1.5, 1.0, 0.7, 0.7} {
		var A [3][3]float64
		var y [3]float64
		var n [2]int
		for _, pr := range d.ridges {
			var j [3]float64 // d(prediction)/d(a, b, th)
			k := 0
			if pr.pr.acrossV {
				j = [3]float64{0, 1, pr.pr.u - cu}
				k = 1
			} else {
				j = [3]float64{1, 0, -(pr.pr.v - cv)}
			}
			pred := j[0]*a + j[1]*b + j[2]*th
			t, r := 0.0, math.Inf(1)
			for _, x := range d.ridgeT[pr.lo:pr.hi] {
				if math.Abs(x-pred) < math.Abs(r) {
					t, r = x, x-pred
				}
			}
			if math.Abs(r) >= c {
				continue
			}
			n[k]++
			w := 1 - (r/c)*(r/c)
			w *= w
			for i := 0; i < 3; i++ {
				y[i] += w * j[i] * t
				for l := 0; l < 3; l++ {
					A[i][l] += w * j[i] * j[l]
				}
			}
		}
		if n[0] < minRidges || n[1] < minRidges {
			return 0, 0, 0, false
		}
		x, solved := solve3(A, y)
		if !solved {
			return 0, 0, 0, false
		}
		a, b, th = x[0], x[1], x[2]
	}
	if math.Abs(th) > maxRefineTurn {
		return 0, 0, 0, false
	}
	return a, b, th, true
}

// maxRefineTurn is the largest turn (radians) one fitting round may make.
const maxRefineTurn = 5 * math.Pi / 180

// solve3 solves A x = y by Cramer's rule; ok is false when A is (nearly)
// singular.
func solve3(A [3][3]float64, y [3]float64) (x [3]float64, ok bool) {
	det := func(M [3][3]float64) float64 {
		return M[0][0]*(M[1][1]*M[2][2]-M[1][2]*M[2][1]) -
			M[0][1]*(M[1][0]*M[2][2]-M[1][2]*M[2][0]) +
			M[0][2]*(M[1][0]*M[2][1]-M[1][1]*M[2][0])
	}
	D := det(A)
	scale := math.Abs(A[0][0] * A[1][1] * A[2][2])
	if scale == 0 || math.Abs(D) < 1e-9*scale {
		return x, false
	}
	for i := 0; i < 3; i++ {
		M := A
		for r := 0; r < 3; r++ {
			M[r][i] = y[r]
		}
		x[i] = det(M) / D
	}
	return x, true
}
