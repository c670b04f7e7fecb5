package vision

import (
	"errors"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A camera 600 mm above the table looking straight down, image top edge
// towards +y.
func downCamera() Camera {
	return Camera{Fx: 1000, Fy: 1000, Cx: 639.5, Cy: 359.5,
		R: [3][3]float64{{1, 0, 0}, {0, -1, 0}, {0, 0, -1}}, T: [3]float64{0, 0, 600}}
}

func TestCameraProjectAndBack(t *testing.T) {
	c := downCamera()
	require.NoError(t, c.Validate())
	assert.Equal(t, Vec3{0, 0, 600}, c.Center())
	u, v, ok := c.Project(Vec3{0, 0, 0})
	require.True(t, ok)
	assert.InDelta(t, 639.5, u, 1e-9)
	assert.InDelta(t, 359.5, v, 1e-9)
	u, v, _ = c.Project(Vec3{60, 30, 0})
	assert.InDelta(t, 639.5+100, u, 1e-9, "60 mm at 600 mm is 100 px")
	assert.InDelta(t, 359.5-50, v, 1e-9, "+y is up in the image")
	for _, p := range []Vec3{{12, -40, 0}, {-100, 80, 16.4}, {3, 3, 96.4}} {
		u, v, ok := c.Project(p)
		require.True(t, ok)
		back, ok := c.OnPlane(u, v, p.Z)
		require.True(t, ok)
		assert.InDelta(t, p.X, back.X, 1e-9)
		assert.InDelta(t, p.Y, back.Y, 1e-9)
	}
	_, _, ok = c.Project(Vec3{0, 0, 700})
	assert.False(t, ok, "a point above the camera is behind it")
	// A stack's top slides away from the image centre as it rises.
	u1, _, _ := c.Project(Vec3{100, 0, 16})
	u6, _, _ := c.Project(Vec3{100, 0, 96})
	assert.Greater(t, u6, u1)
}

func TestParseTruthCamera(t *testing.T) {
	good := `{"camera":{"fx":1000,"fy":1000,"cx":639.5,"cy":359.5,"R":[[1,0,0],[0,-1,0],[0,0,-1]],"t":[0,0,600]},"cards":[{"building":"ignored"}]}`
	c, err := ParseTruthCamera([]byte(good))
	require.NoError(t, err)
	assert.Equal(t, downCamera(), c)
	cases := map[string]string{
		"not json":     `{`,
		"no camera":    `{"cards":[]}`,
		"no fx":        `{"camera":{"fy":1000,"cx":0,"cy":0,"R":[[1,0,0],[0,-1,0],[0,0,-1]],"t":[0,0,600]}}`,
		"no R":         `{"camera":{"fx":1,"fy":1000,"cx":0,"cy":0,"t":[0,0,600]}}`,
		"not rotation": `{"camera":{"fx":1000,"fy":1000,"cx":0,"cy":0,"R":[[2,0,0],[0,-1,0],[0,0,-1]],"t":[0,0,600]}}`,
		"below table":  `{"camera":{"fx":1000,"fy":1000,"cx":0,"cy":0,"R":[[1,0,0],[0,-1,0],[0,0,-1]],"t":[0,0,-600]}}`,
		"negative f":   `{"camera":{"fx":-1000,"fy":1000,"cx":0,"cy":0,"R":[[1,0,0],[0,-1,0],[0,0,-1]],"t":[0,0,600]}}`,
		"reflection":   `{"camera":{"fx":1000,"fy":1000,"cx":0,"cy":0,"R":[[-1,0,0],[0,-1,0],[0,0,-1]],"t":[0,0,600]}}`,
		"looking up":   `{"camera":{"fx":1000,"fy":1000,"cx":0,"cy":0,"R":[[1,0,0],[0,1,0],[0,0,1]],"t":[0,0,-600]}}`,
		"sideways":     `{"camera":{"fx":1000,"fy":1000,"cx":0,"cy":0,"R":[[1,0,0],[0,0,-1],[0,1,0]],"t":[0,600,0]}}`,
		"short t":      `{"camera":{"fx":1000,"fy":1000,"cx":0,"cy":0,"R":[[1,0,0],[0,-1,0],[0,0,-1]],"t":[1,2]}}`,
		"short R":      `{"camera":{"fx":1000,"fy":1000,"cx":0,"cy":0,"R":[[1,0,0],[0,-1,0]],"t":[0,0,600]}}`,
	}
	for name, in := range cases {
		t.Run(name, func(t *testing.T) {
			_, err := ParseTruthCamera([]byte(in))
			assert.ErrorIs(t, err, ErrCamera)
		})
	}
	_, err = LoadTruthCamera("testdata/no-such-file.json")
	assert.ErrorIs(t, err, ErrCamera)
}

func TestCardPoseAndSeat(t *testing.T) {
	m := Options{}.withDefaults().Model
	// A card south of the centre, printed top towards +y: seat 0.
	p := poseFromRect(m, Vec3{0, -120, 0}, Vec3{1, 0, 0})
	cs := p.corners(m)
	assert.InDelta(t, -55, cs[0].X, 1e-9)
	assert.InDelta(t, -120+35, cs[0].Y, 1e-9, "the printed top-left is on the side towards the centre")
	assert.Equal(t, 0, seatOf(p, DefaultSeatUp))
	assert.Equal(t, 2, seatOf(poseFromRect(m, Vec3{0, 120, 0}, Vec3{-1, 0, 0}), DefaultSeatUp))
	assert.Equal(t, 1, seatOf(poseFromRect(m, Vec3{-120, 0, 0}, Vec3{0, -1, 0}), DefaultSeatUp))
	assert.Equal(t, 3, seatOf(poseFromRect(m, Vec3{120, 0, 0}, Vec3{0, 1, 0}), DefaultSeatUp))
	assert.InDelta(t, 0, math.Abs(cs[1].X-cs[0].X)-m.CardWidth, 1e-9)
}

func TestConvexHullAndInside(t *testing.T) {
	h := convexHull([]pt2{{0, 0}, {4, 0}, {4, 4}, {0, 4}, {2, 2}, {1, 3}})
	assert.Len(t, h, 4)
	assert.True(t, insideAny([][]pt2{h}, 2, 2))
	assert.False(t, insideAny([][]pt2{h}, 5, 2))
	q := [4][2]float64{{0, 0}, {10, 0}, {10, 10}, {0, 10}}
	assert.True(t, insideQuad(q, 5, 5, 2))
	assert.False(t, insideQuad(q, 1, 5, 2), "within the margin of an edge")
}

// FuzzParseTruthCamera: any bytes give a camera that passes Validate or
// an ErrCamera, never a panic; a camera accepted projects the point on the
// table below it into view.
func FuzzParseTruthCamera(f *testing.F) {
	f.Add([]byte(`{"camera":{"fx":1000,"fy":1000,"cx":639.5,"cy":359.5,"R":[[1,0,0],[0,-1,0],[0,0,-1]],"t":[0,0,600]}}`))
	f.Add([]byte(`{"camera":{"fx":1000,"fy":1000,"cx":0,"cy":0,"R":[[1,0,0],[0,-1,0]],"t":[1,2]}}`))
	f.Add([]byte(`{"camera":{"fx":1e300,"fy":1e-300,"cx":1e12,"cy":0,"R":[[-1,0,0],[0,-1,0],[0,0,-1]],"t":[0,0,1e9]}}`))
	f.Add([]byte(`{"camera":null}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := ParseTruthCamera(data)
		if err != nil {
			if !errors.Is(err, ErrCamera) {
				t.Fatalf("error does not wrap ErrCamera: %v", err)
			}
			return
		}
		if err := c.Validate(); err != nil {
			t.Fatalf("accepted camera fails validation: %v", err)
		}
		o := c.Center()
		if _, _, ok := c.Project(Vec3{o.X, o.Y, 0}); !ok {
			t.Fatalf("an accepted camera does not see the table below it: %+v", c)
		}
	})
}
