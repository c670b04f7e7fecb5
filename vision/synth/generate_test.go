package synth

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/blueprints-companion/blueprints/vision/cardmodel"
)

func stillOptions(t *testing.T) Options {
	return Options{Model: cardmodel.Default(), Catalogue: testCatalogue(t), HandProb: 0.3, ScreenProb: 0.3, GlareProb: 0.2}
}

// checkBuilding asserts the rules every scene keeps.
func checkBuilding(t *testing.T, sc *Scene, label string) {
	t.Helper()
	m := sc.Model
	perColour := map[Material]int{}
	for ci, c := range sc.Cards {
		dice := 0
		for r := 0; r < 3; r++ {
			for col := 0; col < 2; col++ {
				st := c.Building[r][col]
				if c.Layout[r][col] == Hatched {
					assert.Empty(t, st, "%s card %d: die on hatched cell %d,%d", label, ci, r, col)
				}
				_, err := ParseStack(st.String())
				assert.NoError(t, err, "%s card %d stack %q", label, ci, st)
				require.Len(t, c.Dice[r][col], len(st))
				for k, d := range c.Dice[r][col] {
					assert.Equal(t, st[k], d.Die)
					assert.Equal(t, d.Pips, TopValue(d.Rot), "%s: pose shows the die's value on top", label)
					assert.InDelta(t, m.CardThickness+(float64(k)+0.5)*m.Die, d.Center.Z, 1e-9)
					perColour[d.Mat]++
				}
				dice += len(st)
			}
		}
		assert.LessOrEqual(t, dice, 6, "%s card %d uses at most 6 dice", label, ci)
	}
	for _, d := range sc.Offer {
		perColour[d.Mat]++
		assert.Equal(t, d.Pips, TopValue(d.Rot))
	}
	for mt, n := range perColour {
		assert.LessOrEqual(t, n, 8, "%s: at most 8 %c dice", label, mt)
	}
}

func TestGenerateKeepsTheRules(t *testing.T) {
	opt := stillOptions(t)
	for seed := uint64(1); seed <= 80; seed++ {
		sc, err := Generate(seed, opt)
		require.NoError(t, err, "seed %d", seed)
		label := fmt.Sprintf("seed %d", seed)
		checkBuilding(t, sc, label)
		// camera as a table owner mounts it
		z := sc.Cam.Center().Z
		assert.True(t, z >= 350 && z <= 900, "%s: camera height %.0f mm", label, z)
		assert.LessOrEqual(t, sc.Tilt, 25.0)
		assert.True(t, sc.HFOV >= 45 && sc.HFOV <= 80, "%s: hfov %.1f", label, sc.HFOV)
		g := &gen{opt: opt, sc: sc}
		lo, hi := g.dieSpan(sc.Cam)
		k := float64(sc.Cam.Width) / 1280
		assert.True(t, lo >= 20*k && hi <= 70*k, "%s: die top spans %.0f-%.0f px", label, lo, hi)
		tr := TruthOf(sc, "x.jpg")
		for _, c := range tr.Cards {
			for _, p := range c.CornersPx {
				assert.True(t, p[0] >= 0 && p[1] >= 0 && p[0] <= float64(sc.Cam.Width-1) && p[1] <= float64(sc.Cam.Height-1), "%s: card corner %v in the frame", label, p)
			}
		}
		assert.NoError(t, tr.Validate())
		assert.True(t, len(sc.Lights) >= 1 && len(sc.Lights) <= 4)
	}
}

func TestGenerateIsDeterministic(t *testing.T) {
	opt := stillOptions(t)
	a, err := Generate(17, opt)
	require.NoError(t, err)
	b, err := Generate(17, opt)
	require.NoError(t, err)
	ja, _ := json.Marshal(TruthOf(a, "x"))
	jb, _ := json.Marshal(TruthOf(b, "x"))
	assert.Equal(t, string(ja), string(jb))
}

