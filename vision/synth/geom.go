package synth

import "math"

// Vec3 is a point or direction in the world frame: millimetres, z up, the
// table top is z = 0 (right-handed).
type Vec3 struct{ X, Y, Z float64 }

// Add returns a+b.
func (a Vec3) Add(b Vec3) Vec3 { return Vec3{a.X + b.X, a.Y + b.Y, a.Z + b.Z} }

// Sub returns a-b.
func (a Vec3) Sub(b Vec3) Vec3 { return Vec3{a.X - b.X, a.Y - b.Y, a.Z - b.Z} }

// Scale returns a*k.
func (a Vec3) Scale(k float64) Vec3 { return Vec3{a.X * k, a.Y * k, a.Z * k} }

// Dot is the dot product.
func (a Vec3) Dot(b Vec3) float64 { return a.X*b.X + a.Y*b.Y + a.Z*b.Z }

// Cross is the cross product.
func (a Vec3) Cross(b Vec3) Vec3 {
	return Vec3{a.Y*b.Z - a.Z*b.Y, a.Z*b.X - a.X*b.Z, a.X*b.Y - a.Y*b.X}
}

// Len is the Euclidean length.
func (a Vec3) Len() float64 { return math.Sqrt(a.Dot(a)) }

// Unit returns a scaled to length 1.
func (a Vec3) Unit() Vec3 {
	l := a.Len()
	if l == 0 {
		return a
	}
	return a.Scale(1 / l)
}

// Mat3 is a 3x3 matrix, row-major.
type Mat3 [3][3]float64

// Identity3 is the identity matrix.
func Identity3() Mat3 { return Mat3{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}} }

// MulVec returns m*v.
func (m Mat3) MulVec(v Vec3) Vec3 {
	return Vec3{
		m[0][0]*v.X + m[0][1]*v.Y + m[0][2]*v.Z,
		m[1][0]*v.X + m[1][1]*v.Y + m[1][2]*v.Z,
		m[2][0]*v.X + m[2][1]*v.Y + m[2][2]*v.Z,
	}
}

// Mul returns m*n.
func (m Mat3) Mul(n Mat3) Mat3 {
	var r Mat3
	for i := 0; i < 3; i++ {
		for j := 0; j < 3; j++ {
			for k := 0; k < 3; k++ {
				r[i][j] += m[i][k] * n[k][j]
			}
		}
	}
	return r
}

// T is the transpose.
func (m Mat3) T() Mat3 {
	var r Mat3
	for i := 0; i < 3; i++ {
		for j := 0; j < 3; j++ {
			r[i][j] = m[j][i]
		}
	}
	return r
}

// RotZ is a rotation by a radians about the world z axis (counter-clockwise
// seen from above).
func RotZ(a float64) Mat3 {
	c, s := math.Cos(a), math.Sin(a)
	return Mat3{{c, -s, 0}, {s, c, 0}, {0, 0, 1}}
}

// Camera is an exact pinhole camera: intrinsics plus a world->camera pose in
// the OpenCV convention (camera x right, y down, z forward; a world point X
// maps to x = R X + t, pixel u = fx x/z + cx, v = fy y/z + cy, with (0,0) the
// centre of the top-left pixel).
type Camera struct {
	Width, Height  int
	Fx, Fy, Cx, Cy float64
	R              Mat3
	T              Vec3
}

// Center is the camera centre in the world frame (-R^T t).
func (c Camera) Center() Vec3 { return c.R.T().MulVec(c.T).Scale(-1) }

// Project maps a world point to pixel coordinates; ok is false behind the
// camera.
func (c Camera) Project(p Vec3) (u, v float64, ok bool) {
	q := c.R.MulVec(p).Add(c.T)
	if q.Z <= 1e-9 {
		return 0, 0, false
	}
	return c.Fx*q.X/q.Z + c.Cx, c.Fy*q.Y/q.Z + c.Cy, true
}

// Ray is the world-frame unit direction through pixel (u, v).
func (c Camera) Ray(u, v float64) Vec3 {
	d := Vec3{(u - c.Cx) / c.Fx, (v - c.Cy) / c.Fy, 1}
	return c.R.T().MulVec(d).Unit()
}

// LookCamera builds a camera at eye looking at target; the image "up" is the
// projection of the world direction up (which must not be parallel to the
// view). hfov is the horizontal field of view in degrees. The principal point
// is ((W-1)/2, (H-1)/2), where POV-Ray traces it.
func LookCamera(eye, target, up Vec3, hfovDeg float64, w, h int) Camera {
	fwd := target.Sub(eye).Unit()
	if math.Abs(fwd.Dot(up.Unit())) > 0.999 {
		up = Vec3{1, 0, 0}
	}
	x := fwd.Cross(up).Unit() // image right
	y := fwd.Cross(x).Unit()  // image down
	R := Mat3{{x.X, x.Y, x.Z}, {y.X, y.Y, y.Z}, {fwd.X, fwd.Y, fwd.Z}}
	f := float64(w) / (2 * math.Tan(hfovDeg*math.Pi/360))
	return Camera{
		Width: w, Height: h,
		Fx: f, Fy: f, Cx: float64(w-1) / 2, Cy: float64(h-1) / 2,
		R: R, T: R.MulVec(eye).Scale(-1),
	}
}
