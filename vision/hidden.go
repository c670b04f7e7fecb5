package vision

import "math"

// A stack can hide its neighbour: seen from the side, a tall stack covers
// the cells beyond it in the image, and a short stack there shows nothing
// of itself. Rather than read such a cell as empty, the detector flags it
// occluded when most of the top face a one-high stack would show there is
// hidden, from the camera, behind the stacks it read on the card's other
// cells. A cell read as a stack whose top face, at the height read, the
// other stacks hide wholly is flagged too: what the networks saw there was
// the neighbour's side, not a stack of its own (the reads of empty cells
// so hidden as stacks were most of the bench's empty/occupied mistakes).

// hiddenFlagShare is the share of that face the other stacks must hide
// for a cell read empty, hiddenStackShare for a cell read as a stack.
// (hiddenStackShare chosen on the training renders: 1 turned 16 of 150
// empty/occupied mistakes into flags and cost no stack; 0.7 flagged 12
// more hidden stacks but 2 visible ones too. hiddenFlagShare 0.55, that
// was 14 of the 25 samples, not 13 (36 of 64 since the forty-fifth
// session): the truth measures an empty cell's card surface, and most
// empty cells flagged against it lay at 0.44-0.48 there and 0.52 here.
// On the eleven judging corpora empty/occupied mistakes 32 -> 26 and
// stacks hidden by other dice flagged 94 -> 93 of 144; on the training
// renders 76 -> 38 and 141 -> 137 of 216.)
const hiddenFlagShare, hiddenStackShare = 0.55, 1.0

// A stack read less than hiddenUnsure sure is flagged where the other
// stacks hide hiddenUnsureShare of its top at the height read. (Most
// stacks the truth counts as hidden by other dice, half their top or
// more, are read as a one-high stack of the neighbour's colour, unsurely;
// stacks read right that hidden were read surely. Over the bench,
// mistakes, fresh 2019, 2020, 2023 and 2025-2034, glass-heavy 2021, 2022
// and 2024 and the renders of seeds 1201 and 1202: hidden stacks flagged
// 116 -> 153 of 197, empty/occupied mistakes 59 -> 55, stacks wholly
// right 13,815 -> 13,813 of 14,126, cells flagged falsely 24 -> 27; 0.6
// for every stack: 156, 55, 13,811 and 29.) hiddenUnsure chosen again
// (twenty-sixth session) for the height CNNs of the twenty-fifth, which
// read such stacks more surely: on fresh 2049-2055 0.75 -> 0.9 flagged 84
// -> 87 of 104 hidden stacks with every other figure the same (0.95 too;
// share 0.5 flagged 95-98 but read 4-5 stacks fewer); judged on the
// bench, the mistakes corpus, nadir 2056-2058 and fresh 2059-2060: hidden
// stacks flagged 58 -> 60 of 73, one stack fewer (a false flag on nadir
// 2056), empty/occupied mistakes 4 = 4.
const hiddenUnsure, hiddenUnsureShare = 0.9, 0.6

// hiddenSamples is the number of sample points per side of the face: an
// even number, so that no sample lies on the face's centre lines. Five
// until the forty-fifth session put 15 of the 25 samples on or behind a
// centre line, so a face hidden to its centre line along one axis counted
// 0.6 hidden, exactly hiddenUnsureShare, where the truth counts it half
// hidden; with eight it counts 0.5. (Over fresh 2109-2140, the bench and
// the mistakes corpus, against five: 6, 8, 10 and 12 read 3, 3, 3 and 2
// stacks more; 8 alone lost none, 3 gained where stacks read unsurely
// had been flagged at exactly 0.6; empty/occupied mistakes 42 -> 41.
// Judged on fresh 2141-2142: vision/JOURNAL.md.)
const hiddenSamples = 8

// flagHidden flags the cells of c read as empty that the card's other
// stacks hide, and those read as a stack whose top they hide wholly (or
// mostly, for a stack read unsurely).
func (d *Detector) flagHidden(c *Card, cam Camera) {
	m := d.opts.Model
	o, ok := eyeOnCard(c, cam)
	if !ok {
		return
	}
	var heights [3][2]int
	for r := 0; r < m.Rows && r < 3; r++ {
		for col := 0; col < m.Cols && col < 2; col++ {
			if cell := c.Cells[r][col]; cell != nil && !cell.Occluded {
				heights[r][col] = cell.Height
			}
		}
	}
	for r := 0; r < m.Rows && r < 3; r++ {
		for col := 0; col < m.Cols && col < 2; col++ {
			z, need := m.CardThickness+m.Die, hiddenFlagShare
			if cell := c.Cells[r][col]; cell != nil {
				if cell.Occluded {
					continue
				}
				z, need = m.CardThickness+float64(cell.Height)*m.Die, hiddenStackShare
				if cell.Confidence < hiddenUnsure {
					need = hiddenUnsureShare
				}
			}
			if share := d.hiddenShare(o, &heights, r, col, z); share >= need {
				c.Cells[r][col] = &Cell{Occluded: true, BehindDice: true, Confidence: share}
			}
		}
	}
}

