package synth

import (
	"context"
	"image"
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestTurnedOver: every twin shows 7-v on top, there is one per quarter
// turn of the side faces, and each stands square to the die's own yaw (its
// footprint is the die's).
func TestTurnedOver(t *testing.T) {
	for v := 1; v <= 6; v++ {
		for _, yaw := range []float64{0, 17, -95.5} {
			d := PlacedDie{Die: Die{Glass, v}}
			rots := TurnedOver(d, yaw)
			require.Len(t, rots, 4, "v %d", v)
			seen := map[Mat3]bool{}
			for _, rot := range rots {
				assert.Equal(t, 7-v, TopValue(rot), "v %d yaw %v", v, yaw)
				q := RotZ(-yaw * math.Pi / 180).Mul(rot)
				for i := range q {
					for j := range q[i] {
						q[i][j] = math.Round(q[i][j]*1e9) / 1e9
						assert.Contains(t, []float64{-1, 0, 1}, q[i][j], "v %d yaw %v: not square to the yaw", v, yaw)
					}
				}
				seen[q] = true
			}
			assert.Len(t, seen, 4, "v %d: four different quarter turns", v)
		}
	}
}

func filled(r image.Rectangle, c [3]uint8) *image.RGBA {
	img := image.NewRGBA(r)
	for i := 0; i < len(img.Pix); i += 4 {
		img.Pix[i], img.Pix[i+1], img.Pix[i+2], img.Pix[i+3] = c[0], c[1], c[2], 255
	}
	return img
}

// TestWhitenedDistance checks d′ against its closed forms: a grey step of
// D levels over N pixels is sqrt(N·3/(3+c²))·D/σ, a colour change of the
// same size that leaves the grey alone is seen far better (the noise is
// mostly shared by the channels), and the windows may sit anywhere.
func TestWhitenedDistance(t *testing.T) {
	r := image.Rect(40, 30, 50, 50) // 200 pixels
	a := filled(r, [3]uint8{100, 100, 100})
	assert.Zero(t, WhitenedDistance(a, a, r, 1.5))
	b := filled(r, [3]uint8{103, 103, 103})
	c2 := TwinNoiseChroma * TwinNoiseChroma
	want := math.Sqrt(200*3/(3+c2)) * 3 / 1.5
	assert.InDelta(t, want, WhitenedDistance(a, b, r, 1.5), 1e-9)
	chroma := filled(r, [3]uint8{103, 97, 100})
	// a zero-sum change: only the per-channel noise hides it
	wantC := math.Sqrt(200*18/c2) / 1.5
	assert.InDelta(t, wantC, WhitenedDistance(a, chroma, r, 1.5), 1e-9)
	assert.Greater(t, WhitenedDistance(a, chroma, r, 1.5), WhitenedDistance(a, b, r, 1.5))
	rms, most := GreyDifference(a, b, r)
	assert.InDelta(t, 3, rms, 1e-12)
	assert.InDelta(t, 3, most, 1e-12)
	rms, _ = GreyDifference(a, chroma, r)
	assert.InDelta(t, 0, rms, 1e-12)
	// a sub-window: only its pixels count
	sub := image.Rect(40, 30, 45, 50)
	assert.InDelta(t, want/math.Sqrt2, WhitenedDistance(a, b, sub, 1.5), 1e-9)
}

// TestGlassTwinsRender renders a scene's glass tops and their twins with
// two POV-Ray threads: without the lights' jitter two renders of the same
// scene are the same to the bit (with it, threads draw the jitter in no set
// order and every twin would differ by that alone: checked, d′ 30), and
// every twin differs from the die as it stands.
func TestGlassTwinsRender(t *testing.T) {
	requirePovray(t)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	sc := glassScene(t)
	sc.Post.NoiseSigma, sc.Post.BlurSigma = 1, 0.7
	twins, err := GlassTwins(ctx, sc, RenderOptions{Threads: 2}, false)
	require.NoError(t, err)
	require.NotEmpty(t, twins)
	tw := twins[0]
	again, err := renderWindow(ctx, sc, RenderOptions{Threads: 2}, twinWindow{outer: tw.Images[0].Bounds(), inner: tw.Window})
	require.NoError(t, err)
	assert.Zero(t, WhitenedDistance(tw.Images[0], again, tw.Window, 1), "the same scene rendered twice")
	for _, tw := range twins {
		require.Len(t, tw.DPrime, 4)
		v := int(tw.Stack[len(tw.Stack)-1] - '0')
		assert.Equal(t, []int{7 - v, 7 - v, 7 - v, 7 - v}, tw.Values, "%v", tw)
		assert.Equal(t, 7-v, tw.Closest)
		require.Len(t, tw.RMS, 4)
		for _, r := range tw.RMS {
			assert.Positive(t, r, "%v", tw)
		}
		assert.Contains(t, tw.RMS, tw.GreyRMS, "the closest twin's difference is among the twins'")
		assert.Greater(t, tw.Min, 0.0, "%v", tw)
		assert.Greater(t, tw.GreyRMS, 0.0, "%v", tw)
		assert.InDelta(t, 0.5*math.Erfc(tw.Min/2/math.Sqrt2), tw.PError, 1e-12)
	}
}

// TestGlassVariants: each variant's glass tops show the next values in
// turn (truth and pose agree), the other dice stay, and with no camera
// noise the image changes only inside the changed dice's windows.
func TestGlassVariants(t *testing.T) {
	requirePovray(t)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	sc := glassScene(t)
	sc.Post = Post{JPEGQuality: 95} // no blur, no noise: pixels outside the windows must match
	vs, err := GlassVariants(ctx, sc, RenderOptions{}, 2, rand.New(rand.NewPCG(1, 2)))
	require.NoError(t, err)
	require.Len(t, vs, 3)
	assert.Same(t, sc, vs[0].Scene)
	for j := 1; j < 3; j++ {
		alt := vs[j].Scene
		var wins []image.Rectangle
		for ci, c := range sc.Cards {
			for r := 0; r < 3; r++ {
				for col := 0; col < 2; col++ {
					d, a := c.Dice[r][col], alt.Cards[ci].Dice[r][col]
					require.Len(t, a, len(d))
					for k := range d {
						top := k == len(d)-1
						if !top || d[k].Mat != Glass {
							assert.Equal(t, d[k], a[k], "a die that is not a glass top stays")
							continue
						}
						want := 1 + (d[k].Pips-1+j)%6
						assert.Equal(t, want, a[k].Pips)
						assert.Equal(t, want, TopValue(a[k].Rot), "the pose shows the value")
						assert.Equal(t, want, alt.Cards[ci].Building[r][col][k].Pips, "the truth says it")
						assert.Equal(t, d[k].Pips, c.Building[r][col][k].Pips, "the scene itself is left alone")
						w, ok := dieWindow(sc.Cam, d[k], sc.Model.Die, 0)
						require.True(t, ok)
						wins = append(wins, w.outer)
					}
				}
			}
		}
		require.NotEmpty(t, wins)
		base, img := vs[0].Image, vs[j].Image
		changedIn, changedOut := 0, 0
		for y := 0; y < img.Rect.Dy(); y++ {
			for x := 0; x < img.Rect.Dx(); x++ {
				o := img.PixOffset(x, y)
				if base.Pix[o] == img.Pix[o] && base.Pix[o+1] == img.Pix[o+1] && base.Pix[o+2] == img.Pix[o+2] {
					continue
				}
				in := false
				for _, w := range wins {
					in = in || image.Pt(x, y).In(w)
				}
				if in {
					changedIn++
				} else {
					changedOut++
				}
			}
		}
		assert.Positive(t, changedIn, "variant %d: the glass tops changed", j)
		assert.Zero(t, changedOut, "variant %d: pixels changed outside the dice's windows", j)
	}
}

// glassScene is the first clean scene (cleanScene) with a glass top.
func glassScene(t *testing.T) *Scene {
	t.Helper()
	for seed := uint64(1); seed < 60; seed++ {
		if s := cleanScene(t, seed); len(GlassTops(s)) > 0 {
			return s
		}
	}
	t.Fatal("no scene with a glass top")
	return nil
}
