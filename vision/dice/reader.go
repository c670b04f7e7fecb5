package dice

import (
	_ "embed"
	"errors"
	"fmt"
	"image"
	"math"

	"gocv.io/x/gocv"

	"github.com/blueprints-companion/blueprints/vision/dice/internal/aug"
	"github.com/blueprints-companion/blueprints/vision/internal/cnn"
	"github.com/blueprints-companion/blueprints/vision/internal/imgsize"
)

// The committed model, trained by `make dice-model` (vision/dice/train): one
// network or an ensemble of several (cnn.MarshalEnsemble) whose answers are
// averaged.
//
//go:embed model/pips.cnn
var defaultModel []byte

// Reading is the value of one die and how sure the reader is of it.
type Reading struct {
	Pips       int     `json:"pips"`       // 1..6
	Confidence float64 `json:"confidence"` // 0..1, the model's probability of Pips
}

// Options configure a Reader. The zero value is the default.
type Options struct {
	// Model is a model file (as written by vision/dice/train: one network
	// or an ensemble of networks, whose answers are averaged). Empty means
	// the model compiled into the package.
	Model []byte
	// NoFlipAverage turns off averaging the model's answer over the patch
	// and its mirror image. It is the same as Passes: 1, now the default
	// (see DefaultPasses).
	NoFlipAverage bool
	// Passes is how many symmetries of the patch (turns and mirror
	// images, which leave the pip count alone) the model's answer is
	// averaged over: 1, 2, 4 or 8, each one more pass through each network
	// of the model.
	// 0 means DefaultPasses. The committed model was trained on upright
	// views (the top face of a die seen at an angle is the upper part of
	// its box) and their mirror images only, so 4 and 8, which add half
	// and quarter turns, read worse with it.
	Passes int
	// Boxes is how many placements of the box are read, each with all the
	// passes: 1 (the box as given) or 3 (also the box moved up and down by
	// BoxShift of its height: detectors' boxes are loose, and the top face
	// of a die seen at an angle sits in the upper part of its box). 0
	// means DefaultBoxes.
	Boxes int
}

// DefaultBoxes is the number of box placements read unless Options says
// otherwise.
const DefaultBoxes = 3

// BoxShift is how far the extra boxes of Options.Boxes are moved, as a
// fraction of the box's height.
const BoxShift = 0.05

// ViewBoxes appends to dst the boxes a reader with Boxes: k reads for box
// in an image with the given bounds: box itself, then for k >= 3 box moved
// up and down by BoxShift of its height, cut to the image (a moved box is
// left out when it is not moved at all or keeps fewer than MinSide pixels).
func ViewBoxes(dst []image.Rectangle, box, bounds image.Rectangle, k int) []image.Rectangle {
	dst = append(dst, box)
	if k < 3 {
		return dst
	}
	dy := int(math.Round(BoxShift * float64(box.Dy())))
	if dy == 0 {
		return dst
	}
	for _, d := range [2]int{-dy, dy} {
		b := box.Add(image.Pt(0, d)).Intersect(bounds)
		if b.Dx() >= MinSide && b.Dy() >= MinSide {
			dst = append(dst, b)
		}
	}
	return dst
}

// DefaultPasses is the number of symmetries averaged unless Options says
// otherwise. With the committed model (two networks, three box placements)
// one pass per box keeps a read to about 4.5 ms on one core; Passes: 2 (the
// mirror images too) read 0.9 points better on the validation fold (89.4 %
// against 88.5 %, 746 dice) at twice the time.
const DefaultPasses = 1

// symmetryOrder is the order in which Passes uses the symmetries of the
// square (internal/aug.Dihedral numbering): the patch, its mirror image,
// the half turn and its mirror, then the quarter turns.
var symmetryOrder = [8]int{0, 4, 2, 6, 1, 5, 3, 7}

// Symmetries lists the symmetries (0..7, see internal/aug) that a reader
// with Passes: k averages over; k is rounded down to 1, 2, 4 or 8.
func Symmetries(k int) []int {
	switch {
	case k >= 8:
		k = 8
	case k >= 4:
		k = 4
	case k >= 2:
		k = 2
	default:
		k = 1
	}
	return symmetryOrder[:k]
}

// Reader reads the pips of one die at a time. It owns its buffers (Mats
// included) and must be closed. A Reader is not safe for concurrent use;
// make one per goroutine.
type Reader struct {
	ws    []*cnn.Workspace
	reads []channelRead // one per kind of input (side, grey or colour) the members take
	prob  [6]float64
	syms  []int
	boxes int
	views [3]image.Rectangle
}

// channelRead is the patch one kind of input (its side, grey or colour)
// of the model's networks is cut into, and the members (indices of
// Reader.ws) that read it.
type channelRead struct {
	patch   *Patcher
	raw, in []float32
	members []int
}