func TestGenerateRejectsBadOptions(t *testing.T) {
	opt := stillOptions(t)
	_, err := Generate(1, Options{Model: cardmodel.Default()})
	assert.True(t, errors.Is(err, ErrGenerate))
	opt.Players = 5
	_, err = Generate(1, opt)
	assert.True(t, errors.Is(err, ErrGenerate))
	_, err = GenerateRound(1, stillOptions(t), 0, "x")
	assert.True(t, errors.Is(err, ErrGenerate))
	bad := stillOptions(t)
	bad.Model.Die = 40
	_, err = Generate(1, bad)
	assert.True(t, errors.Is(err, cardmodel.ErrInvalid))
}

func TestGenerateRound(t *testing.T) {
	for players := 1; players <= 4; players++ {
		t.Run(fmt.Sprintf("%d players", players), func(t *testing.T) {
			frames, err := GenerateRound(uint64(10+players), stillOptions(t), players, "r")
			require.NoError(t, err)
			require.Len(t, frames, 1+3*6*players)
			count := func(sc *Scene) int {
				n := 0
				for _, c := range sc.Cards {
					for r := 0; r < 3; r++ {
						for col := 0; col < 2; col++ {
							n += len(c.Building[r][col])
						}
					}
				}
				return n
			}
			assert.Equal(t, "start", frames[0].Seq.Event)
			assert.Empty(t, frames[0].Scene.Hands)
			for i, f := range frames {
				checkBuilding(t, f.Scene, fmt.Sprintf("frame %d", i))
				assert.Equal(t, i, f.Seq.Frame)
				assert.Equal(t, frames[0].Scene.Cam, f.Scene.Cam, "the camera stays put")
				if i == 0 {
					continue
				}
				step := (i - 1) / 3
				want := []string{"enter", "place", "leave"}[(i-1)%3]
				assert.Equal(t, want, f.Seq.Event)
				require.Len(t, f.Scene.Hands, 1)
				p := f.Seq.Placing
				require.NotNil(t, p)
				placed := step
				if want != "enter" {
					placed++
					// the die being placed is on top of its stack
					st := f.Scene.Cards[p.Card].Building[p.Row][p.Col]
					require.Len(t, st, p.Level)
					assert.Equal(t, p.Die, st[len(st)-1].String())
				}
				assert.Equal(t, placed, count(f.Scene), "frame %d", i)
				// the hand never dips into a stack of its card
				top := 0.0
				for r := 0; r < 3; r++ {
					for col := 0; col < 2; col++ {
						top = math.Max(top, f.Scene.Cards[p.Card].CellTop(f.Scene.Model, r, col).Z)
					}
				}
				for _, c := range f.Scene.Hands[0].Parts {
					assert.Greater(t, math.Min(c.A.Z, c.B.Z)-c.R, top, "frame %d: hand above the stacks", i)
				}
			}
			last := frames[len(frames)-1].Scene
			for _, c := range last.Cards {
				n := 0
				for r := 0; r < 3; r++ {
					for col := 0; col < 2; col++ {
						n += len(c.Building[r][col])
					}
				}
				assert.Equal(t, 6, n, "every player placed 6 dice")
			}
		})
	}
}

func TestOcclusionByHand(t *testing.T) {
	opt := stillOptions(t)
	opt.Players, opt.HandProb, opt.ScreenProb = 1, -1, -1
	sc, err := Generate(4, opt)
	require.NoError(t, err)
	tr := TruthOf(sc, "x")
	assert.Empty(t, tr.Cards[0].Occluded, "no hand, nothing occluded")
	// a big ball just above cell (1, 0), between it and the camera
	top := sc.Cards[0].CellTop(sc.Model, 1, 0)
	o := sc.Cam.Center()
	mid := top.Add(o.Sub(top).Scale(0.3))
	sc.Hands = []Hand{{Card: 0, Parts: []Capsule{{A: mid, B: mid, R: 25}}}}
	tr = TruthOf(sc, "x")
	assert.Contains(t, tr.Cards[0].Occluded, [2]int{1, 0})
	assert.Equal(t, 1.0, tr.Cards[0].Cells[2].Hand)
}

