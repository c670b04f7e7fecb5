package vision

import (
	"image"
	"sort"

	"gocv.io/x/gocv"
)

// faceStats describes the top face of a stack: the median chromaticity of
// its inner part, its median brightness relative to the table's, and the
// spread of brightness (glass shows what lies under it).
type faceStats struct {
	r, g   float64 // chromaticity shares
	rel    float64 // median R+G+B over the table's
	spread float64 // inter-quartile range of R+G+B over the median
	n      int
}

// faceSamples projects a grid over the inner part (frac of the die's edge)
// of the top face of a stack h high on cell (row, col).
func (d *Detector) faceSamples(cam Camera, p cardPose, row, col, h int, frac float64, steps int, fn func(x, y float64)) {
	m := d.opts.Model
	cu, cv := m.CellCenter(row, col)
	z := m.CardThickness + float64(h)*m.Die
	for i := -steps; i <= steps; i++ {
		for j := -steps; j <= steps; j++ {
			u := cu + float64(i)/float64(steps)*frac*m.Die/2
			v := cv + float64(j)/float64(steps)*frac*m.Die/2
			if x, y, ok := cam.Project(p.at(u, v, z)); ok {
				fn(x, y)
			}
		}
	}
}

func (d *Detector) topFace(cam Camera, p cardPose, bg *background, row, col, h int) faceStats {
	var rs, gs, ss []float64
	d.faceSamples(cam, p, row, col, h, 0.7, 5, func(x, y float64) {
		i, ok := d.img.index(x, y)
		if !ok {
			return
		}
		b, g, r := bg.balanced(&d.img, i)
		s := b + g + r
		if s < 1 {
			s = 1
		}
		rs, gs, ss = append(rs, r/s), append(gs, g/s), append(ss, float64(d.img.bgr[i])+float64(d.img.bgr[i+1])+float64(d.img.bgr[i+2]))
	})
	fs := faceStats{n: len(ss)}
	if fs.n == 0 {
		return fs
	}
	// The face without its pips (light pips are the brightest 40%): the
	// darker 60% of the samples.
	idx := make([]int, len(ss))
	for i := range idx {
		idx[i] = i
	}
	sort.Slice(idx, func(a, b int) bool { return ss[idx[a]] < ss[idx[b]] })
	keep := idx[:max(1, len(idx)*6/10)]
	var kr, kg, ks []float64
	for _, i := range keep {
		kr, kg, ks = append(kr, rs[i]), append(kg, gs[i]), append(ks, ss[i])
	}
	fs.r, fs.g = median(kr), median(kg)
	fs.rel = median(ks) / max(bg.tableSum, 1)
	med := median(ss)
	sorted := append([]float64(nil), ss...)
	sort.Float64s(sorted)
	fs.spread = (sorted[len(sorted)*3/4] - sorted[len(sorted)/4]) / max(med, 1)
	return fs
}

// material picks the top die's material from its face: green and orange by
// their chromaticity under the card's white light; black from clear glass
// by brightness against the table and by how uneven the face is (glass
// shows what lies beneath and behind it).
func material(fs faceStats) byte {
	switch {
	case fs.g >= 0.34 && fs.g > fs.r+0.05:
		return 'R'
	case fs.r >= 0.44 && fs.r > fs.g+0.08 && fs.rel >= 0.55:
		return 'W'
	case fs.rel < 1.0 && fs.spread < 0.8:
		return 'S'
	}
	return 'G'
}

// pipPatch is the size of the square a top face is warped to for reading
// its pips.
const pipPatch = 40

// countPips warps the top face of a stack h high on cell (row, col) to a
// pipPatch square and counts the light pips: blobs clearly brighter than
// the face, of a pip's size.
func (d *Detector) countPips(cam Camera, p cardPose, row, col, h int) (int, float64) {
	m := d.opts.Model
	cu, cv := m.CellCenter(row, col)
	z := m.CardThickness + float64(h)*m.Die
	half := 0.47 * m.Die // inside the rounded edge
	var src [4]gocv.Point2f
	for k, s := range [4][2]float64{{-1, -1}, {1, -1}, {1, 1}, {-1, 1}} {
		x, y, ok := cam.Project(p.at(cu+s[0]*half, cv+s[1]*half, z))
		if !ok {
			return 0, 0
		}
		src[k] = gocv.Point2f{X: float32(x), Y: float32(y)}
	}
	dst := [4]gocv.Point2f{{X: 0, Y: 0}, {X: pipPatch, Y: 0}, {X: pipPatch, Y: pipPatch}, {X: 0, Y: pipPatch}}
	sv := gocv.NewPoint2fVectorFromPoints(src[:])
	dv := gocv.NewPoint2fVectorFromPoints(dst[:])
	tf := gocv.GetPerspectiveTransform2f(sv, dv)
	sv.Close()
	dv.Close()
	gocv.WarpPerspective(d.img.mat, &d.patch, tf, image.Pt(pipPatch, pipPatch))
	tf.Close()
	gocv.CvtColor(d.patch, &d.patchGray, gocv.ColorBGRToGray)
	data, err := d.patchGray.DataPtrUint8()
	if err != nil {
		return 0, 0
	}
	sorted := append([]uint8(nil), data...)
	sort.Slice(sorted, func(a, b int) bool { return sorted[a] < sorted[b] })
	face := float64(sorted[len(sorted)*4/10])
	top := float64(sorted[len(sorted)*97/100])
	if top-face < 25 {
		return 0, 0 // no light pips to see
	}
	thr := face + 0.5*(top-face)
	gocv.Threshold(d.patchGray, &d.patchBin, float32(thr), 255, gocv.ThresholdBinary)
	n := gocv.ConnectedComponentsWithStats(d.patchBin, &d.patchLabels, &d.patchStats, &d.patchCent)
	// A pip's diameter is about 1/5 of the face: area ~ 40..200 px here.
	pips := 0
	for i := 1; i < n; i++ {
		area := d.patchStats.GetIntAt(i, 4)
		if area >= 12 && area <= 220 {
			pips++
		}
	}
	conf := min(1, (top-face)/80)
	if pips < 1 || pips > 6 {
		return 0, 0
	}
	return pips, conf
}
