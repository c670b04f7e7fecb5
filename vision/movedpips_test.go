package vision

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestMovedPipsMend pins two stacks of the fifty-seventh session's
// development corpora (vision/testdata/stacks) whose pips the pip
// networks misread, unsurely, from the patch over the cell's centre, and
// read right averaged over the moved patches (movedPips); with
// Options.NoMovedPips they read as before.
func TestMovedPipsMend(t *testing.T) {
	for _, c := range []struct {
		still          string
		seat, row, col int
		want           string
		top, oldTop    string
	}{
		// fresh 2181, still_0006, seat 1, row 1 column 1: S1 R2 G2 read
		// three high G3, 0.46 sure.
		{"fresh2181_0006", 1, 0, 0, "S1 R2 G2", "G2", "G3"},
		// fresh 2178, still_0147, seat 3, row 2 column 1: a one-high G6,
		// read G4, 0.16 sure.
		{"fresh2178_0147", 3, 1, 0, "G6", "G6", "G4"},
	} {
		t.Run(c.still, func(t *testing.T) {
			for _, off := range []bool{false, true} {
				cell := pinnedStack(t, Options{NoMovedPips: off}, c.still, c.seat, c.row, c.col, c.want)
				top := c.top
				if off {
					top = c.oldTop
				}
				assert.Equal(t, len(strings.Fields(c.want)), cell.Height, "NoMovedPips %v: the height is not the pips' to change", off)
				assert.Equal(t, top, cell.Top, "NoMovedPips %v", off)
			}
		})
	}
}

// Reads at least movedPipsUnsure sure are the pip networks' reading of
// the patch over the cell's centre alone: on committed stills, every
// cell read so surely without moved patches reads the same with them, and
// no cell changes its material (chosen before the pips). Both read
// without the glass levels network, which may raise a read's confidence
// over the bound after its pips were read unsurely.
func TestMovedPipsLeaveSureReads(t *testing.T) {
	d := NewDetector(Options{NoGlassLevels: true})
	defer d.Close()
	off := NewDetector(Options{NoGlassLevels: true, NoMovedPips: true})
	defer off.Close()
	const stillDir = "testdata/synth/stills"
	unsure := 0
	for _, still := range []string{"still_0051", "still_0178", "still_0274"} {
		_, plain := detectStill(t, off, stillDir, still)
		_, res := detectStill(t, d, stillDir, still)
		require.Len(t, res.Cards, len(plain.Cards))
		for i, c := range res.Cards {
			for r := range c.Cells {
				for col, cell := range c.Cells[r] {
					was := plain.Cards[i].Cells[r][col]
					if was == nil || was.Occluded || was.Confidence >= movedPipsUnsure {
						assert.Equal(t, was, cell, "%s card %d r%dc%d: read surely, the same", still, i, r, col)
						continue
					}
					unsure++
					require.NotNil(t, cell)
					assert.Equal(t, was.Material, cell.Material, "%s card %d r%dc%d", still, i, r, col)
				}
			}
		}
	}
	assert.Positive(t, unsure, "some stack read unsurely")
}