// eyeOnCard is the camera's centre in card axes (millimetres, z up).
func eyeOnCard(c *Card, cam Camera) (Vec3, bool) {
	eye := cam.Center()
	eu, ev, ok := c.pose.toCard(eye)
	return Vec3{eu, ev, eye.Z}, ok
}

// hiddenShare is the share of the die-sized face at height z over cell
// (row, col) that the stacks of the given heights on the card's other
// cells hide from the camera at o (card axes), on a grid of
// hiddenSamples² points.
func (d *Detector) hiddenShare(o Vec3, heights *[3][2]int, row, col int, z float64) float64 {
	m := d.opts.Model
	half := m.Die / 2
	cu, cv := m.CellCenter(row, col)
	hidden := 0
	for i := 0; i < hiddenSamples; i++ {
		for j := 0; j < hiddenSamples; j++ {
			fu := -0.9 + 1.8*float64(i)/(hiddenSamples-1)
			fv := -0.9 + 1.8*float64(j)/(hiddenSamples-1)
			p := Vec3{cu + fu*half, cv + fv*half, z}
			if d.behindStacks(o, p, heights, row, col) {
				hidden++
			}
		}
	}
	return float64(hidden) / (hiddenSamples * hiddenSamples)
}

// A cell the height networks read as empty, but not surely, is more often
// a stack than not where nothing hides it: on the seventeen judging
// corpora, of the cells read empty with P(empty) under 0.6 whose card
// surface other dice hide by less than a tenth (the renderer's truth),
// 21 held a stack and 12 were empty. So such a cell, where the stacks
// read on the card's other cells hide at most weakEmptyHidden of a
// one-high top face, is read as its likeliest height instead — if that
// height has at least weakEmptyHeight of the probability (the empty cells
// read so had a tall neighbour's top face over them, and their likeliest
// height 0.01-0.16; the stacks 0.09-0.44, fifteen of eighteen 0.2 or more).
// weakEmptyHidden was a tenth until the thirty-fourth session, since 0.3:
// most stacks still read empty were clear glass dice beside a taller stack
// that hid part of them (the development corpora 5,569 → 5,571 stacks
// wholly right and 12 → 10 empty/occupied mistakes, fresh 2070 and renders
// 1401-1402 2,132 → 2,134 and 9 → 7, fresh 2071-2072 the same; see
// vision/JOURNAL.md). Half (0.5) read a cell 0.6 hidden, under a tall neighbour's top
// face, as a die. Since the forty-first session the pip networks must
// also read a die's face at that height at least faceOnSure sure, as
// faceOnEmpties asks: on fresh 2109-2114, the bench and the mistakes
// corpus, of the six cells so read as stacks, the three stacks' faces
// read 0.95-0.96 sure, the two empty cells' (read six high G6 under a
// lamp's glare on a hatched cell, and one high G6) 0.40 and 0.77, and a
// cell wholly hidden behind a six-high stack (later flagged) 0.97.
const weakEmpty, weakEmptyHidden, weakEmptyHeight = 0.6, 0.3, 0.2

// A die's face where a one-high top would show it: a cell read empty less
// than faceEmpty sure, where nothing hides it as above and the hand class
// has under faceHand, whose level-1 share (the classical reader's share
// of die-like points over a one-high top face, cellShares) is at least
// faceShare, is read as its likeliest height whatever that height's
// probability. On the bench, mistakes and fresh 2049-2051 corpora
// (12,245 cells read empty) such cells held a stack 5 times (a stone die
// lit grey, a two-high stack on a far, steep card) and were empty never;
// 8,887 empty cells read in the open had a level-1 share of 0.72 or less
// in 99 % of cases, but up to 1 where the networks were sure (0.94 and
// more) of empty, so the share alone does not decide.
const faceEmpty, faceShare, faceHand = 0.8, 0.9, 0.3

