package vision

import (
	"fmt"

	"github.com/blueprints-companion/blueprints/vision/internal/cnn"
)

// Fine-face height CNNs for every cell (the thirty-third session's
// trial). The nadir height CNNs read each level's face as a finer patch
// than the level inputs' 12x12 (nadirPlanes); trained from random weights
// on the same 400 renders, such a network reads the heights of cells
// anywhere on the table better than one of the level inputs (on fresh
// 2064-2066, 91.5 % of the stacks' heights against 88.8 %), though with
// less data than the built-in height CNNs had it reads worse than they
// (97.0 % against 98.6 % fine-tuned from the nadir networks). A file
// height_fine.cnn beside the other networks (--cell-model) holds such
// networks; where the height CNNs are less than ensembleSure sure of a
// cell not under the camera, their mean probabilities are averaged with
// the height CNNs' (fineWeight each).

// fineWeight is the fine-face height CNNs' share of an unsure cell's
// height probabilities.
const fineWeight = 0.5

// useFineHeights makes the detector read the cells not under the camera
// that its height CNNs are unsure of also with the fine-face height CNNs
// hcs (none: not).
func (d *Detector) useFineHeights(hcs []*cnn.Net) error {
	d.fineHeight, d.fineHeightN = nil, 0
	for _, hc := range hcs {
		a := hc.Arch
		if a.InC != HeightCNNChannels || a.Side < MinNadirSide || a.Side > MaxNadirSide || a.Side%2 != 0 || a.Classes != HeightClasses {
			d.fineHeight = nil
			return fmt.Errorf("vision: fine-face height CNN takes %dx%dx%d inputs to %d classes, want %d planes of an even side from %d to %d to %d", a.InC, a.Side, a.Side, a.Classes, HeightCNNChannels, MinNadirSide, MaxNadirSide, HeightClasses)
		}
		d.fineHeight = d.addToGroup(d.fineHeight, hc.NewWorkspace(), a.Side)
		d.fineHeightN++
	}
	if d.fineHeightN > 0 && d.fineP == nil {
		d.fineP = make([]float32, HeightClasses)
	}
	return nil
}

// blendFine averages into d.heightP, the height CNNs' reading of cell
// (row, col), the fine-face height CNNs' mean plain reading of it, where
// there are such networks and the height CNNs are less than ensembleSure
// sure of it.
func (d *Detector) blendFine(cam Camera, p cardPose, bg *background, row, col int) {
	if d.fineHeightN == 0 {
		return
	}
	for _, v := range d.heightP {
		if v >= ensembleSure {
			return
		}
	}
	clear(d.fineP)
	for _, g := range d.fineHeight {
		d.nadirPlanes(cam, p, bg, row, col, g.side, g.x)
		for _, ws := range g.nets {
			if ws.Forward(g.x) == nil { // the length was checked at load
				for k, v := range ws.Prob {
					d.fineP[k] += v / float32(d.fineHeightN)
				}
			}
		}
	}
	for k := range d.heightP {
		d.heightP[k] = (1-fineWeight)*d.heightP[k] + fineWeight*d.fineP[k]
	}
}