func TestSegSegDist(t *testing.T) {
	cases := []struct {
		name           string
		p0, p1, q0, q1 Vec3
		want           float64
	}{
		{"crossing", Vec3{-1, 0, 0}, Vec3{1, 0, 0}, Vec3{0, -1, 2}, Vec3{0, 1, 2}, 2},
		{"parallel", Vec3{0, 0, 0}, Vec3{1, 0, 0}, Vec3{0, 3, 0}, Vec3{1, 3, 0}, 3},
		{"point to segment", Vec3{0, 0, 0}, Vec3{0, 0, 0}, Vec3{-1, 1, 0}, Vec3{1, 1, 0}, 1},
		{"past the end", Vec3{0, 0, 0}, Vec3{1, 0, 0}, Vec3{4, 0, 0}, Vec3{5, 0, 0}, 3},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			assert.InDelta(t, c.want, segSegDist(c.p0, c.p1, c.q0, c.q1), 1e-9)
		})
	}
}

func TestCameraProjectsItsOwnRays(t *testing.T) {
	cam := LookCamera(Vec3{30, -200, 600}, Vec3{0, 0, 0}, Vec3{0, 1, 0}, 60, 1280, 720)
	for _, uv := range [][2]float64{{0, 0}, {639.5, 359.5}, {1279, 719}, {100, 600}} {
		p := cam.Center().Add(cam.Ray(uv[0], uv[1]).Scale(500))
		u, v, ok := cam.Project(p)
		require.True(t, ok)
		assert.InDelta(t, uv[0], u, 1e-6)
		assert.InDelta(t, uv[1], v, 1e-6)
	}
	assert.InDelta(t, 639.5, cam.Cx, 0)
	assert.InDelta(t, 1280/(2*math.Tan(math.Pi/6)), cam.Fx, 1e-9)
}

func ExampleParseStack() {
	st, err := ParseStack("S1 W3 G6")
	fmt.Println(st, len(st), err)
	_, err = ParseStack("W3 R2")
	fmt.Println(err)
	// Output:
	// S1 W3 G6 3 <nil>
	// synth: bad notation: stack "W3 R2" puts R2 on W3
}

func ExampleParseLayout() {
	l, _ := ParseLayout("X1/31/1X")
	fmt.Println(l[0][0] == Hatched, l[1][0], l)
	// Output: true 3 X1/31/1X
}

// GlassTops makes most stack tops clear glass and keeps each scene within
// the bag (eight glass dice); without it, about a quarter of the tops are.
func TestGlassTops(t *testing.T) {
	count := func(opt Options) (glass, tops int) {
		for seed := uint64(1); seed <= 30; seed++ {
			sc, err := Generate(seed, opt)
			require.NoError(t, err)
			for _, c := range sc.Cards {
				for r := range c.Building {
					for col := range c.Building[r] {
						st := c.Building[r][col]
						if len(st) > 0 {
							tops++
							if st[len(st)-1].Mat == Glass {
								glass++
							}
						}
					}
				}
			}
		}
		return glass, tops
	}
	plainG, plainN := count(stillOptions(t))
	opt := stillOptions(t)
	opt.GlassTops = 1
	glassG, glassN := count(opt)
	require.Positive(t, plainN)
	require.Positive(t, glassN)
	assert.Less(t, float64(plainG)/float64(plainN), 0.4, "without: about a quarter of the tops")
	assert.Greater(t, float64(glassG)/float64(glassN), 0.8, "with: most tops")

	// every scene within the bag: at most eight glass dice in all
	for seed := uint64(1); seed <= 30; seed++ {
		sc, err := Generate(seed, opt)
		require.NoError(t, err)
		n := 0
		for _, c := range sc.Cards {
			for r := range c.Building {
				for col := range c.Building[r] {
					for _, d := range c.Building[r][col] {
						if d.Mat == Glass {
							n++
						}
					}
				}
			}
		}
		assert.LessOrEqual(t, n, 8, "seed %d: glass dice on the cards", seed)
	}
}

