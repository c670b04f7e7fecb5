package vision

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestShareRunHeight(t *testing.T) {
	sh := func(s ...float64) *[MaxStack + 2]float64 {
		var a [MaxStack + 2]float64
		copy(a[1:], s)
		return &a
	}
	assert.Equal(t, 2, shareRunHeight(sh(0.97, 1, 0, 0.08, 0, 0)), "a two-high run")
	assert.Equal(t, 3, shareRunHeight(sh(1, 0.96, 0.62, 0, 0, 0)), "a weaker third level still adds")
	assert.Equal(t, 0, shareRunHeight(sh(0.3, 0.2, 0.1, 0, 0, 0)), "no run above a half")
	assert.Equal(t, 6, shareRunHeight(sh(1, 1, 1, 1, 1, 1)))
}

// Torn between two heights less than tieMargin apart, a cell is read as
// the one its level shares say; not where the networks are surer, nor
// where the shares say neither.
func TestShareTies(t *testing.T) {
	d := NewDetector(Options{Classical: true})
	defer d.Close()
	// a camera far above and beside the card: no cell lies under it
	cam := cameraDownFrom(t, Vec3{X: 400, Y: 300, Z: 800})
	c := &Card{pose: cardPose{origin: Vec3{0, 0, 0}, u: Vec3{1, 0, 0}, v: Vec3{0, -1, 0}}}
	read := func(p [HeightClasses]float32, shares [MaxStack + 2]float64) Decision {
		var cd cardRead
		for r := range d.cardCells {
			for col := range d.cardCells[r] {
				d.cardCells[r][col].p = [HeightClasses]float32{0.95, 0.01, 0.01, 0.01, 0.01, 0.005, 0.005}
				d.cardCells[r][col].dec = DecideHeight(d.cardCells[r][col].p[:])
			}
		}
		d.cardCells[0][1].p = p
		d.cardCells[0][1].dec = DecideHeight(p[:])
		cd.shares[0][1] = shares
		d.shareTies(cam, c, &cd, 3, 2)
		return d.cardCells[0][1].dec
	}
	torn := [HeightClasses]float32{0.032, 0.435, 0.420, 0.015, 0.016, 0.027, 0.016, 0.04}
	twoHigh := [MaxStack + 2]float64{0, 0.97, 1, 0, 0.08, 0, 0, 0.1}
	dec := read(torn, twoHigh)
	assert.Equal(t, 2, dec.Height, "the shares break the tie")
	assert.InDelta(t, 0.42, dec.Confidence, 1e-6)
	oneHigh := [MaxStack + 2]float64{0, 0.97, 0.1, 0, 0, 0, 0, 0}
	assert.Equal(t, 1, read(torn, oneHigh).Height, "the shares say the height read")
	threeHigh := [MaxStack + 2]float64{0, 1, 1, 1, 0, 0, 0, 0}
	assert.Equal(t, 1, read(torn, threeHigh).Height, "the shares say neither")
	surer := [HeightClasses]float32{0.02, 0.55, 0.40, 0.01, 0.005, 0.005, 0.005, 0.005}
	assert.Equal(t, 1, read(surer, twoHigh).Height, "0.15 apart is no tie")
}
