package vision

import (
	"math"

	"github.com/blueprints-companion/blueprints/vision/cardmodel"
)

// cardPose places a card on the table: its printed top-left corner and the
// unit directions of its printed u (right) and v (down) axes, all at the
// height of the card's face.
type cardPose struct {
	origin Vec3
	u, v   Vec3
}

// slid is p moved s millimetres along its v axis (across the horizontal
// grid lines) or, if !alongV, along u.
func (p cardPose) slid(alongV bool, s float64) cardPose {
	if alongV {
		p.origin = p.origin.Add(p.v.Scale(s))
	} else {
		p.origin = p.origin.Add(p.u.Scale(s))
	}
	return p
}

// at maps card millimetres (u right, v down from the printed top-left) and
// a height above the table to the world.
func (p cardPose) at(u, v, z float64) Vec3 {
	w := p.origin.Add(p.u.Scale(u)).Add(p.v.Scale(v))
	w.Z = z
	return w
}

// centre is the middle of the printed face of a card of model m at pose p.
func (p cardPose) centre(m cardmodel.Model) Vec3 {
	return p.at(m.CardWidth/2, m.CardHeight/2, m.CardThickness)
}

// corners are the card's corners TL, TR, BR, BL as printed.
func (p cardPose) corners(m cardmodel.Model) [4]Vec3 {
	z := m.CardThickness
	return [4]Vec3{p.at(0, 0, z), p.at(m.CardWidth, 0, z), p.at(m.CardWidth, m.CardHeight, z), p.at(0, m.CardHeight, z)}
}

// poseFromRect builds the pose of a card whose centre is c, whose printed u
// axis points along dir (a unit vector on the table), seen from above.
func poseFromRect(m cardmodel.Model, c Vec3, dir Vec3) cardPose {
	u := Vec3{dir.X, dir.Y, 0}
	// Seen from above (x right, y up), printed "down" is u turned by -90°.
	v := Vec3{u.Y, -u.X, 0}
	o := c.Add(u.Scale(-m.CardWidth / 2)).Add(v.Scale(-m.CardHeight / 2))
	o.Z = m.CardThickness
	return cardPose{origin: o, u: u, v: v}
}

// seatOf returns the seat whose printed-up direction (the direction from
// the player towards the table centre) is nearest the card's printed up.
// seatUp holds each seat's up direction in degrees from +x, counter-clockwise.
func seatOf(p cardPose, seatUp []float64) int {
	up := math.Atan2(-p.v.Y, -p.v.X)
	best, bestD := 0, math.Inf(1)
	for s, a := range seatUp {
		d := math.Abs(math.Remainder(up-a*math.Pi/180, 2*math.Pi))
		if d < bestD {
			best, bestD = s, d
		}
	}
	return best
}

// DefaultSeatUp is the renderer's seating (vision/synth): seat 0 south,
// 1 west, 2 north, 3 east, clockwise seen from above, every card's printed
// top towards the table centre.
var DefaultSeatUp = []float64{90, 0, -90, 180}
