package vision

import (
	"image"
	"image/color"
	"math"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gocv.io/x/gocv"
)

// TestFitSpacing: points laid out as a pip pattern, scaled, turned and
// moved, give back their scale with no residual, turned a quarter too; a
// pip moved off its place leaves a residual; fewer than two pips, none.
func TestFitSpacing(t *testing.T) {
	for v := 2; v <= 6; v++ {
		for _, turned := range []bool{false, true} {
			layout := pipLayout[v-1]
			const s, th, cx, cy = 4.7, 0.07, 31.5, -12.25
			pts := make([][2]float64, len(layout))
			for i, o := range layout {
				a, b := o[0], o[1]
				if turned {
					a, b = -o[1], o[0]
				}
				pts[i] = [2]float64{cx + s*(math.Cos(th)*a-math.Sin(th)*b), cy + s*(math.Sin(th)*a+math.Cos(th)*b)}
			}
			got, resid, ok := fitSpacing(layout, pts, turned)
			require.True(t, ok, "value %d", v)
			assert.InDelta(t, s, got, 1e-9, "value %d turned %v", v, turned)
			assert.InDelta(t, 0, resid, 1e-9, "value %d turned %v", v, turned)
			if v >= 3 {
				pts[0][0] += 0.5
				_, resid, ok = fitSpacing(layout, pts, turned)
				require.True(t, ok)
				assert.Greater(t, resid, 0.05, "value %d: a pip off its place", v)
			}
		}
	}
	_, _, ok := fitSpacing(pipLayout[0], [][2]float64{{1, 2}}, false)
	assert.False(t, ok, "one pip has no spacing")
	_, _, ok = fitSpacing(pipLayout[1], [][2]float64{{1, 2}}, false)
	assert.False(t, ok, "fewer points than pips")
}

// TestPipScaleTrusted: a measurement is taken only when it fits the layout
// closely and lies near a whole height of 1..6.
func TestPipScaleTrusted(t *testing.T) {
	for _, c := range []struct {
		h, resid, spread float64
		want             int
		ok               bool
	}{
		{3.05, 0.01, 5, 3, true},
		{0.8, 0.05, 12, 1, true},
		{6.2, 0, 39, 6, true},
		{3.5, 0.01, 5, 0, false},   // halfway between two heights
		{4.0, 0.4, 5, 0, false},    // the pips off the layout
		{4.0, 0.01, 120, 0, false}, // one "pip" another colour: a neighbour's die
		{0.1, 0.01, 5, 0, false},   // no stack that low
		{7.0, 0.01, 5, 0, false},   // nor that high
		{-3.9, 0.01, 5, 0, false},  // a wrong pip taken for one
	} {
		k, ok := pipScaleTrusted(pipMeasure{height: c.h, resid: c.resid, spread: c.spread})
		assert.Equal(t, c.ok, ok, "%+v", c)
		assert.Equal(t, c.want, k, "%+v", c)
	}
}

// TestPipScaleHeightOnTheBench measures, for every stack of the bench
// corpus on a card under the camera whose top is not clear glass and
// shows two or more pips (and that no hand, screen or other stack
// covers), its height from its pips' spacing, starting from its true
// height and pips, and checks the measurements pipScaleTrusted takes:
// every one of them gives the true height, and they are most of the
// stacks (42 of the 46 there when written).
func TestPipScaleHeightOnTheBench(t *testing.T) {
	d := NewDetector(Options{})
	defer d.Close()
	var stacks, trusted, right int
	var off []string
	eachStill(t, 1, func(tr truthFile, img gocv.Mat, cam Camera) {
		res, err := d.Detect(img, cam)
		require.NoError(t, err)
		d.img = newFrame(img)
		defer func() { d.img = frame{} }()
		used := make([]bool, len(res.Cards))
		for _, tc := range tr.Cards {
			i, e := nearestCard(res.Cards, used, tc.CornersPx)
			if i < 0 || e > 8 {
				continue
			}
			used[i] = true
			c := &res.Cards[i]
			if !c.UnderCamera {
				continue
			}
			covered := map[[2]int]bool{}
			for _, ce := range tc.Cells {
				if ce.Hand > 0 || ce.Screen > 0 || ce.Dice >= 0.3 {
					covered[[2]int{ce.Row, ce.Col}] = true
				}
			}
			for r := 0; r < 3; r++ {
				for col := 0; col < 2; col++ {
					st := strings.Fields(tc.Building[r][col])
					if len(st) == 0 || covered[[2]int{r, col}] {
						continue
					}
					top := st[len(st)-1]
					pips := int(top[1] - '0')
					if top[0] == 'G' || pips < 2 {
						continue
					}
					stacks++
					pm, ok := d.pipScaleHeight(cam, c.pose, r, col, len(st), pips)
					if !ok {
						continue
					}
					if k, ok := pipScaleTrusted(pm); ok {
						trusted++
						if k == len(st) {
							right++
						} else {
							off = append(off, tr.Image)
						}
					}
				}
			}
		}
	})
	t.Logf("bench: %d stacks under the camera with a top of 2-6 pips not glass; %d measured cleanly, %d of them at the true height", stacks, trusted, right)
	assert.GreaterOrEqual(t, stacks, 40, "stacks to measure")
	assert.Equal(t, trusted, right, "every trusted measurement at the true height (off: %v)", off)
	assert.GreaterOrEqual(t, float64(trusted), 0.88*float64(stacks), "most stacks measured cleanly")
}

