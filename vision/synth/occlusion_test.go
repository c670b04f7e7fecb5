package synth

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestDieHides(t *testing.T) {
	d := PlacedDie{Center: Vec3{0, 0, 8}, Rot: RotZ(0.3)}
	cam := Vec3{0, 0, 400}
	assert.True(t, dieHides(d, 8, cam, Vec3{0, 0, -1}), "straight down through the die")
	assert.False(t, dieHides(d, 8, cam, Vec3{20, 0, 0}), "beside it")
	assert.False(t, dieHides(d, 8, cam, Vec3{0, 0, 30}), "the segment ends above it")
	// a grazing line from the side: past one corner of the turned cube
	c, s := math.Cos(0.3), math.Sin(0.3)
	corner := Vec3{8*c - 8*s, 8*s + 8*c, 8}
	out := corner.Scale(1.05)
	out.Z = 8
	assert.False(t, dieHides(d, 8, Vec3{out.X, out.Y, 400}, Vec3{out.X, out.Y, 0}), "just outside a corner")
	in := corner.Scale(0.95)
	assert.True(t, dieHides(d, 8, Vec3{in.X, in.Y, 400}, Vec3{in.X, in.Y, 0}), "just inside a corner")
}

// Nothing can hide the top of the tallest stack in a scene from a camera
// above it, and some generated scenes have a top that other dice hide.
func TestDiceOcclusionOnGeneratedScenes(t *testing.T) {
	opt := stillOptions(t)
	hidden := 0
	for seed := uint64(1); seed <= 40; seed++ {
		sc, err := Generate(seed, opt)
		if err != nil {
			continue
		}
		best, bc, br, bcol := -1, 0, 0, 0
		for ci, c := range sc.Cards {
			for r := 0; r < 3; r++ {
				for col := 0; col < 2; col++ {
					share := diceOcclusion(sc, ci, r, col)
					require.True(t, share >= 0 && share <= 1)
					if len(c.Building[r][col]) > 0 && share >= 0.5 {
						hidden++
					}
					if h := len(c.Building[r][col]); h > best {
						best, bc, br, bcol = h, ci, r, col
					}
				}
			}
		}
		if best > 0 {
			assert.Zero(t, diceOcclusion(sc, bc, br, bcol), "seed %d: the tallest stack's top", seed)
		}
	}
	assert.Positive(t, hidden, "no stack top hidden by other dice in 40 scenes")
}
