package dice

import (
	"errors"
	"fmt"
	"image"
	"math"

	"gocv.io/x/gocv"
)

// MinSide is the smallest box side, in pixels, the reader accepts.
const MinSide = 4

var (
	// ErrBox is wrapped by errors about a box that is empty, too small or
	// not inside the image.
	ErrBox = errors.New("dice: bad box")
	// ErrImage is wrapped by errors about an image that is empty, unreadable
	// or of an unsupported type.
	ErrImage = errors.New("dice: bad image")
)

// Patcher turns the box around a die into the network's input: the box is
// cut out, shrunk (area-averaging, which also evens out speckle noise) to
// Side×Side and normalised to zero mean and unit variance over the patch,
// either as one grey channel or as three colour channels (B, G, R planes).
// Its Mats are allocated once and reused; Close frees them. A Patcher is
// not safe for concurrent use.
type Patcher struct {
	side, channels int
	small          gocv.Mat // side×side, the image's channels
	conv           gocv.Mat // side×side, grey or BGR
}

// NewPatcher makes a Patcher for side×side inputs of 1 (grey) or 3 (colour)
// channels.
func NewPatcher(side, channels int) *Patcher {
	if channels != 3 {
		channels = 1
	}
	return &Patcher{side: side, channels: channels, small: gocv.NewMat(), conv: gocv.NewMat()}
}

// Close frees the Patcher's Mats.
func (p *Patcher) Close() error {
	p.small.Close()
	p.conv.Close()
	return nil
}

// Side is the input side in pixels.
func (p *Patcher) Side() int { return p.side }

// Len is the length of a patch: Channels*Side*Side.
func (p *Patcher) Len() int { return p.channels * p.side * p.side }

// CheckBox reports whether box can be read in img: img must be an 8-bit
// image with 1, 3 (BGR) or 4 (BGRA) channels and box must lie inside it and
// be at least MinSide pixels on each side.
func CheckBox(img gocv.Mat, box image.Rectangle) error {
	if img.Empty() {
		return fmt.Errorf("%w: empty image", ErrImage)
	}
	if img.Type() != gocv.MatTypeCV8UC1 && img.Type() != gocv.MatTypeCV8UC3 && img.Type() != gocv.MatTypeCV8UC4 {
		return fmt.Errorf("%w: type %v, want 8-bit grey, BGR or BGRA", ErrImage, img.Type())
	}
	bounds := image.Rect(0, 0, img.Cols(), img.Rows())
	if !box.In(bounds) || box.Empty() {
		return fmt.Errorf("%w: box %v is not inside the %dx%d image", ErrBox, box, img.Cols(), img.Rows())
	}
	if box.Dx() < MinSide || box.Dy() < MinSide {
		return fmt.Errorf("%w: box %v is smaller than %d pixels", ErrBox, box, MinSide)
	}
	return nil
}

// Patch writes the normalised patch of box in img to dst, which must hold
// Len() values (channel planes, rows, columns). flip mirrors it left to
// right.
func (p *Patcher) Patch(img gocv.Mat, box image.Rectangle, flip bool, dst []float32) error {
	if err := CheckBox(img, box); err != nil {
		return err
	}
	if len(dst) != p.Len() {
		return fmt.Errorf("dice: patch buffer holds %d values, want %d", len(dst), p.Len())
	}
	roi := img.Region(box)
	gocv.Resize(roi, &p.small, image.Pt(p.side, p.side), 0, 0, gocv.InterpolationArea)
	roi.Close()
	code := gocv.ColorConversionCode(-1)
	switch {
	case p.channels == 1 && p.small.Channels() == 3:
		code = gocv.ColorBGRToGray
	case p.channels == 1 && p.small.Channels() == 4:
		code = gocv.ColorBGRAToGray
	case p.channels == 3 && p.small.Channels() == 1:
		code = gocv.ColorGrayToBGR
	case p.channels == 3 && p.small.Channels() == 4:
		code = gocv.ColorBGRAToBGR
	}
	if code >= 0 {
		gocv.CvtColor(p.small, &p.conv, code)
	} else {
		p.small.CopyTo(&p.conv)
	}
	px, err := p.conv.DataPtrUint8()
	if err != nil || len(px) != len(dst) {
		return fmt.Errorf("%w: cannot read the resized patch: %v", ErrImage, err)
	}
	m, inv := Standardise(px)
	s, ch := p.side, p.channels
	for c := 0; c < ch; c++ {
		plane := dst[c*s*s : (c+1)*s*s]
		for y := 0; y < s; y++ {
			for x := 0; x < s; x++ {
				sx := x
				if flip {
					sx = s - 1 - x
				}
				plane[y*s+x] = (float32(px[(y*s+sx)*ch+c]) - m) * inv
			}
		}
	}
	return nil
}

// Standardise is the patch normalisation the networks were trained with:
// a patch's values v become (v-mean)*inv, zero mean and unit variance, with
// the spread floored at 4 grey levels so that a flat patch is not blown up.
// The trainer calls it too, so training and reading cannot drift apart.
func Standardise[T uint8 | float32](px []T) (mean, inv float32) {
	var sum, sq float64
	for _, v := range px {
		f := float64(v)
		sum += f
		sq += f * f
	}
	n := float64(len(px))
	mu := sum / n
	sd := math.Sqrt(math.Max(sq/n-mu*mu, 0))
	return float32(mu), float32(1 / math.Max(sd, 4))
}
