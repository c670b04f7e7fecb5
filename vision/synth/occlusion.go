package synth

import (
	"math"

	"github.com/blueprints-companion/blueprints/vision/cardmodel"
)

// OcclusionSamples is the number of sample points per side of a cell's
// top-of-stack square used by the occlusion rule.
const OcclusionSamples = 5

// segSegDist is the smallest distance between segments p0-p1 and q0-q1.
func segSegDist(p0, p1, q0, q1 Vec3) float64 {
	d1, d2, r := p1.Sub(p0), q1.Sub(q0), p0.Sub(q0)
	a, e, f := d1.Dot(d1), d2.Dot(d2), d2.Dot(r)
	var s, t float64
	switch {
	case a <= 1e-12 && e <= 1e-12:
		return r.Len()
	case a <= 1e-12:
		t = clamp01(f / e)
	default:
		c := d1.Dot(r)
		if e <= 1e-12 {
			s = clamp01(-c / a)
		} else {
			b := d1.Dot(d2)
			den := a*e - b*b
			if den > 1e-12 {
				s = clamp01((b*f - c*e) / den)
			}
			t = (b*s + f) / e
			if t < 0 {
				t, s = 0, clamp01(-c/a)
			} else if t > 1 {
				t, s = 1, clamp01((b-c)/a)
			}
		}
	}
	return p0.Add(d1.Scale(s)).Sub(q0.Add(d2.Scale(t))).Len()
}

func clamp01(x float64) float64 { return math.Max(0, math.Min(1, x)) }

// hidesHand reports whether the hand crosses the segment from the camera
// centre o to point p.
func (h Hand) hides(o, p Vec3) bool {
	for _, c := range h.Parts {
		if segSegDist(o, p, c.A, c.B) < c.R {
			return true
		}
	}
	return false
}

// hides reports whether the screen (a thin box) crosses the segment o-p.
func (s Screen) hides(o, p Vec3) bool {
	e1 := s.Corners[1].Sub(s.Corners[0])
	e2 := s.Corners[3].Sub(s.Corners[0])
	e3 := s.Normal.Scale(-s.Thickness)
	// local coordinates: solve [e1 e2 e3] x = v
	m := Mat3{{e1.X, e2.X, e3.X}, {e1.Y, e2.Y, e3.Y}, {e1.Z, e2.Z, e3.Z}}
	inv, ok := inverse3(m)
	if !ok {
		return false
	}
	a := inv.MulVec(o.Sub(s.Corners[0]))
	b := inv.MulVec(p.Sub(s.Corners[0]))
	return segmentInBox(a, b, 0, 1)
}

// segmentInBox is the slab test: whether the segment a-b meets the box
// [lo, hi] on every axis.
func segmentInBox(a, b Vec3, lo, hi float64) bool {
	d := b.Sub(a)
	t0, t1 := 0.0, 1.0
	for _, ax := range [][2]float64{{a.X, d.X}, {a.Y, d.Y}, {a.Z, d.Z}} {
		if math.Abs(ax[1]) < 1e-12 {
			if ax[0] < lo || ax[0] > hi {
				return false
			}
			continue
		}
		ta, tb := (lo-ax[0])/ax[1], (hi-ax[0])/ax[1]
		if ta > tb {
			ta, tb = tb, ta
		}
		t0, t1 = math.Max(t0, ta), math.Min(t1, tb)
		if t0 > t1 {
			return false
		}
	}
	return true
}

