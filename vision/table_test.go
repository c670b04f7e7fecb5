package vision

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"gocv.io/x/gocv"
)

// TestTableLike checks the table colour test on a made frame: a beige
// table with a shadow on it, a black screen and a blue card. The table
// and its shadow are the table; the screen and the card are not.
func TestTableLike(t *testing.T) {
	img := gocv.NewMatWithSize(100, 200, gocv.MatTypeCV8UC3)
	defer img.Close()
	img.SetTo(gocv.NewScalar(170, 190, 210, 0)) // beige (B, G, R)
	set := func(x0, x1 int, b, g, r uint8) {
		for y := 0; y < 100; y++ {
			for x := x0; x < x1; x++ {
				img.SetUCharAt(y, 3*x, b)
				img.SetUCharAt(y, 3*x+1, g)
				img.SetUCharAt(y, 3*x+2, r)
			}
		}
	}
	set(20, 40, 100, 112, 124) // the table in a screen's shadow
	set(60, 80, 20, 20, 22)    // the screen
	set(100, 130, 160, 80, 30) // the card
	d := &Detector{}
	d.img = newFrame(img)
	tc := d.table()
	assert.InDelta(t, 570, tc.sum, 1, "the table's brightness is the beige's")
	assert.True(t, d.tableLike(10, 50), "the table")
	assert.True(t, d.tableLike(30, 50), "the table in shadow")
	assert.False(t, d.tableLike(70, 50), "the screen")
	assert.False(t, d.tableLike(110, 50), "the card")
	assert.False(t, d.tableLike(-1, 50), "outside the frame")
}