// reconsiderEmpties applies those to the height reads of card c (in
// d.cardCells; shares: its level shares), before their clashes are
// settled; faceSure(r, col, k) is how sure the pip networks are of a
// die's face at level k over cell (r, col) (pipsAt).
func (d *Detector) reconsiderEmpties(c *Card, cam Camera, shares *[3][2][MaxStack + 2]float64, faceSure func(r, col, k int) float32) {
	m := d.opts.Model
	rows, cols := min(m.Rows, 3), min(m.Cols, 2)
	weak := false
	for r := 0; r < rows; r++ {
		for col := 0; col < cols; col++ {
			weak = weak || doubtedEmpty(&d.cardCells[r][col], shares[r][col][1])
		}
	}
	if !weak {
		return
	}
	o, ok := eyeOnCard(c, cam)
	if !ok {
		return
	}
	heights := d.cardHeights()
	for r := 0; r < rows; r++ {
		for col := 0; col < cols; col++ {
			cr := &d.cardCells[r][col]
			if !doubtedEmpty(cr, shares[r][col][1]) {
				continue
			}
			if d.hiddenShare(o, &heights, r, col, m.CardThickness+m.Die) > weakEmptyHidden {
				continue
			}
			k := likeliestStack(cr)
			if cr.p[k] < weakEmptyHeight && !faceSeen(cr, shares[r][col][1]) {
				continue
			}
			if faceSure(r, col, k) < faceOnSure {
				continue // no die's face where a k-high top would show it
			}
			cr.readAs(k)
		}
	}
}

// cardHeights is the height of each cell of the card being settled
// (d.cardCells) as read so far, 0 where it is empty or a hand covers it.
func (d *Detector) cardHeights() [3][2]int { return d.heightsOf(&d.cardCells) }

// heightsOf is the height of each of a card's cells as read, 0 where it
// is empty or a hand covers it.
func (d *Detector) heightsOf(cells *[3][2]cellRead) (heights [3][2]int) {
	m := d.opts.Model
	for r := 0; r < m.Rows && r < 3; r++ {
		for col := 0; col < m.Cols && col < 2; col++ {
			if cr := &cells[r][col]; !cr.dec.Occluded {
				heights[r][col] = cr.dec.Height
			}
		}
	}
	return heights
}

// doubtedEmpty reports whether cr is read empty, but either less than
// weakEmpty sure or with a die's face seen at level 1 (faceSeen; share1:
// its level-1 share).
func doubtedEmpty(cr *cellRead, share1 float64) bool {
	if cr.dec.Occluded || cr.dec.Height != 0 {
		return false
	}
	return cr.p[0] < weakEmpty || faceSeen(cr, share1)
}

// faceSeen reports whether an empty read cr is less than faceEmpty sure,
// its hand class under faceHand and its level-1 share at least faceShare.
func faceSeen(cr *cellRead, share1 float64) bool {
	return cr.p[0] < faceEmpty && cr.p[HeightHand] < faceHand && share1 >= faceShare
}

// behindStacks reports whether the segment from o to p (card axes, z up)
// crosses the box of a stack read on a cell other than (row, col).
func (d *Detector) behindStacks(o, p Vec3, heights *[3][2]int, row, col int) bool {
	m := d.opts.Model
	half := m.Die / 2
	for r := range heights {
		for c, h := range heights[r] {
			if h == 0 || (r == row && c == col) {
				continue
			}
			cu, cv := m.CellCenter(r, c)
			lo := Vec3{cu - half, cv - half, m.CardThickness}
			hi := Vec3{cu + half, cv + half, m.CardThickness + float64(h)*m.Die}
			if segmentCrossesBox(o, p, lo, hi) {
				return true
			}
		}
	}
	return false
}

// segmentCrossesBox is the slab test of the segment o-p against the
// axis-aligned box lo-hi.
func segmentCrossesBox(o, p, lo, hi Vec3) bool {
	t0, t1 := 0.0, 1.0
	for _, ax := range [3][4]float64{{o.X, p.X, lo.X, hi.X}, {o.Y, p.Y, lo.Y, hi.Y}, {o.Z, p.Z, lo.Z, hi.Z}} {
		s, dir := ax[0], ax[1]-ax[0]
		if math.Abs(dir) < 1e-12 {
			if s < ax[2] || s > ax[3] {
				return false
			}
			continue
		}
		a, b := (ax[2]-s)/dir, (ax[3]-s)/dir
		if a > b {
			a, b = b, a
		}
		t0, t1 = max(t0, a), min(t1, b)
		if t0 > t1 {
			return false
		}
	}
	return true
}

// toCard maps a world point's table-plane position to card millimetres
// (the inverse of at, whose u and v need not be exactly orthogonal).
func (p cardPose) toCard(w Vec3) (u, v float64, ok bool) {
	dx, dy := w.X-p.origin.X, w.Y-p.origin.Y
	det := p.u.X*p.v.Y - p.v.X*p.u.Y
	if math.Abs(det) < 1e-12 {
		return 0, 0, false
	}
	u = (dx*p.v.Y - p.v.X*dy) / det
	v = (p.u.X*dy - dx*p.u.Y) / det
	return u, v, true
}