// TestPipScaleMendsHeightUnderCamera pins a four-high stack on a card
// under the camera (fresh corpus 2115, still_0118, seat 2, row 2 column
// 2: W3 W4 S5 W5) that the nadir height networks read five high, 0.82
// sure. Its five pips' spacing gives 4.1 dice, so it reads four high now;
// with the measurement off (Options.NoPipScale) it still reads five.
func TestPipScaleMendsHeightUnderCamera(t *testing.T) {
	stackReadAs(t, "testdata/stacks", "fresh2115_0118", 2, 1, 1, "W3 W4 S5 W5", 4, "W5")
	d := NewDetector(Options{NoPipScale: true})
	defer d.Close()
	tr, res := detectStill(t, d, "testdata/stacks", "fresh2115_0118")
	for _, tc := range tr.Cards {
		if tc.Seat != 2 {
			continue
		}
		i, e := nearestCard(res.Cards, make([]bool, len(res.Cards)), tc.CornersPx)
		require.GreaterOrEqual(t, i, 0)
		require.Less(t, e, 60.0)
		c := res.Cards[i]
		require.True(t, c.UnderCamera, "the card lies under the camera")
		if cell := c.Cells[1][1]; assert.NotNil(t, cell) {
			assert.Equal(t, 5, cell.Height, "the networks alone read it five high")
		}
	}
}

// TestPipScaleHeightDrawn draws, under a camera 800 mm above the table
// (a die's edge about 29 px), the top face of a stack of each height 1-6
// on a card's cell — an orange square with the white pips of each value
// 2-6 at their places, each pixel blended by the share a pip covers — and
// checks, starting from a die higher, that the pips' spacing gives back
// that height within 0.05 of a die (0.036 at worst when written) and the
// pips fit their layout within 0.02 mm (0.009); and that a face outside
// the frame, or a one, is not measured.
func TestPipScaleHeightDrawn(t *testing.T) {
	cam := Camera{Fx: 1400, Fy: 1400, Cx: 640, Cy: 360, R: [3][3]float64{{1, 0, 0}, {0, -1, 0}, {0, 0, -1}}, T: [3]float64{0, 0, 800}}
	d := NewDetector(Options{})
	defer d.Close()
	m := d.opts.Model
	pose := poseFromRect(m, Vec3{30, -20, m.CardThickness}, Vec3{math.Cos(0.4), math.Sin(0.4), 0})
	const row, col = 1, 0
	cu, cv := m.CellCenter(row, col)
	for h := 1; h <= MaxStack; h++ {
		for v := 2; v <= 6; v++ {
			img := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(120, 90, 60, 0), 720, 1280, gocv.MatTypeCV8UC3)
			z := m.CardThickness + float64(h)*m.Die
			var face []image.Point
			half := 0.5 * m.Die
			for _, c := range [][2]float64{{-1, -1}, {1, -1}, {1, 1}, {-1, 1}} {
				x, y, ok := cam.Project(pose.at(cu+c[0]*half, cv+c[1]*half, z))
				require.True(t, ok)
				face = append(face, image.Pt(int(math.Round(x)), int(math.Round(y))))
			}
			pv := gocv.NewPointsVectorFromPoints([][]image.Point{face})
			gocv.FillPoly(&img, pv, color.RGBA{40, 130, 240, 0})
			pv.Close()
			sp := PipSpacing * m.Die
			for _, o := range pipLayout[v-1] {
				x, y, _ := cam.Project(pose.at(cu+o[0]*sp, cv+o[1]*sp, z))
				x1, y1, _ := cam.Project(pose.at(cu+o[0]*sp+1, cv+o[1]*sp, z))
				paintDisc(img, x, y, 0.092*m.Die*math.Hypot(x1-x, y1-y), [3]uint8{245, 245, 245})
			}
			d.img = newFrame(img)
			pm, ok := d.pipScaleHeight(cam, pose, row, col, min(h+1, MaxStack), v)
			d.img = frame{}
			img.Close()
			if assert.True(t, ok, "height %d, value %d", h, v) {
				assert.InDelta(t, float64(h), pm.height, 0.05, "height %d, value %d", h, v)
				assert.Less(t, pm.resid, 0.02, "height %d, value %d", h, v)
				k, trusted := pipScaleTrusted(pm)
				assert.True(t, trusted, "height %d, value %d: %+v", h, v, pm)
				assert.Equal(t, h, k, "height %d, value %d", h, v)
			}
		}
	}
	// a face off the frame
	img := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(120, 90, 60, 0), 100, 100, gocv.MatTypeCV8UC3)
	defer img.Close()
	d.img = newFrame(img)
	_, ok := d.pipScaleHeight(cam, pose, row, col, 3, 5)
	d.img = frame{}
	assert.False(t, ok, "a face outside the frame is not measured")
	_, ok = d.pipScaleHeight(cam, pose, row, col, 3, 1)
	assert.False(t, ok, "a one has no spacing")
}

// paintDisc paints a disc of radius r px centred at (x, y) (pixel centres
// at whole coordinates) on img, each pixel blended by the share of it
// the disc covers (16x16 samples).
func paintDisc(img gocv.Mat, x, y, r float64, bgr [3]uint8) {
	for iy := int(y - r - 1); iy <= int(y+r+1); iy++ {
		for ix := int(x - r - 1); ix <= int(x+r+1); ix++ {
			in := 0
			for sy := 0; sy < 16; sy++ {
				for sx := 0; sx < 16; sx++ {
					px := float64(ix) - 0.5 + (float64(sx)+0.5)/16
					py := float64(iy) - 0.5 + (float64(sy)+0.5)/16
					if (px-x)*(px-x)+(py-y)*(py-y) <= r*r {
						in++
					}
				}
			}
			if in == 0 {
				continue
			}
			a := float64(in) / 256
			for c := 0; c < 3; c++ {
				old := float64(img.GetUCharAt(iy, ix*3+c))
				img.SetUCharAt(iy, ix*3+c, uint8(math.Round((1-a)*old+a*float64(bgr[c]))))
			}
		}
	}
}
