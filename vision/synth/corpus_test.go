package synth

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The committed corpus: tests read it and need no rendering.
var corpusDir = func() string {
	if d := os.Getenv("SYNTH_CORPUS"); d != "" {
		return d // another corpus in the same format
	}
	return "../testdata/synth"
}()

func readManifest(t *testing.T) *Manifest {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(corpusDir, "manifest.json"))
	require.NoError(t, err, "the corpus is committed in vision/testdata/synth (make corpus)")
	var m Manifest
	require.NoError(t, json.Unmarshal(b, &m))
	return &m
}

func TestCorpusIsComplete(t *testing.T) {
	man := readManifest(t)
	assert.GreaterOrEqual(t, man.Stills, 300)
	assert.GreaterOrEqual(t, len(man.Sequences), 4)
	players := map[int]bool{}
	for _, s := range man.Sequences {
		players[s.Players] = true
		assert.Equal(t, 1+18*s.Players, s.Frames, s.Name)
	}
	assert.Len(t, players, 4, "sequences for 1 to 4 players")
	var total int64
	n := 0
	err := filepath.Walk(corpusDir, func(p string, info os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		if !info.IsDir() {
			total += info.Size()
		}
		if strings.HasSuffix(p, ".json") && filepath.Base(p) != "manifest.json" {
			n++
			tr, err := ReadTruthFile(p)
			require.NoError(t, err)
			assert.FileExists(t, filepath.Join(filepath.Dir(p), tr.Image))
		}
		return nil
	})
	require.NoError(t, err)
	assert.Equal(t, man.Images, n, "one truth file per image")
	t.Logf("corpus: %d images, %.1f MB on disk", n, float64(total)/1e6)
	assert.Less(t, total, int64(60e6), "the corpus stays under 60 MB")
}

func TestCorpusIsBalanced(t *testing.T) {
	c := readManifest(t).Counts
	share := func(m map[string]int, keys string) map[string]float64 {
		tot := 0
		for _, v := range m {
			tot += v
		}
		out := map[string]float64{}
		for _, k := range keys {
			out[string(k)] = float64(m[string(k)]) / float64(tot)
		}
		return out
	}
	for k, s := range share(c.Materials, "WRSG") {
		assert.InDelta(t, 0.25, s, 0.03, "material %s", k)
	}
	for k, s := range share(c.TopPips, "123456") {
		assert.InDelta(t, 1.0/6, s, 0.03, "top value %s", k)
	}
	for k, s := range share(c.Heights, "123456") {
		assert.Greater(t, s, 0.10, "stack height %s", k)
	}
	assert.Greater(t, c.WithHand, 50)
	assert.Greater(t, c.WithScreen, 40)
	assert.Greater(t, c.WithGlare, 30)
	assert.Len(t, c.Tables, 3)
	assert.Len(t, c.Resolutions, 2)
}

