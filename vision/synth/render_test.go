package synth

import (
	"context"
	"fmt"
	"image"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/blueprints-companion/blueprints/vision/cardmodel"
)

// requirePovray fails (not skips) when povray is missing: make test
// installs it, so its absence is a broken setup.
func requirePovray(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("povray"); err != nil {
		t.Fatalf("povray is not installed (Debian package povray; `make test-deps` installs it): %v", err)
	}
}

func testCatalogue(t *testing.T) []Blueprint {
	t.Helper()
	cat, err := LoadCatalogue("../../configs/blueprints.json")
	require.NoError(t, err)
	return cat
}

func isBlue(r, g, b float64) bool { return b > r+25 && b > g+10 }

func rgbAt(img image.Image, u, v float64) (float64, float64, float64) {
	c := img.At(int(math.Round(u)), int(math.Round(v)))
	r, g, b, _ := c.RGBA()
	return float64(r >> 8), float64(g >> 8), float64(b >> 8)
}

// cleanScene is a small, noise-free scene: one card on a plain light
// table, top-down-ish, for exact measurements.
func cleanScene(t *testing.T, seed uint64) *Scene {
	t.Helper()
	opt := Options{Model: cardmodel.Default(), Catalogue: testCatalogue(t), Players: 2, Width: 640, Height: 360, HandProb: -1, ScreenProb: -1, GlareProb: -1}
	sc, err := Generate(seed, opt)
	require.NoError(t, err)
	sc.Post = Post{JPEGQuality: 95}
	sc.Table = Table{Kind: "plain", Color: [3]float64{0.85, 0.85, 0.82}, Color2: [3]float64{0.85, 0.85, 0.82}, Scale: 50}
	return sc
}

// TestProjectionMatchesRender renders scenes and checks that the stored
// camera puts each card where POV-Ray drew it: the centroid of the blue
// card pixels against the centroid of the projected card (card area not
// covered by dice), and the colour at each projected top-die centre.
func TestProjectionMatchesRender(t *testing.T) {
	requirePovray(t)
	for _, seed := range []uint64{3, 5} {
		sc := cleanScene(t, seed)
		img, err := Render(context.Background(), sc, RenderOptions{})
		require.NoError(t, err)
		tr := TruthOf(sc, "x.jpg")

		for ci := range sc.Cards {
			errs := cardEdgeErrors(img, tr.Camera, tr.Cards[ci])
			require.GreaterOrEqual(t, len(errs), 8, "seed %d card %d: too few visible card edges", seed, ci)
			sum, worst := 0.0, 0.0
			for _, e := range errs {
				sum += math.Abs(e)
				worst = math.Max(worst, math.Abs(e))
			}
			t.Logf("seed %d card %d: card edge projection error mean %.2f px, max %.2f px over %d samples", seed, ci, sum/float64(len(errs)), worst, len(errs))
			assert.Less(t, sum/float64(len(errs)), 1.0, "mean edge error")
			assert.Less(t, worst, 2.0, "max edge error")
			// corners: 2 px inside is blue, 3 px outside is not
			cs := tr.Cards[ci].CornersPx
			cx := (cs[0][0] + cs[1][0] + cs[2][0] + cs[3][0]) / 4
			cy := (cs[0][1] + cs[1][1] + cs[2][1] + cs[3][1]) / 4
			for k, c := range cs {
				dx, dy := cx-c[0], cy-c[1]
				l := math.Hypot(dx, dy)
				ix, iy := c[0]+dx/l*2.5, c[1]+dy/l*2.5
				ox, oy := c[0]-dx/l*3, c[1]-dy/l*3
				assert.True(t, isBlue(rgbAt(img, ix, iy)), "seed %d card %d corner %d inside", seed, ci, k)
				assert.False(t, isBlue(rgbAt(img, ox, oy)), "seed %d card %d corner %d outside", seed, ci, k)
			}
			// top dice: the colour at the projected top centre
			for _, cell := range tr.Cards[ci].Cells {
				if cell.Top == "" {
					continue
				}
				d, _ := ParseDie(cell.Top)
				if d.Mat == Glass {
					continue
				}
				r, g, b := rgbAt(img, cell.TopPx[0], cell.TopPx[1])
				if d.Pips%2 == 1 {
					// the centre pip: white
					assert.Greater(t, r+g+b, 450.0, "seed %d %s centre pip at %v", seed, cell.Top, cell.TopPx)
					continue
				}
				switch d.Mat {
				case Wood:
					assert.True(t, r > g+40 && g > b, "seed %d %s orange at %v: %v %v %v", seed, cell.Top, cell.TopPx, r, g, b)
				case Recycled:
					assert.True(t, g > r+15 && g > b+25, "seed %d %s green at %v: %v %v %v", seed, cell.Top, cell.TopPx, r, g, b)
				case Stone:
					assert.Less(t, r+g+b, 200.0, "seed %d %s black at %v", seed, cell.Top, cell.TopPx)
				}
			}
		}
	}
}

