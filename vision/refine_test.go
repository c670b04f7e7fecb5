package vision

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gocv.io/x/gocv"
)

// TestMovedMapsCardPoints checks the algebra of cardPose.moved: the card
// point (U, V) of the moved pose lies where the old pose had the point
// turned by th about (cu, cv) and slid by (a, b).
func TestMovedMapsCardPoints(t *testing.T) {
	p := poseFromRect(NewDetector(Options{}).opts.Model, Vec3{30, -40, 0.4}, Vec3{math.Cos(0.7), math.Sin(0.7), 0})
	a, b, th, cu, cv := 1.5, -2.25, 0.03, 55.0, 35.0
	q := p.moved(a, b, th, cu, cv)
	for _, pt := range [][2]float64{{0, 0}, {110, 0}, {110, 70}, {0, 70}, {55, 35}, {12.5, 61}} {
		U, V := pt[0], pt[1]
		c, s := math.Cos(th), math.Sin(th)
		want := p.at(cu+c*(U-cu)-s*(V-cv)+a, cv+s*(U-cu)+c*(V-cv)+b, 0.4)
		got := q.at(U, V, 0.4)
		assert.InDelta(t, want.X, got.X, 1e-9, "%v x", pt)
		assert.InDelta(t, want.Y, got.Y, 1e-9, "%v y", pt)
	}
	assert.InDelta(t, 1, q.u.X*q.u.X+q.u.Y*q.u.Y, 1e-12, "u stays a unit vector")
	assert.InDelta(t, 0, q.u.X*q.v.X+q.u.Y*q.v.Y, 1e-12, "u and v stay square")
}

// TestFitSlideTurnIgnoresStrays fits ridges made from a known slide and
// turn, a third of the probes also seeing a stray ridge (a die's edge, a
// hatching stroke) and a tenth seeing only one, and recovers the move.
func TestFitSlideTurnIgnoresStrays(t *testing.T) {
	d := NewDetector(Options{})
	defer d.Close()
	rng := rand.New(rand.NewPCG(3, 4))
	const a, b, th, cu, cv = 0.8, -1.1, 0.02, 55.0, 35.0
	d.ridges, d.ridgeT = d.ridges[:0], d.ridgeT[:0]
	for i, pr := range d.refineProbes() {
		t0 := a - th*(pr.v-cv)
		if pr.acrossV {
			t0 = b + th*(pr.u-cu)
		}
		lo := len(d.ridgeT)
		switch {
		case i%10 == 0:
			d.ridgeT = append(d.ridgeT, t0+2+rng.Float64()*3)
		case i%3 == 0:
			d.ridgeT = append(d.ridgeT, t0+0.05*rng.NormFloat64(), t0-2-rng.Float64()*3)
		default:
			d.ridgeT = append(d.ridgeT, t0+0.05*rng.NormFloat64())
		}
		d.ridges = append(d.ridges, probeRidges{pr, lo, len(d.ridgeT)})
	}
	ga, gb, gth, ok := d.fitSlideTurn(0.5, -0.5, cu, cv)
	require.True(t, ok)
	assert.InDelta(t, a, ga, 0.03, "slide along u")
	assert.InDelta(t, b, gb, 0.03, "slide along v")
	assert.InDelta(t, th, gth, 0.001, "turn")

	// too few ridges across the vertical lines: no fit
	d.ridges = d.ridges[:0]
	for i, pr := range d.refineProbes() {
		if pr.acrossV || i%20 == 0 {
			d.ridges = append(d.ridges, probeRidges{pr, 0, 1})
		}
	}
	_, _, _, ok = d.fitSlideTurn(0, 0, cu, cv)
	assert.False(t, ok, "a fit from a few ridges across vertical lines")
}

