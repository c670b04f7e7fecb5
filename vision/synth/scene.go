package synth

import (
	"math"

	"github.com/blueprints-companion/blueprints/vision/cardmodel"
)

// Scene is everything one image shows, in world coordinates (millimetres,
// z up, table top z = 0). It is plain data: the generator fills it, the POV
// writer draws it and the truth writer describes it.
type Scene struct {
	Seed     uint64
	Model    cardmodel.Model
	Cam      Camera
	HFOV     float64 // degrees
	Tilt     float64 // degrees from straight down
	Yaw      float64 // degrees, direction of the image top on the table
	Table    Table
	Cards    []Card
	Offer    []PlacedDie
	Hands    []Hand
	Screens  []Screen
	Lights   []Light
	Glare    bool
	PipColor [3]float64
	PipName  string
	Post     Post
	// Quality is the POV-Ray antialiasing threshold (0 = off).
	Antialias float64
}

// Table is the table top.
type Table struct {
	Kind   string // wood, cloth, plain
	Color  [3]float64
	Color2 [3]float64
	Scale  float64
	Angle  float64 // degrees, grain direction
}

// Card is a blueprint card lying on the table with its building.
type Card struct {
	Seat     int
	ID       int
	Layout   Layout
	Center   Vec3    // centre of the card on the table (z = 0)
	Angle    float64 // radians: the printed "up" of the card points along (cos, sin)
	Building [3][2]Stack
	Dice     [3][2][]PlacedDie
}

// PlacedDie is a die with its pose: Rot maps the canonical die (1 on +z,
// 6 on -z, 2 on +x, 5 on -x, 3 on +y, 4 on -y) to the world, Center is the
// centre of the cube.
type PlacedDie struct {
	Die
	Center Vec3
	Rot    Mat3
	Yaw    float64 // degrees, for the truth file
}

// Capsule is a segment A-B swept by a sphere of radius R (a sphere when
// A == B): the building block of a hand.
type Capsule struct {
	A, B Vec3
	R    float64
}

// Hand is a forearm, palm and fingers over a card.
type Hand struct {
	Seat  int
	Card  int // index into Scene.Cards
	Parts []Capsule
	Skin  [3]float64
}

// Screen is a player screen standing on the table at a card's top edge.
type Screen struct {
	Seat      int
	Card      int
	Corners   [4]Vec3 // bottom-left, bottom-right, top-right, top-left of its front face
	Normal    Vec3    // front normal (towards the card)
	Thickness float64
	Color     [3]float64
}

// Light is an area light (a point light when Size is 0).
type Light struct {
	Pos       Vec3
	Kelvin    float64
	Intensity float64
	Size      float64
	Glare     bool
}

// Post is the camera simulation applied after the ray tracer.
type Post struct {
	NoiseSigma  float64 // standard deviation of Gaussian sensor noise, in 8-bit levels
	BlurSigma   float64 // Gaussian blur sigma in pixels (0 = none)
	JPEGQuality int
}

// Up is the printed "up" direction of the card on the table.
func (c Card) Up() Vec3 { return Vec3{math.Cos(c.Angle), math.Sin(c.Angle), 0} }

// Right is the printed "right" direction of the card on the table.
func (c Card) Right() Vec3 { u := c.Up(); return Vec3{u.Y, -u.X, 0} }

// Point maps card coordinates (u right, v down from the printed top-left
// corner, mm) and a height z above the table to the world.
func (c Card) Point(m cardmodel.Model, u, v, z float64) Vec3 {
	p := c.Center.Add(c.Right().Scale(u - m.CardWidth/2)).Add(c.Up().Scale(m.CardHeight/2 - v))
	p.Z = z
	return p
}

// Corners are the card's corners on the table, clockwise from the printed
// top-left: TL, TR, BR, BL.
func (c Card) Corners(m cardmodel.Model) [4]Vec3 {
	return [4]Vec3{
		c.Point(m, 0, 0, 0), c.Point(m, m.CardWidth, 0, 0),
		c.Point(m, m.CardWidth, m.CardHeight, 0), c.Point(m, 0, m.CardHeight, 0),
	}
}