// blueness is how blue a pixel is (bilinear). It is linear in the pixel
// values so that a blurred edge crosses the midpoint where the edge is.
func blueness(img image.Image, u, v float64) float64 {
	x0, y0 := math.Floor(u), math.Floor(v)
	fx, fy := u-x0, v-y0
	at := func(x, y float64) float64 {
		r, g, b := rgbAt(img, x, y)
		return b - (r+g)/2
	}
	return at(x0, y0)*(1-fx)*(1-fy) + at(x0+1, y0)*fx*(1-fy) + at(x0, y0+1)*(1-fx)*fy + at(x0+1, y0+1)*fx*fy
}

// cardEdgeErrors measures the card outline of truth card c against the
// image: the printed face (the truth corners) and, where an oblique view
// shows it, the card's 0.4 mm side below it, which is blue too.
func cardEdgeErrors(img image.Image, cam TruthCamera, c TruthCard) []float64 {
	var bottom [4][2]float64
	for k, p := range c.CornersMM {
		p[2] = 0
		u, v, _ := cam.Project(p)
		bottom[k] = [2]float64{u, v}
	}
	return edgeErrors(img, c.CornersPx, &bottom)
}

// edgeErrors measures, along each edge of the projected card, where the
// rendered blue card actually ends: the signed distance in pixels from the
// projected edge to the blue/not-blue transition (positive: outside).
// If bottom is given (the card's lower outline), the expected edge is the
// outer of the two. Samples where a die, a shadow or the frame edge spoils
// the profile are left out.
func edgeErrors(img image.Image, cs [4][2]float64, bottom *[4][2]float64) []float64 {
	var out []float64
	cx := (cs[0][0] + cs[1][0] + cs[2][0] + cs[3][0]) / 4
	cy := (cs[0][1] + cs[1][1] + cs[2][1] + cs[3][1]) / 4
	b := img.Bounds()
	for k := 0; k < 4; k++ {
		a, e := cs[k], cs[(k+1)%4]
		dx, dy := e[0]-a[0], e[1]-a[1]
		l := math.Hypot(dx, dy)
		nx, ny := dy/l, -dx/l
		if (a[0]+e[0])/2*0+((a[0]+e[0])/2-cx)*nx+((a[1]+e[1])/2-cy)*ny < 0 {
			nx, ny = -nx, -ny // outward
		}
		for f := 0.15; f <= 0.86; f += 0.1 {
			px, py := a[0]+dx*f, a[1]+dy*f
			in := blueness(img, px-nx*5, py-ny*5)
			outv := blueness(img, px+nx*5, py+ny*5)
			if px < 8 || py < 8 || px > float64(b.Dx()-9) || py > float64(b.Dy()-9) || in < 50 || outv > 15 {
				continue
			}
			// from outside inwards: the first crossing is the card's edge (the
			// white frame line printed inside it comes later)
			expect := 0.0
			if bottom != nil {
				bx, by := bottom[k][0], bottom[k][1]
				expect = math.Max(0, (bx-px)*nx+(by-py)*ny)
			}
			mid := (in + outv) / 2
			prev := outv
			for s := 5.0; s >= -5; s -= 0.1 {
				cur := blueness(img, px+nx*s, py+ny*s)
				if cur > mid {
					// linear interpolation between s+0.1 and s
					out = append(out, s+0.1-0.1*(mid-prev)/(cur-prev)-expect)
					break
				}
				prev = cur
			}
		}
	}
	return out
}

