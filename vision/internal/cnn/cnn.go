package cnn

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
)

// Arch describes a network: input channels and side (square input), the
// output channels of each conv block (each block halves the side), the width
// of the hidden dense layer and the number of classes.
type Arch struct {
	InC     int
	Side    int
	Convs   []int
	Hidden  int
	Classes int
	// GAP averages each channel of the last conv block over the image
	// (global average pooling) before the hidden layer, instead of feeding
	// every position to it: far fewer weights, and counting-like.
	GAP bool
}

// Validate reports whether the architecture can be built.
func (a Arch) Validate() error {
	if a.InC < 1 || a.InC > 16 || a.Side < 2 || a.Side > 512 || a.Hidden < 1 || a.Hidden > 4096 ||
		a.Classes < 2 || a.Classes > 1000 || len(a.Convs) < 1 || len(a.Convs) > 8 {
		return fmt.Errorf("cnn: architecture %+v out of range", a)
	}
	s := a.Side
	for _, k := range a.Convs {
		if k < 1 || k > 512 || s%2 != 0 {
			return fmt.Errorf("cnn: architecture %+v: side %d cannot be pooled or %d channels out of range", a, s, k)
		}
		s /= 2
	}
	return nil
}

type conv struct {
	in, out, side int // side is the input side; output after pool is side/2
	w, b          []float32
}

type dense struct {
	in, out int
	w, b    []float32
	// wt is w laid out for the AVX-512 or AVX2 kernel (denseWT), wtRows
	// rows a call, made when a model file is read, dropped when the
	// weights are trained further; nil: dotRows reads w.
	wt     []float32
	wtRows int
}

// Net is a network's parameters. It is read-only during inference, so one
// Net can serve many Workspaces.
type Net struct {
	Arch   Arch
	convs  []conv
	hidden dense
	output dense
}

// New makes a network with He-initialised weights drawn from rng.
func New(a Arch, rng *rand.Rand) (*Net, error) {
	if err := a.Validate(); err != nil {
		return nil, err
	}
	n := &Net{Arch: a}
	c, s := a.InC, a.Side
	for _, k := range a.Convs {
		cv := conv{in: c, out: k, side: s, w: make([]float32, k*c*9), b: make([]float32, k)}
		heInit(cv.w, c*9, rng)
		n.convs = append(n.convs, cv)
		c, s = k, s/2
	}
	flat := c * s * s
	if a.GAP {
		flat = c
	}
	n.hidden = dense{in: flat, out: a.Hidden, w: make([]float32, a.Hidden*flat), b: make([]float32, a.Hidden)}
	heInit(n.hidden.w, flat, rng)
	n.output = dense{in: a.Hidden, out: a.Classes, w: make([]float32, a.Classes*a.Hidden), b: make([]float32, a.Classes)}
	heInit(n.output.w, a.Hidden, rng)
	return n, nil
}

func heInit(w []float32, fanIn int, rng *rand.Rand) {
	if rng == nil {
		return
	}
	sd := math.Sqrt(2 / float64(fanIn))
	for i := range w {
		w[i] = float32(rng.NormFloat64() * sd)
	}
}

// params lists every parameter slice in a fixed order (the file order).
func (n *Net) params() [][]float32 {
	var p [][]float32
	for i := range n.convs {
		p = append(p, n.convs[i].w, n.convs[i].b)
	}
	return append(p, n.hidden.w, n.hidden.b, n.output.w, n.output.b)
}

// NumParams is the number of trainable values.
func (n *Net) NumParams() int {
	t := 0
	for _, p := range n.params() {
		t += len(p)
	}
	return t
}

// InputLen is the length of the input tensor: InC*Side*Side.
func (n *Net) InputLen() int { return n.Arch.InC * n.Arch.Side * n.Arch.Side }

