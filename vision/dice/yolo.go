package dice

import (
	"bufio"
	"errors"
	"fmt"
	"image"
	"io"
	"math"
	"strconv"
	"strings"
)

// ErrLabel is wrapped by every error about a malformed YOLO label line.
var ErrLabel = errors.New("dice: bad YOLO label")

// Label is one line of a YOLO label file: a class and a box centre and size
// normalised to the image (0..1). In the dice data sets class 0..5 means a
// die showing 1..6 pips.
type Label struct {
	Line   int // 1-based line number in the file
	Class  int
	CX, CY float64
	W, H   float64
}

// Pips is the die value the class stands for (class+1).
func (l Label) Pips() int { return l.Class + 1 }

// edgeSlack is how far (in normalised units) a box may stick out of the
// image before it counts as outside it: exporters round coordinates.
const edgeSlack = 0.01

// Rect converts the normalised box to pixels of a w×h image, clipped to the
// image. A box that lies more than a rounding error outside the image is an
// error wrapping ErrBox.
func (l Label) Rect(w, h int) (image.Rectangle, error) {
	x0, x1 := l.CX-l.W/2, l.CX+l.W/2
	y0, y1 := l.CY-l.H/2, l.CY+l.H/2
	if x0 < -edgeSlack || y0 < -edgeSlack || x1 > 1+edgeSlack || y1 > 1+edgeSlack {
		return image.Rectangle{}, fmt.Errorf("%w: line %d: box x %.4f..%.4f y %.4f..%.4f lies outside the image (0..1)",
			ErrBox, l.Line, x0, x1, y0, y1)
	}
	r := image.Rect(int(math.Round(x0*float64(w))), int(math.Round(y0*float64(h))),
		int(math.Round(x1*float64(w))), int(math.Round(y1*float64(h))))
	r = r.Intersect(image.Rect(0, 0, w, h))
	if r.Dx() < MinSide || r.Dy() < MinSide {
		return image.Rectangle{}, fmt.Errorf("%w: line %d: box is %dx%d pixels in a %dx%d image, want at least %d",
			ErrBox, l.Line, r.Dx(), r.Dy(), w, h, MinSide)
	}
	return r, nil
}

// maxLabelLine bounds a label line, so a binary file cannot exhaust memory.
const maxLabelLine = 4096

// ParseYOLO reads a YOLO label file: one `class cx cy w h` line per box,
// class a non-negative integer, the rest numbers in 0..1 (w and h above 0).
// Blank lines are skipped. A malformed line is an error wrapping ErrLabel
// that names the line number and what is wrong.
func ParseYOLO(r io.Reader) ([]Label, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 256), maxLabelLine)
	var out []Label
	line := 0
	for sc.Scan() {
		line++
		text := strings.TrimSpace(sc.Text())
		if text == "" {
			continue
		}
		l, err := parseLabelLine(text)
		if err != nil {
			return nil, fmt.Errorf("%w: line %d: %v", ErrLabel, line, err)
		}
		l.Line = line
		out = append(out, l)
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return nil, fmt.Errorf("%w: line %d: longer than %d bytes", ErrLabel, line+1, maxLabelLine)
		}
		return nil, fmt.Errorf("dice: reading labels: %w", err)
	}
	return out, nil
}

func parseLabelLine(text string) (Label, error) {
	f := strings.Fields(text)
	if len(f) != 5 {
		return Label{}, fmt.Errorf("%d fields, want 5 (class cx cy w h)", len(f))
	}
	cls, err := strconv.Atoi(f[0])
	if err != nil || cls < 0 || cls > 1000 {
		return Label{}, fmt.Errorf("class %q is not a class number (0, 1, 2, ...)", f[0])
	}
	var v [4]float64
	names := [4]string{"cx", "cy", "w", "h"}
	for i := range v {
		x, err := strconv.ParseFloat(f[i+1], 64)
		if err != nil || math.IsNaN(x) || math.IsInf(x, 0) {
			return Label{}, fmt.Errorf("%s %q is not a number", names[i], f[i+1])
		}
		if x < 0 || x > 1 {
			return Label{}, fmt.Errorf("%s %s is outside 0..1 (coordinates are normalised)", names[i], f[i+1])
		}
		if i >= 2 && x == 0 {
			return Label{}, fmt.Errorf("%s is 0 (an empty box)", names[i])
		}
		v[i] = x
	}
	return Label{Class: cls, CX: v[0], CY: v[1], W: v[2], H: v[3]}, nil
}
