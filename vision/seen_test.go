package vision

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestPipPlaces checks the pip places against the dice's layout: each
// value has as many pips as it says, the ways it lies are distinct, and
// a value seen whole fits itself only.
func TestPipPlaces(t *testing.T) {
	all := uint16(1<<9 - 1)
	for v := 1; v <= 6; v++ {
		for _, pl := range pipPlaces[v-1] {
			n := 0
			for k := 0; k < 9; k++ {
				if pl&(1<<k) != 0 {
					n++
				}
			}
			assert.Equal(t, v, n, "value %d's places %09b", v, pl)
			for w := 1; w <= 6; w++ {
				assert.Equal(t, w == v, fitsSeen(w, all, pl), "value %d seen whole as %09b fits %d", v, pl, w)
			}
		}
	}
}

// TestFitsSeen checks values against faces partly hidden: a three whose
// lower right corner is hidden still shows a corner and the centre on a
// diagonal, which a two, four or five cannot; a face whose one visible
// place, a corner, is empty fits a one, or a two or three lying the other
// way.
func TestFitsSeen(t *testing.T) {
	seen := uint16(1<<9-1) &^ (1 << 8)
	pips := uint16(1<<0 | 1<<4)
	for v, want := range map[int]bool{1: false, 2: false, 3: true, 4: false, 5: false, 6: false} {
		assert.Equal(t, want, fitsSeen(v, seen, pips), "value %d", v)
	}
	for v, want := range map[int]bool{1: true, 2: true, 3: true, 4: false, 5: false, 6: false} {
		assert.Equal(t, want, fitsSeen(v, 1<<0, 0), "value %d", v)
	}
}