// Workspace holds the activations of one forward (and backward) pass. It is
// not safe for concurrent use; make one per goroutine.
type Workspace struct {
	net    *Net
	pad    [][]float32 // padded input of each conv block
	act    [][]float32 // pre-pool activation (after ReLU) of each conv block
	pool   [][]float32 // pooled output of each conv block
	arg    [][]int32   // argmax index into act for each pooled value
	gap    []float32   // channel means of the last block (GAP only)
	hid    []float32
	logits []float32
	Prob   []float32 // class probabilities of the last Forward

	// Training only: Smooth is the label smoothing of Backward's target
	// (0: none); SetDropout turns on dropout of the hidden layer.
	Smooth    float32
	drop      float32
	dropScale float32
	dropRng   *rand.Rand

	// the compact layout's buffers per conv block (allocated on the first
	// Forward that takes it): the input planes' shifted copies and the
	// activations; compact is whether the last Forward took it, wide
	// whether Forwards keep the wide layout (set by Backward)
	shift, cact   [][]float32
	compact, wide bool

	// gradients (allocated on first Backward)
	dpad  [][]float32
	dkpad [][]float32
	dact  [][]float32
	dpool [][]float32
	dhid  []float32
	dgap  []float32
}

// NewWorkspace allocates the buffers for one pass through n.
func (n *Net) NewWorkspace() *Workspace {
	ws := &Workspace{net: n, dropScale: 1}
	for _, cv := range n.convs {
		ws.pad = append(ws.pad, make([]float32, cv.in*planeLen(cv.side)))
		ws.act = append(ws.act, make([]float32, cv.out*cv.side*(cv.side+2)))
		h := cv.side / 2
		ws.pool = append(ws.pool, make([]float32, cv.out*h*h))
		ws.arg = append(ws.arg, make([]int32, cv.out*h*h))
	}
	if n.Arch.GAP {
		ws.gap = make([]float32, n.convs[len(n.convs)-1].out)
	}
	ws.hid = make([]float32, n.hidden.out)
	ws.logits = make([]float32, n.output.out)
	ws.Prob = make([]float32, n.output.out)
	return ws
}

// allocCompact allocates the compact layout's buffers.
func (ws *Workspace) allocCompact() {
	for _, cv := range ws.net.convs {
		ws.shift = append(ws.shift, make([]float32, 3*cv.in*compactLen(cv.side)))
		ws.cact = append(ws.cact, make([]float32, cv.out*compactWide(cv.side)))
	}
}

// SetDropout makes Forward drop each hidden unit with probability p (and
// scale the others by 1/(1-p)), drawing from rng; p = 0 turns it off.
// Use it for training only.
func (ws *Workspace) SetDropout(p float64, rng *rand.Rand) {
	if p <= 0 || p >= 1 || rng == nil {
		ws.drop, ws.dropScale, ws.dropRng = 0, 1, nil
		return
	}
	ws.drop, ws.dropScale, ws.dropRng = float32(p), float32(1/(1-p)), rng
}

// tapOffsets lists base+sign*(dy*ps+dx) for the nine taps of a 3x3 kernel
// on rows ps values long.
func tapOffsets(ps, base, sign int) [9]int {
	var o [9]int
	for t := range o {
		o[t] = base + sign*((t/3)*ps+t%3)
	}
	return o
}

// planeLen is the length of one zero-padded input plane of a side×side
// conv block: (side+2)² plus two values of slack, so that the last tap of a
// wide row (see Forward) stays inside the plane.
func planeLen(side int) int { return (side+2)*(side+2) + 2 }

// The compact layout (Forward's where the AVX2 kernels run): a conv
// block's outputs are each channel's side×side values in rows side long,
// compactWide(side) apart (whole vectors of 8); its input planes are each
// three column-shifted copies (shiftPlanes), compactLen(side) values
// apart, so that the taps of a run of outputs are runs of each copy. The
// wide layout computes side+2 values a row, two of them padding that no
// one reads: a third more work on a side of 6, a sixth on 12.
func compactWide(side int) int { return (side*side + 7) &^ 7 }

// compactLen is the length of one column-shifted copy of an input plane:
// side+2 rows of side values (a row of zeros above and below) and the
// slack that the last vector's taps read past them.
func compactLen(side int) int { return (side+2)*side + 8 }

