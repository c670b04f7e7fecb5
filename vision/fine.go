package vision

import (
	"fmt"
	"slices"

	"github.com/blueprints-companion/blueprints/vision/internal/cnn"
)

// Fine height CNNs for the plain cells (the thirty-fifth session's trial;
// read only from a --cell-model folder's height_fine.cnn, none built in).
// The height CNNs read each level's face as a 12x12 patch over 1.2 die
// edges: a clear glass die's own edges, and the band a stack's side shows
// per die, are a pixel or two there. The nadir height CNNs read the same
// faces twice as finely (nadirPlanes) for the cells under the camera; fine
// height CNNs are networks of that input learned on every cell (celltrain
// -nadir-side 24 -max-slide 1), read beside the height CNNs for the plain
// cells those are unsure of: where the height CNNs' likeliest class is
// less than fineBelow, the cell's probabilities become (1-fineWeight) of
// theirs and fineWeight of the fine CNNs' mean.
const (
	fineBelow  = 0.8
	fineWeight = 0.5
)

// useFineHeights makes the detector read the plain cells it is unsure of
// also with the fine height CNNs hcs (none: not). Each must read
// HeightCNNChannels planes of an even side from MinNadirSide to
// MaxNadirSide, not faceSide, into HeightClasses.
func (d *Detector) useFineHeights(hcs []*cnn.Net) error {
	d.heightFine, d.fineN = nil, 0
	var groups []nadirGroup
	for _, hc := range hcs {
		a := hc.Arch
		if a.InC != HeightCNNChannels || a.Side == faceSide || a.Side < MinNadirSide || a.Side > MaxNadirSide || a.Side%2 != 0 || a.Classes != HeightClasses {
			return fmt.Errorf("vision: fine height CNN takes %dx%dx%d inputs to %d classes, want %d planes of an even side from %d to %d other than %d, to %d", a.InC, a.Side, a.Side, a.Classes, HeightCNNChannels, MinNadirSide, MaxNadirSide, faceSide, HeightClasses)
		}
		groups = joinGroup(groups, hc.NewWorkspace(), a.Side)
	}
	d.heightFine, d.fineN = groups, len(hcs)
	if len(hcs) > 0 && d.fineP == nil {
		d.fineP = make([]float32, HeightClasses)
	}
	return nil
}

// fineHeight blends into d.heightP, the height CNNs' probabilities for
// plain cell (row, col), the fine height CNNs' where d.heightP's likeliest
// class is less than fineBelow.
func (d *Detector) fineHeight(cam Camera, p cardPose, bg *background, row, col int) {
	if d.fineN == 0 || slices.Max(d.heightP) >= fineBelow {
		return
	}
	clear(d.fineP)
	for _, g := range d.heightFine {
		d.nadirPlanes(cam, p, bg, row, col, g.side, g.x)
		addShares(d.fineP, g.nets, g.x, d.fineN)
	}
	blendFine(d.heightP, d.fineP)
}

// blendFine leaves in p (1-fineWeight)·p + fineWeight·fine.
func blendFine(p, fine []float32) {
	for k := range p {
		p[k] = (1-fineWeight)*p[k] + fineWeight*fine[k]
	}
}