// TestRefinePoseOnRenders puts each card of two committed stills, no hand
// over it, where the renderer did (its truth), then moves it by up to 6 mm
// and 2.5 degrees, and refines: every corner must come back to within
// 1.5 px of the truth, and the truth itself must stay within half a pixel.
func TestRefinePoseOnRenders(t *testing.T) {
	d := NewDetector(Options{})
	defer d.Close()
	m := d.opts.Model
	cu, cv := m.CardWidth/2, m.CardHeight/2
	moves := [][3]float64{{0, 0, 0}, {5.5, 0, 0}, {0, -4, 0}, {0, 0, 2.5}, {-3, 2, -1.5}, {6, -2, 1}}
	cards := 0
	for _, still := range []string{"still_0001", "still_0002"} {
		data, err := os.ReadFile(filepath.Join(corpus, still+".json"))
		require.NoError(t, err)
		var tr struct {
			Image string `json:"image"`
			Cards []struct {
				Seat      int           `json:"seat"`
				CornersMM [4][3]float64 `json:"corners_mm"`
				CornersPx [4][2]float64 `json:"corners_px"`
				Occluded  [][2]int      `json:"occluded"`
			} `json:"cards"`
		}
		require.NoError(t, json.Unmarshal(data, &tr))
		cam, err := ParseTruthCamera(data)
		require.NoError(t, err)
		img := gocv.IMRead(filepath.Join(corpus, tr.Image), gocv.IMReadColor)
		require.False(t, img.Empty())
		d.img = newFrame(img)
		for _, tc := range tr.Cards {
			if len(tc.Occluded) > 0 {
				continue
			}
			cards++
			c := tc.CornersMM
			tl := Vec3{c[0][0], c[0][1], m.CardThickness}
			u := Vec3{c[1][0] - c[0][0], c[1][1] - c[0][1], 0}
			v := Vec3{c[3][0] - c[0][0], c[3][1] - c[0][1], 0}
			truth := cardPose{origin: tl, u: u.Scale(1 / math.Hypot(u.X, u.Y)), v: v.Scale(1 / math.Hypot(v.X, v.Y))}
			for _, mv := range moves {
				start := truth.moved(mv[0], mv[1], mv[2]*math.Pi/180, cu, cv)
				got, _ := d.refinePose(cam, start)
				worst := 0.0
				for k, w := range got.corners(m) {
					x, y, _ := cam.Project(w)
					worst = math.Max(worst, math.Hypot(x-tc.CornersPx[k][0], y-tc.CornersPx[k][1]))
				}
				limit := 1.5
				if mv == [3]float64{} {
					limit = 0.5
				}
				assert.LessOrEqual(t, worst, limit, "%s seat %d moved %v: farthest corner %.2f px off after refining", still, tc.Seat, mv, worst)
			}
		}
		d.img = frame{}
		img.Close()
	}
	assert.GreaterOrEqual(t, cards, 3, "cards tried")
}

// TestRefinePoseOnBareTable leaves a "card" on bare table where it is: no
// printed lines, no ridges, nothing to fit.
func TestRefinePoseOnBareTable(t *testing.T) {
	d := NewDetector(Options{})
	defer d.Close()
	img := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(60, 90, 120, 0), 720, 1280, gocv.MatTypeCV8UC3)
	defer img.Close()
	d.img = newFrame(img)
	defer func() { d.img = frame{} }()
	data, err := os.ReadFile(filepath.Join(corpus, "still_0001.json"))
	require.NoError(t, err)
	cam, err := ParseTruthCamera(data)
	require.NoError(t, err)
	p := poseFromRect(d.opts.Model, Vec3{0, 0, d.opts.Model.CardThickness}, Vec3{1, 0, 0})
	got, _ := d.refinePose(cam, p)
	assert.Equal(t, p, got)
}

// A card model without a printed frame (FrameInset 0) probes its grid's
// lines only; the shipped one probes the frame as well.
func TestRefineProbesFollowTheFrame(t *testing.T) {
	d := NewDetector(Options{})
	defer d.Close()
	m := d.opts.Model
	require.Greater(t, m.FrameInset, 0.0)
	onGrid := func(pr lineProbe) bool {
		g0u, g0v, cell := m.GridOrigin[0], m.GridOrigin[1], m.Cell
		if pr.acrossV {
			k := (pr.v - g0v) / cell
			return k == math.Round(k) && k >= 0 && k <= float64(m.Rows) && pr.u > g0u && pr.u < g0u+float64(m.Cols)*cell
		}
		k := (pr.u - g0u) / cell
		return k == math.Round(k) && k >= 0 && k <= float64(m.Cols) && pr.v > g0v && pr.v < g0v+float64(m.Rows)*cell
	}
	grid, frame := 0, 0
	for _, pr := range d.refineProbes() {
		if onGrid(pr) {
			grid++
		} else {
			frame++
		}
	}
	assert.Greater(t, frame, 100, "frame probes")
	m.FrameInset = 0
	bare := NewDetector(Options{Model: m})
	defer bare.Close()
	for _, pr := range bare.refineProbes() {
		assert.True(t, onGrid(pr), "%+v is not on a grid line", pr)
	}
	assert.Len(t, bare.refineProbes(), grid)
	assert.Equal(t, [2]int{bare.probeN[0] + bare.probeN[1], grid}, [2]int{len(bare.refineProbes()), grid})
}