// CellTop is the centre of the top of cell (r, c)'s stack: the card surface
// for an empty cell, else the top face of the top die (its actual pose).
func (c Card) CellTop(m cardmodel.Model, r, col int) Vec3 {
	if n := len(c.Dice[r][col]); n > 0 {
		d := c.Dice[r][col][n-1]
		return d.Center.Add(Vec3{0, 0, m.Die / 2})
	}
	u, v := m.CellCenter(r, col)
	return c.Point(m, u, v, m.CardThickness)
}

// MaxHeight is the tallest stack on the card, in dice.
func (c Card) MaxHeight() int {
	h := 0
	for r := 0; r < 3; r++ {
		for col := 0; col < 2; col++ {
			h = max(h, len(c.Building[r][col]))
		}
	}
	return h
}

// faceNormal is the canonical normal of the face showing value v.
func faceNormal(v int) Vec3 {
	switch v {
	case 1:
		return Vec3{0, 0, 1}
	case 6:
		return Vec3{0, 0, -1}
	case 2:
		return Vec3{1, 0, 0}
	case 5:
		return Vec3{-1, 0, 0}
	case 3:
		return Vec3{0, 1, 0}
	default:
		return Vec3{0, -1, 0}
	}
}

// cubeRotations are the 24 proper rotations of a cube.
var cubeRotations = func() []Mat3 {
	var out []Mat3
	perms := [][3]int{{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}}
	for _, p := range perms {
		for s := 0; s < 8; s++ {
			var m Mat3
			for i := 0; i < 3; i++ {
				sign := 1.0
				if s>>i&1 == 1 {
					sign = -1
				}
				m[i][p[i]] = sign
			}
			det := m[0][0]*(m[1][1]*m[2][2]-m[1][2]*m[2][1]) -
				m[0][1]*(m[1][0]*m[2][2]-m[1][2]*m[2][0]) +
				m[0][2]*(m[1][0]*m[2][1]-m[1][1]*m[2][0])
			if det > 0 {
				out = append(out, m)
			}
		}
	}
	return out
}()

// TopValue is the value a die with rotation rot shows on top.
func TopValue(rot Mat3) int {
	best, bv := -2.0, 0
	for v := 1; v <= 6; v++ {
		if z := rot.MulVec(faceNormal(v)).Z; z > best {
			best, bv = z, v
		}
	}
	return bv
}

// rotationsShowing lists the cube rotations that put value v on top.
func rotationsShowing(v int) []Mat3 {
	var out []Mat3
	for _, m := range cubeRotations {
		if m.MulVec(faceNormal(v)).Z > 0.5 {
			out = append(out, m)
		}
	}
	return out
}

// pipOffsets are the pip positions of each face value in face units
// (multiples of the pip spacing).
var pipOffsets = map[int][][2]float64{
	1: {{0, 0}},
	2: {{-1, -1}, {1, 1}},
	3: {{-1, -1}, {0, 0}, {1, 1}},
	4: {{-1, -1}, {-1, 1}, {1, -1}, {1, 1}},
	5: {{-1, -1}, {-1, 1}, {0, 0}, {1, -1}, {1, 1}},
	6: {{-1, -1}, {-1, 0}, {-1, 1}, {1, -1}, {1, 0}, {1, 1}},
}

// canonicalPips returns, for a die of edge s centred at the origin in its
// canonical pose, the pip centres on the face plane and the face normals.
func canonicalPips(s float64) (pts, normals []Vec3) {
	sp := 0.27 * s
	for v := 1; v <= 6; v++ {
		n := faceNormal(v)
		// two tangents of the face
		var a, b Vec3
		switch {
		case n.Z != 0:
			a, b = Vec3{1, 0, 0}, Vec3{0, 1, 0}
		case n.X != 0:
			a, b = Vec3{0, 1, 0}, Vec3{0, 0, 1}
		default:
			a, b = Vec3{0, 0, 1}, Vec3{1, 0, 0}
		}
		for _, o := range pipOffsets[v] {
			p := n.Scale(s / 2).Add(a.Scale(o[0] * sp)).Add(b.Scale(o[1] * sp))
			pts = append(pts, p)
			normals = append(normals, n)
		}
	}
	return pts, normals
}