// TestRenderStopsOnCancel: cancelling the context kills povray and returns
// promptly with the cause.
func TestRenderStopsOnCancel(t *testing.T) {
	requirePovray(t)
	opt := Options{Model: cardmodel.Default(), Catalogue: testCatalogue(t), Players: 4, Width: 1920, Height: 1080}
	sc, err := Generate(9, opt)
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	go func() { <-time.After(300 * time.Millisecond); cancel() }()
	_, err = Render(ctx, sc, RenderOptions{})
	require.Error(t, err)
	assert.ErrorIs(t, err, context.Canceled)
}

func TestRenderMissingPovray(t *testing.T) {
	sc := cleanScene(t, 3)
	_, err := Render(context.Background(), sc, RenderOptions{Povray: "/nonexistent/povray"})
	require.Error(t, err)
	assert.ErrorIs(t, err, ErrNoPovray)
}

func TestPostProcessKeepsSizeAndIsSeeded(t *testing.T) {
	src := image.NewRGBA(image.Rect(0, 0, 40, 30))
	for i := range src.Pix {
		src.Pix[i] = uint8(i * 7)
	}
	a := PostProcess(src, Post{NoiseSigma: 2, BlurSigma: 0.8}, 1)
	b := PostProcess(src, Post{NoiseSigma: 2, BlurSigma: 0.8}, 1)
	assert.Equal(t, src.Bounds(), a.Bounds())
	assert.Equal(t, a.Pix, b.Pix)
}

// standInPovray writes a script that stands in for povray: it fails with
// message the first fails times it runs, then writes a 4x3 PNG as
// POV-Ray's raw.png. It returns the script and the file counting its runs.
func standInPovray(t *testing.T, fails int, message string) (bin, count string) {
	t.Helper()
	dir := t.TempDir()
	img := image.NewRGBA(image.Rect(0, 0, 4, 3))
	for i := range img.Pix {
		img.Pix[i] = 200
	}
	png := filepath.Join(dir, "out.png")
	require.NoError(t, writePNG(png, img))
	count = filepath.Join(dir, "runs")
	bin = filepath.Join(dir, "povray")
	script := fmt.Sprintf(`#!/bin/sh
n=$(cat %[1]q 2>/dev/null || echo 0); n=$((n+1)); echo $n > %[1]q
if [ $n -le %[2]d ]; then echo %[3]q >&2; exit 1; fi
cp %[4]q raw.png
`, count, fails, message, png)
	require.NoError(t, os.WriteFile(bin, []byte(script), 0o755))
	return bin, count
}

func runsOf(t *testing.T, count string) string {
	t.Helper()
	b, err := os.ReadFile(count)
	require.NoError(t, err)
	return strings.TrimSpace(string(b))
}

// POV-Ray's threads timing out at startup (a loaded machine) is tried
// again, up to povrayTries runs in all; any other failure is reported at
// once, with what POV-Ray said.
func TestRenderRetriesThreadStartupTimeout(t *testing.T) {
	sc := cleanScene(t, 3)
	bin, count := standInPovray(t, povrayTries-1, povrayStartupTimeout)
	img, err := Render(context.Background(), sc, RenderOptions{Povray: bin, Raw: true})
	require.NoError(t, err)
	assert.Equal(t, image.Rect(0, 0, 4, 3), img.Bounds())
	assert.Equal(t, fmt.Sprint(povrayTries), runsOf(t, count), "failed twice, rendered the third time")

	bin, count = standInPovray(t, povrayTries, povrayStartupTimeout)
	_, err = Render(context.Background(), sc, RenderOptions{Povray: bin, Raw: true})
	require.Error(t, err)
	assert.ErrorContains(t, err, povrayStartupTimeout)
	assert.Equal(t, fmt.Sprint(povrayTries), runsOf(t, count), "gives up after povrayTries runs")

	bin, count = standInPovray(t, 1, "Parse Error: No matching } in object")
	_, err = Render(context.Background(), sc, RenderOptions{Povray: bin, Raw: true})
	require.Error(t, err)
	assert.ErrorContains(t, err, "Parse Error")
	assert.Equal(t, "1", runsOf(t, count), "another failure is not tried again")
}