// Mistakes makes buildings that break a placement rule — a stack on a
// hatched cell or a top die on a higher value — with the dice posed to
// match; without it every building is legal, and the same seed's scene
// is unchanged by the option being there at 0.
func TestMistakes(t *testing.T) {
	opt := stillOptions(t)
	opt.Mistakes = 1
	hatched, onHigher, cards := 0, 0, 0
	for seed := uint64(1); seed <= 40; seed++ {
		sc, err := Generate(seed, opt)
		require.NoError(t, err)
		for ci, c := range sc.Cards {
			cards++
			broken := false
			for r := 0; r < 3; r++ {
				for col := 0; col < 2; col++ {
					st := c.Building[r][col]
					require.Len(t, c.Dice[r][col], len(st))
					for k, d := range c.Dice[r][col] {
						assert.Equal(t, st[k], d.Die)
						assert.Equal(t, d.Pips, TopValue(d.Rot), "seed %d: pose shows the die's value on top", seed)
					}
					if len(st) > 0 && c.Layout[r][col] == Hatched {
						hatched++
						broken = true
					}
					if n := len(st); n >= 2 && st[n-1].Pips < st[n-2].Pips {
						onHigher++
						broken = true
					}
				}
			}
			assert.True(t, broken, "seed %d card %d: building %v breaks no rule", seed, ci, c.Building)
		}
	}
	assert.Positive(t, hatched, "stacks on hatched cells")
	assert.Positive(t, onHigher, "tops on a higher value")
	t.Logf("%d cards: %d stacks on hatched cells, %d tops on a higher value", cards, hatched, onHigher)

	plain, err := Generate(7, stillOptions(t))
	require.NoError(t, err)
	opt.Mistakes = 0
	again, err := Generate(7, opt)
	require.NoError(t, err)
	assert.Equal(t, plain, again)
	checkBuilding(t, again, "mistakes 0")
}

// MaxYaw turns the dice on the cards further from the card's axes (a less
// careful hand); 0 keeps the 5 degrees of every earlier scene.
func TestMaxYaw(t *testing.T) {
	most := func(opt Options) float64 {
		m := 0.0
		for seed := uint64(1); seed <= 20; seed++ {
			sc, err := Generate(seed, opt)
			require.NoError(t, err)
			for _, c := range sc.Cards {
				for r := range c.Dice {
					for col := range c.Dice[r] {
						for _, d := range c.Dice[r][col] {
							m = math.Max(m, math.Abs(d.Yaw))
						}
					}
				}
			}
		}
		return m
	}
	opt := stillOptions(t)
	assert.LessOrEqual(t, most(opt), 5.0)
	assert.Greater(t, most(opt), 4.0)
	opt.MaxYaw = 20
	assert.LessOrEqual(t, most(opt), 20.0)
	assert.Greater(t, most(opt), 15.0)
	plain, err := Generate(3, stillOptions(t))
	require.NoError(t, err)
	opt.MaxYaw = 5
	same, err := Generate(3, opt)
	require.NoError(t, err)
	assert.Equal(t, plain.Cards, same.Cards, "MaxYaw 5 is the default")
}

// NadirOnCards puts the table point straight under the camera on a card's
// grid (or within nadirMargin of it) in every scene, which plain framing
// does only now and then.
func TestNadirOnCards(t *testing.T) {
	on := func(sc *Scene, m cardmodel.Model) bool {
		g := &gen{opt: Options{Model: m}, sc: sc}
		return g.nadirOnCard(sc.Cam.Center())
	}
	plain, over := 0, 0
	for seed := uint64(1); seed <= 20; seed++ {
		opt := stillOptions(t)
		sc, err := Generate(seed, opt)
		require.NoError(t, err)
		if on(sc, opt.Model) {
			plain++
		}
		opt.NadirOnCards = 1
		sc, err = Generate(seed, opt)
		require.NoError(t, err, "seed %d", seed)
		if on(sc, opt.Model) {
			over++
		}
		assert.LessOrEqual(t, sc.Tilt, 25.0, "seed %d", seed)
	}
	assert.Equal(t, 20, over, "with NadirOnCards 1 every camera stands over a card")
	assert.Less(t, plain, 20, "plain framing does so only sometimes")
	t.Logf("nadir on a card: plain %d of 20, with the option %d", plain, over)
}
