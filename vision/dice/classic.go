package dice

import (
	"image"
	"math"
	"sort"

	"gocv.io/x/gocv"
)

// ClassicReader is the classical baseline: it counts pips as blobs in the
// box (area-averaged to 64×64, median-filtered, adaptive threshold for dark
// pips and for light pips, contours filtered by size, roundness and
// agreement in size) and keeps the polarity whose blobs look more like a
// pip pattern. It uses no training. It is kept to measure the learned
// Reader against and as a fallback; on oblique photos it also counts pips
// on the side faces. Not safe for concurrent use; Close frees its Mats.
type ClassicReader struct {
	small, gray, work, bin gocv.Mat
}

const classicSide = 64

// NewClassicReader allocates the baseline's buffers.
func NewClassicReader() *ClassicReader {
	return &ClassicReader{small: gocv.NewMat(), gray: gocv.NewMat(), work: gocv.NewMat(), bin: gocv.NewMat()}
}

// Close frees the Mats.
func (c *ClassicReader) Close() error {
	c.small.Close()
	c.gray.Close()
	c.work.Close()
	c.bin.Close()
	return nil
}

type blob struct {
	area, circ float64
}

// Read counts the pips in box. Confidence is how regular the kept blobs are
// (roundness times size agreement), a rough score, not a probability.
func (c *ClassicReader) Read(img gocv.Mat, box image.Rectangle) (Reading, error) {
	if err := CheckBox(img, box); err != nil {
		return Reading{}, err
	}
	roi := img.Region(box)
	gocv.Resize(roi, &c.small, image.Pt(classicSide, classicSide), 0, 0, gocv.InterpolationArea)
	roi.Close()
	switch c.small.Channels() {
	case 3:
		gocv.CvtColor(c.small, &c.gray, gocv.ColorBGRToGray)
	case 4:
		gocv.CvtColor(c.small, &c.gray, gocv.ColorBGRAToGray)
	default:
		c.small.CopyTo(&c.gray)
	}
	gocv.MedianBlur(c.gray, &c.gray, 3)
	best := Reading{Pips: 1}
	bestScore := -1.0
	for pol := 0; pol < 2; pol++ {
		if pol == 0 {
			gocv.BitwiseNot(c.gray, &c.work) // dark pips become bright
		} else {
			c.gray.CopyTo(&c.work)
		}
		gocv.AdaptiveThreshold(c.work, &c.bin, 255, gocv.AdaptiveThresholdMean, gocv.ThresholdBinary, 15, -12)
		n, score := countPips(c.bin)
		if n >= 1 && n <= 6 && score > bestScore {
			bestScore, best = score, Reading{Pips: n, Confidence: score}
		}
	}
	if bestScore < 0 {
		best.Confidence = 0
	}
	return best, nil
}

func countPips(bin gocv.Mat) (int, float64) {
	contours := gocv.FindContours(bin, gocv.RetrievalExternal, gocv.ChainApproxSimple)
	defer contours.Close()
	total := float64(classicSide * classicSide)
	var blobs []blob
	for i := 0; i < contours.Size(); i++ {
		pv := contours.At(i)
		a := gocv.ContourArea(pv)
		if a < 0.003*total || a > 0.06*total {
			continue
		}
		r := gocv.BoundingRect(pv)
		if asp := float64(r.Dx()) / float64(max(r.Dy(), 1)); asp < 0.4 || asp > 2.5 {
			continue
		}
		if r.Min.X == 0 || r.Min.Y == 0 || r.Max.X >= classicSide || r.Max.Y >= classicSide {
			continue // touches the box edge: background or a neighbour
		}
		p := gocv.ArcLength(pv, true)
		circ := 4 * math.Pi * a / math.Max(p*p, 1)
		if circ < 0.45 {
			continue
		}
		blobs = append(blobs, blob{a, circ})
	}
	if len(blobs) == 0 {
		return 0, -1
	}
	sort.Slice(blobs, func(i, j int) bool { return blobs[i].area > blobs[j].area })
	// Pips of the top face are the largest, of one size: keep the blobs
	// within a factor of two of the largest ones.
	ref := blobs[0].area
	if len(blobs) > 1 {
		ref = blobs[len(blobs)/3].area
	}
	var kept []blob
	for _, b := range blobs {
		if b.area >= ref/2 && b.area <= ref*2.2 {
			kept = append(kept, b)
		}
	}
	if len(kept) == 0 {
		return 0, -1
	}
	var mc, ma float64
	for _, b := range kept {
		mc += b.circ
		ma += b.area
	}
	mc /= float64(len(kept))
	ma /= float64(len(kept))
	var va float64
	for _, b := range kept {
		va += (b.area - ma) * (b.area - ma)
	}
	cv := math.Sqrt(va/float64(len(kept))) / ma
	return len(kept), math.Max(0, math.Min(1, mc*(1-cv)))
}