// shiftPlanesGo writes the three column-shifted copies of each of the nin
// side×side planes of in (row-major) to sh, each copy compactLen(side)
// values long: copy dx holds at row y+1, column x the plane's value at
// row y, column x+dx-1 (0 outside the plane), so that tap (dy, dx) of
// output j = y·side+x is copy dx's value j + dy·side. The copies' first
// and last rows and their slack are never written: zero as allocated.
func shiftPlanesGo(sh, in []float32, side, nin int) {
	third, ss := compactLen(side), side*side
	for c := 0; c < nin; c++ {
		p := in[c*ss : (c+1)*ss]
		s0 := sh[3*c*third : 3*c*third+third]
		s1 := sh[(3*c+1)*third : (3*c+1)*third+third]
		s2 := sh[(3*c+2)*third : (3*c+2)*third+third]
		copy(s1[side:side+ss], p)
		copy(s0[side+1:side+ss], p[:ss-1])
		copy(s2[side:side+ss-1], p[1:])
		for y := 1; y <= side; y++ {
			s0[y*side] = 0        // column -1
			s2[y*side+side-1] = 0 // column side
		}
	}
}

// ErrInput is returned when an input tensor has the wrong length.
var ErrInput = errors.New("cnn: input has the wrong length")

// Forward runs the network on x (InC×Side×Side, row-major) and leaves the
// class probabilities in ws.Prob. It does not allocate.
func (ws *Workspace) Forward(x []float32) error {
	n := ws.net
	if len(x) != n.InputLen() {
		return fmt.Errorf("%w: %d values, want %d", ErrInput, len(x), n.InputLen())
	}
	in := x
	// the compact layout where the AVX2 kernels run, for inference (a
	// workspace that has been through Backward, or drops hidden units,
	// keeps the wide layout, which Backward reads)
	ws.compact = SIMDY && !ws.wide && ws.drop == 0
	for l, cv := range n.convs {
		if ws.compact {
			if ws.shift == nil {
				ws.allocCompact()
			}
			shiftPlanes(ws.shift[l], in, cv.side, cv.in)
			convReluLayerYC(ws.cact[l], ws.shift[l], cv.in, cv.side, cv.w, cv.b, cv.out)
			pool2(ws.pool[l], ws.cact[l], cv.side/2, cv.side, cv.out, compactWide(cv.side))
			in = ws.pool[l]
			continue
		}
		s, ps := cv.side, cv.side+2
		pst, wide := planeLen(s), s*ps
		pad := ws.pad[l]
		for c := 0; c < cv.in; c++ {
			for y := 0; y < s; y++ {
				copy(pad[c*pst+(y+1)*ps+1:c*pst+(y+1)*ps+1+s], in[c*s*s+y*s:c*s*s+y*s+s])
			}
		}
		// The output is computed "wide": rows of ps values of which the
		// first s are real, so each tap is one long axpy over the plane.
		act := ws.act[l]
		convReluLayer(act, pad, pst, cv.in, ps, cv.w, cv.b, cv.out, wide)
		// 2x2 max pooling (pool2Go says which value each square keeps)
		pool := ws.pool[l]
		pool2(pool, act, s/2, ps, cv.out, wide)
		in = pool
	}
	if n.Arch.GAP {
		last := n.convs[len(n.convs)-1]
		hh := (last.side / 2) * (last.side / 2)
		for k := range ws.gap {
			var sum float32
			for _, v := range in[k*hh : (k+1)*hh] {
				sum += v
			}
			ws.gap[k] = sum / float32(hh)
		}
		in = ws.gap
	}
	hd := n.hidden
	if hd.wt != nil {
		dotRowsWT(ws.hid, hd.w, hd.wt, in[:hd.in], hd.wtRows)
	} else {
		dotRows(ws.hid, hd.w, in[:hd.in])
	}
	for j := 0; j < hd.out; j++ {
		sum := hd.b[j] + ws.hid[j]
		if sum < 0 || (ws.drop > 0 && ws.dropRng.Float32() < ws.drop) {
			sum = 0
		}
		ws.hid[j] = sum * ws.dropScale
	}
	od := n.output
	maxv := float32(math.Inf(-1))
	for j := 0; j < od.out; j++ {
		sum := od.b[j]
		w := od.w[j*od.in : (j+1)*od.in]
		for i, v := range ws.hid {
			sum += w[i] * v
		}
		ws.logits[j] = sum
		if sum > maxv {
			maxv = sum
		}
	}
	var z float64
	for j, v := range ws.logits {
		e := math.Exp(float64(v - maxv))
		ws.Prob[j] = float32(e)
		z += e
	}
	for j := range ws.Prob {
		ws.Prob[j] = float32(float64(ws.Prob[j]) / z)
	}
	return nil
}