// TestCorpusTruthLandsOnTheImage projects, with the stored camera, every
// card's outline and every visible top die of a sample of corpus stills
// and checks the rendered pixels: the blue card edge must lie where the
// projected edge is (measured to a fraction of a pixel), and the colour at
// a top die's projected centre must be that die's material.
func TestCorpusTruthLandsOnTheImage(t *testing.T) {
	var all []float64
	var diceOK, diceN int
	for i := 0; i < 300; i += 23 {
		if os.Getenv("CORPUS_PARTIAL") != "" && i > 25 {
			break
		}
		path := filepath.Join(corpusDir, "stills", fmt.Sprintf("still_%04d.json", i))
		tr, err := ReadTruthFile(path)
		require.NoError(t, err)
		img, err := DecodeFile(filepath.Join(corpusDir, "stills", tr.Image))
		require.NoError(t, err)
		for _, c := range tr.Cards {
			// recompute the corners from the stored camera and the stored
			// world corners: the truth agrees with itself
			for k, p := range c.CornersMM {
				u, v, ok := tr.Camera.Project(p)
				require.True(t, ok)
				assert.InDelta(t, c.CornersPx[k][0], u, 0.01)
				assert.InDelta(t, c.CornersPx[k][1], v, 0.01)
			}
			all = append(all, cardEdgeErrors(img, tr.Camera, c)...)
			for _, cell := range c.Cells {
				if cell.Top == "" || cell.Hand > 0 || cell.Screen > 0 {
					continue
				}
				d, err := ParseDie(cell.Top)
				require.NoError(t, err)
				if d.Mat == Glass || d.Pips%2 == 1 {
					continue // glass shows the table; odd values have a pip in the centre
				}
				diceN++
				r, g, b := rgbAt(img, cell.TopPx[0], cell.TopPx[1])
				ok := false
				switch d.Mat {
				case Wood:
					ok = r > g+30 && g > b
				case Recycled:
					ok = g > r+15 && g > b+15
				case Stone:
					ok = r+g+b < 330 && math.Max(r, math.Max(g, b))-math.Min(r, math.Min(g, b)) < 60
				}
				if ok {
					diceOK++
				} else {
					t.Logf("%s: %s at %v looks %v,%v,%v", tr.Image, cell.Top, cell.TopPx, r, g, b)
				}
			}
		}
	}
	require.NotEmpty(t, all)
	sum, worst := 0.0, 0.0
	within1 := 0
	for _, e := range all {
		sum += math.Abs(e)
		worst = math.Max(worst, math.Abs(e))
		if math.Abs(e) <= 1.5 {
			within1++
		}
	}
	mean := sum / float64(len(all))
	signed := 0.0
	for _, e := range all {
		signed += e
	}
	t.Logf("card edges: signed mean %+.2f px (positive: rendered edge outside the projected one)", signed/float64(len(all)))
	t.Logf("card edges: %d samples, mean |error| %.2f px, %.0f%% within 1.5 px, max %.2f px", len(all), mean, 100*float64(within1)/float64(len(all)), worst)
	t.Logf("top dice: %d of %d show their material's colour at the projected centre", diceOK, diceN)
	assert.Less(t, mean, 1.0)
	assert.Greater(t, float64(within1)/float64(len(all)), 0.9)
	require.Positive(t, diceN)
	assert.Greater(t, float64(diceOK)/float64(diceN), 0.85)
}

// TestCorpusWidthKeepsTheScenes checks that a corpus rendered at one width
// (CorpusOptions.Width) holds the same scenes as the corpus drawn as usual
// (one still in ten at 1920x1080, the rest 1280x720), only seen by a
// camera of that resolution: the same pose, field of view, cards, dice,
// hands and lights, the focal length scaled with the width.
func TestCorpusWidthKeepsTheScenes(t *testing.T) {
	co := CorpusOptions{Seed: 7, Stills: 12, Options: stillOptions(t)}
	plain, err := CorpusItems(co)
	require.NoError(t, err)
	co.Width = 1920
	wide, err := CorpusItems(co)
	require.NoError(t, err)
	require.Len(t, wide, len(plain))
	scaled := 0
	for i := range plain {
		a, b := plain[i].Scene, wide[i].Scene
		assert.Equal(t, 1920, b.Cam.Width, plain[i].Name)
		assert.Equal(t, 1080, b.Cam.Height, plain[i].Name)
		if a.Cam.Width != b.Cam.Width {
			scaled++
		}
		k := float64(b.Cam.Width) / float64(a.Cam.Width)
		assert.InDelta(t, a.Cam.Fx*k, b.Cam.Fx, 1e-6*b.Cam.Fx, plain[i].Name)
		assert.InDelta(t, 0, a.Cam.Center().Sub(b.Cam.Center()).Len(), 1e-9, plain[i].Name)
		assert.InDelta(t, a.HFOV, b.HFOV, 1e-9, plain[i].Name)
		assert.Equal(t, a.Cards, b.Cards, plain[i].Name)
		assert.Equal(t, a.Hands, b.Hands, plain[i].Name)
		require.Len(t, b.Lights, len(a.Lights), plain[i].Name)
		for k, la := range a.Lights {
			lb := b.Lights[k]
			assert.InDelta(t, 0, la.Pos.Sub(lb.Pos).Len(), 1e-9, plain[i].Name) // placed from the camera
			la.Pos = lb.Pos
			assert.Equal(t, la, lb, plain[i].Name)
		}
		assert.Equal(t, a.Post, b.Post, plain[i].Name)
	}
	assert.Equal(t, 11, scaled, "every still but the one drawn at 1920 is seen by another camera")

	for _, w := range []int{-16, 100, 1000, 4096} {
		co.Width = w
		_, err := CorpusItems(co)
		assert.ErrorContains(t, err, fmt.Sprintf("corpus width %d", w))
	}
}
