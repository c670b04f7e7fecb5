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