// poolArgs fills ws.arg[l] with the index into ws.act[l] that each pooled
// value of layer l came from: the first of the largest of its square, as
// Forward chose it.
func (ws *Workspace) poolArgs(l int) {
	cv := ws.net.convs[l]
	s, ps := cv.side, cv.side+2
	wide, h := s*ps, s/2
	act, arg := ws.act[l], ws.arg[l]
	for k := 0; k < cv.out; k++ {
		for y := 0; y < h; y++ {
			for xx := 0; xx < h; xx++ {
				i0 := int32(k*wide + 2*y*ps + 2*xx)
				best := i0
				for _, j := range [4]int32{i0, i0 + 1, i0 + int32(ps), i0 + int32(ps) + 1} {
					if act[j] > act[best] {
						best = j
					}
				}
				arg[k*h*h+y*h+xx] = best
			}
		}
	}
}

// Argmax returns the most probable class of the last Forward and its
// probability.
func (ws *Workspace) Argmax() (int, float32) {
	best := 0
	for j, p := range ws.Prob {
		if p > ws.Prob[best] {
			best = j
		}
	}
	return best, ws.Prob[best]
}

// Blend returns a new network whose every parameter is (1-w)·a + w·b, for
// two networks of one architecture (typically a network and a fine-tuned
// copy of it: a blend keeps much of what the copy learned while forgetting
// less of what the original knew).
func Blend(a, b *Net, w float32) (*Net, error) {
	if !sameArch(a.Arch, b.Arch) {
		return nil, fmt.Errorf("cnn: blend of %+v and %+v: the architectures differ", a.Arch, b.Arch)
	}
	if !(w >= 0 && w <= 1) {
		return nil, fmt.Errorf("cnn: blend weight %v not in 0-1", w)
	}
	out, err := New(a.Arch, nil)
	if err != nil {
		return nil, err
	}
	pa, pb, po := a.params(), b.params(), out.params()
	for i := range po {
		if len(pa[i]) != len(po[i]) || len(pb[i]) != len(po[i]) {
			return nil, fmt.Errorf("cnn: blend: parameter block %d has %d, %d and %d values", i, len(pa[i]), len(pb[i]), len(po[i]))
		}
		for j := range po[i] {
			po[i][j] = (1-w)*pa[i][j] + w*pb[i][j]
		}
	}
	return out, nil
}

func sameArch(a, b Arch) bool {
	if a.InC != b.InC || a.Side != b.Side || a.Hidden != b.Hidden || a.Classes != b.Classes || a.GAP != b.GAP || len(a.Convs) != len(b.Convs) {
		return false
	}
	for i := range a.Convs {
		if a.Convs[i] != b.Convs[i] {
			return false
		}
	}
	return true
}

// Widen returns a copy of n that reads inC input channels (at least n's):
// the first conv block's weights for the added channels are zero, so the
// copy reads every input exactly as n reads its first n.Arch.InC channels,
// whatever the added ones hold, until it is trained further (fine-tuning
// a network to use a new input plane from where it stands).
func Widen(n *Net, inC int) (*Net, error) {
	if inC < n.Arch.InC {
		return nil, fmt.Errorf("cnn: widen a %d-channel network to %d channels: fewer", n.Arch.InC, inC)
	}
	a := n.Arch
	a.InC = inC
	a.Convs = append([]int(nil), n.Arch.Convs...)
	out, err := New(a, nil)
	if err != nil {
		return nil, err
	}
	pn, po := n.params(), out.params()
	first := n.convs[0]
	for k := 0; k < first.out; k++ {
		copy(po[0][k*inC*9:], first.w[k*first.in*9:(k+1)*first.in*9])
	}
	for i := 1; i < len(po); i++ {
		copy(po[i], pn[i])
	}
	out.hidden.wt, out.hidden.wtRows = denseWT(out.hidden.w, out.hidden.in, out.hidden.out)
	return out, nil
}
