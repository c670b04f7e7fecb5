package vision

import (
	"fmt"

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
//
// Since the thirty-seventh session that blend is among the heights only,
// and only where the height CNNs' likeliest class is a height: a cell they
// read as empty (or under a hand) is left to them, and one they read as a
// stack keeps their P(empty). Blending every class, the thirty-sixth
// session's third trial moved an unsure empty cell (P(empty) 0.59, one
// high 0.18) to 0.54 / 0.29, and reconsiderEmpties (hidden.go), whose
// thresholds were set on the height CNNs' own probabilities, then read a
// die there that was not (fresh 2080, still_0045). Reading fresh
// 2077-2080 with that trial's networks (/work/store/nets/refit36/c2), the
// blend among heights reads as many stacks wholly right (2,840 / 2,867)
// as the blend of every class, with the committed code's empty/occupied
// mistakes on each corpus (1, 0, 0, 2) instead of 0, 0, 0, 3.
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
// class is a height (not empty, not a hand) less than fineBelow sure.
// Only the heights are blended (blendFine): the fine CNNs choose among
// them, never between a stack and an empty cell (see the note above
// fineBelow).
func (d *Detector) fineHeight(cam Camera, p cardPose, bg *background, row, col int) {
	if d.fineN == 0 {
		return
	}
	k := argmax(d.heightP)
	if k == 0 || k == HeightHand || d.heightP[k] >= fineBelow {
		return
	}
	clear(d.fineP)
	for _, g := range d.heightFine {
		d.nadirPlanes(cam, p, bg, row, col, g.side, g.x)
		addShares(d.fineP, g.nets, g.x, d.fineN)
	}
	blendFine(d.heightP, d.fineP)
}

// blendFine leaves in p's heights 1..MaxStack (1-fineWeight)·p + fineWeight·
// fine, fine's heights scaled to the sum of p's, so that p's empty and hand
// classes and the sum of its heights stay as they were (fine: none of its
// heights likely, p as it was).
func blendFine(p, fine []float32) {
	var ps, fs float32
	for h := 1; h <= MaxStack; h++ {
		ps += p[h]
		fs += fine[h]
	}
	if fs <= 0 {
		return
	}
	for h := 1; h <= MaxStack; h++ {
		p[h] = (1-fineWeight)*p[h] + fineWeight*fine[h]*ps/fs
	}
}