// NewReader loads the model and allocates the buffers.
func NewReader(opt Options) (*Reader, error) {
	data := opt.Model
	if len(data) == 0 {
		data = defaultModel
	}
	nets, err := cnn.UnmarshalMixed(data)
	if err != nil {
		return nil, fmt.Errorf("dice: loading the pip model: %w", err)
	}
	// The members share the classes (cnn.UnmarshalMixed); networks
	// reading grey and colour patches, or patches of other sides, may be
	// averaged.
	var reads []channelRead
	for i, n := range nets {
		if (n.Arch.InC != 1 && n.Arch.InC != 3) || n.Arch.Classes != 6 {
			return nil, fmt.Errorf("dice: pip model network %d has %d input channels and %d classes, want 1 or 3 and 6", i+1, n.Arch.InC, n.Arch.Classes)
		}
		k := 0
		for k < len(reads) && (reads[k].patch.channels != n.Arch.InC || reads[k].patch.side != n.Arch.Side) {
			k++
		}
		if k == len(reads) {
			reads = append(reads, channelRead{
				patch: NewPatcher(n.Arch.Side, n.Arch.InC),
				raw:   make([]float32, n.InputLen()),
				in:    make([]float32, n.InputLen()),
			})
		}
		reads[k].members = append(reads[k].members, i)
	}
	passes := opt.Passes
	switch {
	case opt.NoFlipAverage:
		passes = 1
	case passes <= 0:
		passes = DefaultPasses
	}
	boxes := opt.Boxes
	switch {
	case boxes <= 0:
		boxes = DefaultBoxes
	case boxes >= 3:
		boxes = 3
	default:
		boxes = 1
	}
	ws := make([]*cnn.Workspace, len(nets))
	for i, n := range nets {
		ws[i] = n.NewWorkspace()
	}
	return &Reader{
		ws:    ws,
		reads: reads,
		syms:  Symmetries(passes),
		boxes: boxes,
	}, nil
}

// Close frees the reader's Mats.
func (r *Reader) Close() error {
	var err error
	for _, c := range r.reads {
		err = errors.Join(err, c.patch.Close())
	}
	return err
}

// Read returns the value of the die inside box (pixels of img; img is 8-bit
// grey, BGR or BGRA). The box should hold one die, as a detector would draw
// it; seen from above or at an angle, the face read is the one on top.
func (r *Reader) Read(img gocv.Mat, box image.Rectangle) (Reading, error) {
	if err := CheckBox(img, box); err != nil {
		return Reading{}, err
	}
	boxes := ViewBoxes(r.views[:0], box, image.Rect(0, 0, img.Cols(), img.Rows()), r.boxes)
	r.prob = [6]float64{}
	views := float64(len(boxes) * len(r.syms) * len(r.ws))
	for _, b := range boxes {
		for _, c := range r.reads {
			if err := c.patch.Patch(img, b, false, c.raw); err != nil {
				return Reading{}, err
			}
			for _, sym := range r.syms {
				aug.Dihedral(c.in, c.raw, c.patch.side, sym)
				for _, m := range c.members {
					ws := r.ws[m]
					if err := ws.Forward(c.in); err != nil {
						return Reading{}, fmt.Errorf("dice: %w", err)
					}
					for j, p := range ws.Prob {
						r.prob[j] += float64(p) / views
					}
				}
			}
		}
	}
	best := 0
	for j, p := range r.prob {
		if p > r.prob[best] {
			best = j
		}
	}
	return Reading{Pips: best + 1, Confidence: r.prob[best]}, nil
}

// ReadFile reads the image at path and the die in each box (in pixels).
// The image is loaded, read and freed here, so no Mat leaves the package.
func (r *Reader) ReadFile(path string, boxes []image.Rectangle) ([]Reading, error) {
	img, err := LoadImage(path)
	if err != nil {
		return nil, err
	}
	defer img.Close()
	out := make([]Reading, 0, len(boxes))
	for i, b := range boxes {
		rd, err := r.Read(img.mat, b)
		if err != nil {
			return nil, fmt.Errorf("dice: box %d: %w", i+1, err)
		}
		out = append(out, rd)
	}
	return out, nil
}

// Image is a decoded image owned by this package; it must be closed.
type Image struct {
	mat gocv.Mat
}

// LoadImage decodes the image file at path (any format OpenCV reads).
func LoadImage(path string) (*Image, error) {
	data, err := imgsize.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("%w: %s: %v", ErrImage, path, err)
	}
	m, err := gocv.IMDecode(data, gocv.IMReadColor)
	if err != nil {
		return nil, fmt.Errorf("%w: %s: %v", ErrImage, path, err)
	}
	if m.Empty() {
		m.Close()
		return nil, fmt.Errorf("%w: %s is not an image OpenCV can decode", ErrImage, path)
	}
	return &Image{mat: m}, nil
}

// Size is the image's width and height in pixels.
func (im *Image) Size() (int, int) { return im.mat.Cols(), im.mat.Rows() }

// Mat is the decoded image (BGR) for callers inside vision/; it stays owned
// by im.
func (im *Image) Mat() gocv.Mat { return im.mat }

// Close frees the image.
func (im *Image) Close() error { return im.mat.Close() }
