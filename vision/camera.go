package vision

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
)

// Camera is a pinhole camera over the table, in the convention of the
// renderer's truth files (vision/synth/README.md): world millimetres with
// the table top at z = 0 and z up; x_cam = R X + t; u = fx x/z + cx,
// v = fy y/z + cy, pixel (0,0) the centre of the top-left pixel.
type Camera struct {
	Fx, Fy, Cx, Cy float64
	R              [3][3]float64
	T              [3]float64
}

// ErrCamera is wrapped by camera loading errors.
var ErrCamera = errors.New("vision: bad camera")

// Project maps a world point to pixels; ok is false behind the camera.
func (c *Camera) Project(p Vec3) (u, v float64, ok bool) {
	x := c.R[0][0]*p.X + c.R[0][1]*p.Y + c.R[0][2]*p.Z + c.T[0]
	y := c.R[1][0]*p.X + c.R[1][1]*p.Y + c.R[1][2]*p.Z + c.T[1]
	z := c.R[2][0]*p.X + c.R[2][1]*p.Y + c.R[2][2]*p.Z + c.T[2]
	if z <= 1e-6 {
		return 0, 0, false
	}
	return c.Fx*x/z + c.Cx, c.Fy*y/z + c.Cy, true
}

// Center is the camera's position in the world.
func (c *Camera) Center() Vec3 {
	// C = -R^T t
	return Vec3{
		-(c.R[0][0]*c.T[0] + c.R[1][0]*c.T[1] + c.R[2][0]*c.T[2]),
		-(c.R[0][1]*c.T[0] + c.R[1][1]*c.T[1] + c.R[2][1]*c.T[2]),
		-(c.R[0][2]*c.T[0] + c.R[1][2]*c.T[1] + c.R[2][2]*c.T[2]),
	}
}

// OnPlane back-projects pixel (u, v) onto the horizontal plane z = h; ok is
// false when the ray does not meet it in front of the camera.
func (c *Camera) OnPlane(u, v, h float64) (Vec3, bool) {
	dc := Vec3{(u - c.Cx) / c.Fx, (v - c.Cy) / c.Fy, 1}
	// world direction = R^T dc
	d := Vec3{
		c.R[0][0]*dc.X + c.R[1][0]*dc.Y + c.R[2][0]*dc.Z,
		c.R[0][1]*dc.X + c.R[1][1]*dc.Y + c.R[2][1]*dc.Z,
		c.R[0][2]*dc.X + c.R[1][2]*dc.Y + c.R[2][2]*dc.Z,
	}
	o := c.Center()
	if math.Abs(d.Z) < 1e-9 {
		return Vec3{}, false
	}
	s := (h - o.Z) / d.Z
	if s <= 0 {
		return Vec3{}, false
	}
	return Vec3{o.X + s*d.X, o.Y + s*d.Y, h}, true
}

// Validate checks that the camera is usable: positive focal lengths and a
// rotation matrix.
func (c *Camera) Validate() error {
	if !(c.Fx > 0 && c.Fy > 0) || math.IsNaN(c.Cx) || math.IsNaN(c.Cy) {
		return fmt.Errorf("%w: focal lengths %g, %g must be positive", ErrCamera, c.Fx, c.Fy)
	}
	for i := 0; i < 3; i++ {
		for j := 0; j < 3; j++ {
			dot := 0.0
			for k := 0; k < 3; k++ {
				dot += c.R[i][k] * c.R[j][k]
			}
			want := 0.0
			if i == j {
				want = 1
			}
			if math.Abs(dot-want) > 1e-3 || math.IsNaN(dot) {
				return fmt.Errorf("%w: R is not a rotation (row %d . row %d = %.4f)", ErrCamera, i, j, dot)
			}
		}
	}
	r := c.R
	if det := r[0][0]*(r[1][1]*r[2][2]-r[1][2]*r[2][1]) - r[0][1]*(r[1][0]*r[2][2]-r[1][2]*r[2][0]) + r[0][2]*(r[1][0]*r[2][1]-r[1][1]*r[2][0]); det < 0 {
		return fmt.Errorf("%w: R is a reflection, not a rotation (determinant %.3f): the image would be read mirrored", ErrCamera, det)
	}
	if c.Center().Z <= 0 {
		return fmt.Errorf("%w: the camera is not above the table (z = %.1f mm)", ErrCamera, c.Center().Z)
	}
	// The optical axis in the world is R's third row; the table's normal
	// is +z.
	if tilt := math.Acos(max(-1, min(1, -r[2][2]))) * 180 / math.Pi; !(tilt <= MaxTiltDeg) {
		return fmt.Errorf("%w: the camera looks %.0f degrees away from straight down, more than %d (an overhead camera is wanted)", ErrCamera, tilt, MaxTiltDeg)
	}
	return nil
}

// MaxTiltDeg is how far from straight down a camera may look (the
// renders' cameras look at most 25 degrees away).
const MaxTiltDeg = 60

// ParseTruthCamera takes only the camera (intrinsics and pose) from a
// renderer truth file, nothing else of it; it stands in for calibration.
func ParseTruthCamera(data []byte) (Camera, error) {
	var tf struct {
		Camera *struct {
			Fx *float64    `json:"fx"`
			Fy *float64    `json:"fy"`
			Cx *float64    `json:"cx"`
			Cy *float64    `json:"cy"`
			R  [][]float64 `json:"R"`
			T  []float64   `json:"t"`
		} `json:"camera"`
	}
	if err := json.Unmarshal(data, &tf); err != nil {
		return Camera{}, fmt.Errorf("%w: %v", ErrCamera, err)
	}
	c := tf.Camera
	if c == nil {
		return Camera{}, fmt.Errorf("%w: no \"camera\" object", ErrCamera)
	}
	for name, f := range map[string]bool{"fx": c.Fx == nil, "fy": c.Fy == nil, "cx": c.Cx == nil, "cy": c.Cy == nil, "R": c.R == nil, "t": c.T == nil} {
		if f {
			return Camera{}, fmt.Errorf("%w: camera.%s missing", ErrCamera, name)
		}
	}
	// (exactly 3x3 and 3: a short array would be filled with zeros)
	if len(c.R) != 3 || len(c.R[0]) != 3 || len(c.R[1]) != 3 || len(c.R[2]) != 3 {
		return Camera{}, fmt.Errorf("%w: camera.R must be 3 rows of 3 numbers", ErrCamera)
	}
	if len(c.T) != 3 {
		return Camera{}, fmt.Errorf("%w: camera.t must be 3 numbers, got %d", ErrCamera, len(c.T))
	}
	cam := Camera{Fx: *c.Fx, Fy: *c.Fy, Cx: *c.Cx, Cy: *c.Cy}
	for i := range 3 {
		copy(cam.R[i][:], c.R[i])
	}
	copy(cam.T[:], c.T)
	return cam, cam.Validate()
}

// LoadTruthCamera reads the camera of a renderer truth file.
func LoadTruthCamera(path string) (Camera, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return Camera{}, fmt.Errorf("%w: %v", ErrCamera, err)
	}
	cam, err := ParseTruthCamera(data)
	if err != nil {
		return cam, fmt.Errorf("%s: %w", path, err)
	}
	return cam, nil
}

// Vec3 is a point or direction in world millimetres.
type Vec3 struct{ X, Y, Z float64 }

// Add returns a+b.
func (a Vec3) Add(b Vec3) Vec3 { return Vec3{a.X + b.X, a.Y + b.Y, a.Z + b.Z} }

// Scale returns s*a.
func (a Vec3) Scale(s float64) Vec3 { return Vec3{a.X * s, a.Y * s, a.Z * s} }
