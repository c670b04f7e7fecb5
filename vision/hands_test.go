package vision

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// A cell flagged as covered with a hand class under loneHandSure, every
// other cell of its card calm of hand, is read as its likeliest height or
// empty; it stays flagged where it is surer, or where another cell of the
// card shows some hand.
func TestDoubtLoneHands(t *testing.T) {
	d := NewDetector(Options{Classical: true})
	defer d.Close()
	calm := [HeightClasses]float32{0.95, 0.01, 0.01, 0.01, 0.005, 0.005, 0.005, 0.005}
	read := func(p00, p21 [HeightClasses]float32) (Decision, Decision) {
		for r := range d.cardCells {
			for c := range d.cardCells[r] {
				d.cardCells[r][c].p = calm
			}
		}
		d.cardCells[0][0].p = p00
		d.cardCells[2][1].p = p21
		for r := range d.cardCells {
			for c := range d.cardCells[r] {
				d.cardCells[r][c].dec = DecideHeight(d.cardCells[r][c].p[:])
			}
		}
		d.doubtLoneHands(3, 2)
		return d.cardCells[0][0].dec, d.cardCells[2][1].dec
	}
	unsureStack := [HeightClasses]float32{0.001, 0.02, 0.01, 0.33, 0.01, 0.01, 0.01, 0.609}
	unsureEmpty := [HeightClasses]float32{0.37, 0.02, 0.02, 0.01, 0.01, 0.01, 0.01, 0.55}
	sure := [HeightClasses]float32{0.1, 0.02, 0.01, 0.05, 0.01, 0.01, 0.0, 0.8}

	dec, _ := read(unsureStack, calm)
	assert.False(t, dec.Occluded, "a lone unsure flag is doubted")
	assert.Equal(t, 3, dec.Height, "and read as its likeliest height")
	assert.InDelta(t, 0.33, dec.Confidence, 1e-6, "as sure as that height's own probability")

	dec, _ = read(unsureEmpty, calm)
	assert.False(t, dec.Occluded)
	assert.Equal(t, 0, dec.Height, "a lone unsure flag over an empty cell reads empty")

	dec, _ = read(sure, calm)
	assert.True(t, dec.Occluded, "a lone flag at 0.8 stands")

	some := calm
	some[0], some[HeightHand] = 0.7, 0.25
	dec, other := read(unsureStack, some)
	assert.True(t, dec.Occluded, "an unsure flag stands where another cell shows a hand")
	assert.False(t, other.Occluded, "that cell itself is not flagged")

	dec, other = read(unsureStack, unsureEmpty)
	assert.True(t, dec.Occluded && other.Occluded, "two unsure flags on one card are not lone")
}

func TestDecideWithoutHand(t *testing.T) {
	dec := decideWithoutHand([]float32{0.1, 0.05, 0.2, 0.05, 0, 0, 0, 0.6})
	assert.Equal(t, Decision{Height: 2, HeightConf: float64(float32(0.2)), Confidence: float64(float32(0.2))}, dec)
	dec = decideWithoutHand([]float32{0.3, 0.05, 0.02, 0.01, 0, 0, 0, 0.62})
	assert.Equal(t, Decision{Confidence: float64(float32(0.3))}, dec)
}

// A cell flagged under faceHandSure whose rest lies faceHandShare or more
// on one height is read as that stack, whatever its neighbours; a surer
// flag, or a rest spread over the heights or lying on empty, stands.
func TestSeenPastHands(t *testing.T) {
	d := NewDetector(Options{Classical: true})
	defer d.Close()
	read := func(p [HeightClasses]float32) Decision {
		for r := range d.cardCells {
			for c := range d.cardCells[r] {
				d.cardCells[r][c].p = [HeightClasses]float32{0.02, 0.01, 0.01, 0.01, 0.01, 0.01, 0.01, 0.92}
				d.cardCells[r][c].dec = DecideHeight(d.cardCells[r][c].p[:])
			}
		}
		d.cardCells[0][0].p = p
		d.cardCells[0][0].dec = DecideHeight(p[:])
		d.seenPastHands(3, 2)
		assert.True(t, d.cardCells[1][0].dec.Occluded, "the sure flags stand")
		return d.cardCells[0][0].dec
	}
	dec := read([HeightClasses]float32{0.001, 0.017, 0.014, 0.33, 0.006, 0.01, 0.007, 0.615})
	assert.False(t, dec.Occluded, "a stack's top seen past an unsure hand")
	assert.Equal(t, 3, dec.Height)
	assert.InDelta(t, 0.33, dec.Confidence, 1e-6)
	assert.True(t, read([HeightClasses]float32{0.149, 0.056, 0.034, 0.011, 0.012, 0.013, 0.015, 0.711}).Occluded, "surer than faceHandSure")
	assert.True(t, read([HeightClasses]float32{0.118, 0.225, 0.01, 0.015, 0.014, 0.014, 0.015, 0.588}).Occluded, "the rest spread")
	assert.True(t, read([HeightClasses]float32{0.37, 0.02, 0.02, 0.01, 0.01, 0.01, 0.01, 0.55}).Occluded, "the rest on empty")
}