func inverse3(m Mat3) (Mat3, bool) {
	det := m[0][0]*(m[1][1]*m[2][2]-m[1][2]*m[2][1]) -
		m[0][1]*(m[1][0]*m[2][2]-m[1][2]*m[2][0]) +
		m[0][2]*(m[1][0]*m[2][1]-m[1][1]*m[2][0])
	if math.Abs(det) < 1e-12 {
		return Mat3{}, false
	}
	var r Mat3
	r[0][0] = (m[1][1]*m[2][2] - m[1][2]*m[2][1]) / det
	r[0][1] = (m[0][2]*m[2][1] - m[0][1]*m[2][2]) / det
	r[0][2] = (m[0][1]*m[1][2] - m[0][2]*m[1][1]) / det
	r[1][0] = (m[1][2]*m[2][0] - m[1][0]*m[2][2]) / det
	r[1][1] = (m[0][0]*m[2][2] - m[0][2]*m[2][0]) / det
	r[1][2] = (m[0][2]*m[1][0] - m[0][0]*m[1][2]) / det
	r[2][0] = (m[1][0]*m[2][1] - m[1][1]*m[2][0]) / det
	r[2][1] = (m[0][1]*m[2][0] - m[0][0]*m[2][1]) / det
	r[2][2] = (m[0][0]*m[1][1] - m[0][1]*m[1][0]) / det
	return r, true
}

// topSquare returns OcclusionSamples^2 points spread over the top of cell
// (r, col)'s stack: the top face of the top die (its pose, 90% of the
// face) or, for an empty cell, a die-sized square on the card.
func topSquare(m cardmodel.Model, c Card, r, col int) []Vec3 {
	var ctr, ax, ay Vec3
	h := 0.45 * m.Die
	if n := len(c.Dice[r][col]); n > 0 {
		d := c.Dice[r][col][n-1]
		ctr = d.Center.Add(Vec3{0, 0, m.Die / 2})
		yaw := RotZ(d.Yaw * math.Pi / 180)
		ax, ay = yaw.MulVec(c.Right()), yaw.MulVec(c.Up())
	} else {
		ctr = c.CellTop(m, r, col)
		ax, ay = c.Right(), c.Up()
	}
	var pts []Vec3
	for i := 0; i < OcclusionSamples; i++ {
		for j := 0; j < OcclusionSamples; j++ {
			fu := -1 + 2*float64(i)/float64(OcclusionSamples-1)
			fv := -1 + 2*float64(j)/float64(OcclusionSamples-1)
			pts = append(pts, ctr.Add(ax.Scale(fu*h)).Add(ay.Scale(fv*h)))
		}
	}
	return pts
}

// cellOcclusion is the fraction of a cell's top-of-stack samples that the
// hands and the screens hide from the camera.
func cellOcclusion(sc *Scene, c Card, r, col int) (byHand, byScreen float64) {
	o := sc.Cam.Center()
	pts := topSquare(sc.Model, c, r, col)
	var nh, ns int
	for _, p := range pts {
		for _, h := range sc.Hands {
			if h.hides(o, p) {
				nh++
				break
			}
		}
		for _, s := range sc.Screens {
			if s.hides(o, p) {
				ns++
				break
			}
		}
	}
	return float64(nh) / float64(len(pts)), float64(ns) / float64(len(pts))
}

// diceOcclusion is the fraction of a cell's top-of-stack samples (as for
// the hands) that other dice hide from the camera: the dice of other
// stacks, on this card or another, and the loose ones. A tall stack seen
// from the side can hide its neighbour's top entirely; no reader can see
// that top then.
func diceOcclusion(sc *Scene, ci, r, col int) float64 {
	o := sc.Cam.Center()
	m := sc.Model
	pts := topSquare(m, sc.Cards[ci], r, col)
	var others []PlacedDie
	for k, c := range sc.Cards {
		for rr := range c.Dice {
			for cc := range c.Dice[rr] {
				if k == ci && rr == r && cc == col {
					continue // the stack itself: its dice lie under its top
				}
				others = append(others, c.Dice[rr][cc]...)
			}
		}
	}
	others = append(others, sc.Offer...)
	n := 0
	for _, p := range pts {
		for _, d := range others {
			if dieHides(d, m.Die/2, o, p) {
				n++
				break
			}
		}
	}
	return float64(n) / float64(len(pts))
}

// dieHides reports whether the die (a cube of half-side half) crosses the
// segment o-p, in the die's own axes.
func dieHides(d PlacedDie, half float64, o, p Vec3) bool {
	rt := d.Rot.T()
	return segmentInBox(rt.MulVec(o.Sub(d.Center)), rt.MulVec(p.Sub(d.Center)), -half, half)
}
