package synth

import (
	"context"
	"image"
	"math"
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
	var sc *Scene
	for seed := uint64(1); seed < 60 && sc == nil; seed++ {
		s := cleanScene(t, seed)
		for _, c := range s.Cards {
			for r := 0; r < 3; r++ {
				for col := 0; col < 2; col++ {
					if d := c.Dice[r][col]; len(d) > 0 && d[len(d)-1].Mat == Glass {
						sc = s
					}
				}
			}
		}
	}
	require.NotNil(t, sc, "no scene with a glass top")
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
		assert.Greater(t, tw.Min, 0.0, "%v", tw)
		assert.Greater(t, tw.GreyRMS, 0.0, "%v", tw)
		assert.InDelta(t, 0.5*math.Erfc(tw.Min/2/math.Sqrt2), tw.PError, 1e-12)
	}
}
