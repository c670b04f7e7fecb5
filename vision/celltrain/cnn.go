package main

import (
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/blueprints-companion/blueprints/vision"
	"github.com/blueprints-companion/blueprints/vision/internal/cnn"
	"github.com/blueprints-companion/blueprints/vision/internal/mlp"
)

// predictor runs a trained network on one input: an MLP or a CNN.
type predictor func(x, out []float32)

func mlpPredictor(n *mlp.Net) predictor {
	s := n.NewScratch()
	return func(x, out []float32) { n.Predict(x, s, out) }
}

func cnnPredictor(n *cnn.Net) predictor {
	ws := n.NewWorkspace()
	return func(x, out []float32) {
		if err := ws.Forward(x); err != nil {
			panic(err) // inputs are built to the network's length
		}
		copy(out, ws.Prob)
	}
}

// loadPipPredictor reads a pip model file of either kind (an MLP, or one
// or more CNNs) and says the side of the patch it reads.
func loadPipPredictor(b []byte) (p predictor, side, planes int, err error) {
	if n, err := mlp.Unmarshal(b); err == nil {
		return mlpPredictor(n), vision.PipSide, 1, nil
	}
	nets, err := cnn.UnmarshalAll(b)
	if err != nil {
		return nil, 0, 0, err
	}
	return cnnMeanPredictor(nets), nets[0].Arch.Side, nets[0].Arch.InC, nil
}

// cnnMeanPredictor averages the probabilities of CNNs that read the same
// input (one network: its own).
func cnnMeanPredictor(nets []*cnn.Net) predictor {
	if len(nets) == 1 {
		return cnnPredictor(nets[0])
	}
	var ps []predictor
	for _, n := range nets {
		ps = append(ps, cnnPredictor(n))
	}
	return meanPredictor(ps, nets[0].Arch.Classes)
}

// parseConvs reads a comma-separated list of conv block widths.
func parseConvs(s string) ([]int, error) {
	var out []int
	for _, f := range strings.Split(s, ",") {
		k, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || k < 1 {
			return nil, fmt.Errorf("conv widths %q: want a list like 16,32", s)
		}
		out = append(out, k)
	}
	return out, nil
}

// trainCNN trains a CNN classifier: mini-batch Adam, linear warm-up over
// the first epoch then a cosine decay. prep turns a sample's stored inputs
// into the network's input tensor (dst), augmenting them at random.
func trainCNN(name string, samples []mlp.Sample, arch cnn.Arch, prep func(dst, x []float32, rng *rand.Rand), epochs int, lr float64, seed uint64, start time.Time) (*cnn.Net, error) {
	return trainCNNFrom(name, samples, arch, nil, prep, epochs, lr, seed, 0, start)
}

// readFrom reads the networks a -pip-from or -height-from file (flag)
// holds to fine-tune members CNNs from; none for an empty path. With side
// > 0 only those of that input side count (a nadir height CNN file may
// hold networks of several sides).
func readFrom(flag, path string, members, side int) ([]*cnn.Net, error) {
	if path == "" {
		return nil, nil
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	from, err := cnn.UnmarshalMixed(b)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if side > 0 {
		// a file of networks of several sides (height_nadir.cnn): those
		// of the side to be trained, in their order
		var same []*cnn.Net
		for _, n := range from {
			if n.Arch.Side == side {
				same = append(same, n)
			}
		}
		if len(same) == 0 {
			return nil, fmt.Errorf("%s %s holds no network of side %d", flag, path, side)
		}
		from = same
	}
	if len(from) < members {
		return nil, fmt.Errorf("%s %s holds %d networks, %d are to be trained", flag, path, len(from), members)
	}
	return from, nil
}

// trainCNNFrom trains a CNN of arch from random weights, or, with from,
// from a copy of that network's weights (from must be of arch), dropping
// each hidden unit with probability dropout while it learns (0: none).
func trainCNNFrom(name string, samples []mlp.Sample, arch cnn.Arch, from *cnn.Net, prep func(dst, x []float32, rng *rand.Rand), epochs int, lr float64, seed uint64, dropout float64, start time.Time) (*cnn.Net, error) {
	rng := rand.New(rand.NewPCG(seed, 0x91b5))
	net, err := cnn.New(arch, rng)
	if err != nil {
		return nil, err
	}
	if from != nil {
		if fa := from.Arch; fmt.Sprintf("%+v", fa) != fmt.Sprintf("%+v", arch) {
			return nil, fmt.Errorf("%s: the network to start from is %+v, not %+v", name, fa, arch)
		}
		b, err := from.MarshalBinary()
		if err != nil {
			return nil, err
		}
		if net, err = cnn.Unmarshal(b); err != nil {
			return nil, err
		}
	}
	ws := net.NewWorkspace()
	ws.Smooth = 0.05
	ws.SetDropout(dropout, rng)
	gr := net.NewGrads()
	opt := net.NewAdam(lr)
	opt.WeightDecay = 1e-4
	x := make([]float32, net.InputLen())
	order := make([]int, len(samples))
	for i := range order {
		order[i] = i
	}
	const batch = 32
	perEpoch := (len(samples) + batch - 1) / batch
	steps, step := epochs*perEpoch, 0
	for ep := 0; ep < epochs; ep++ {
		rng.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
		var loss float64
		for b := 0; b < len(order); b += batch {
			gr.Zero()
			n := 0
			for _, i := range order[b:min(b+batch, len(order))] {
				prep(x, samples[i].X, rng)
				if err := ws.Forward(x); err != nil {
					return nil, err
				}
				loss += ws.Backward(x, samples[i].Class, gr)
				n++
			}
			opt.LR = cnn.WarmCosineLR(lr, step, steps, perEpoch)
			opt.Step(net, gr, n)
			step++
		}
		if ep%5 == 4 || ep == epochs-1 {
			fmt.Fprintf(os.Stderr, "%s epoch %d loss %.4f (%s)\n", name, ep+1, loss/float64(len(samples)), time.Since(start).Round(time.Second))
		}
	}
	return net, nil
}

// prepPips augments a pip patch: one random symmetry of the square.
func prepPips(dst, x []float32, rng *rand.Rand) {
	copy(dst, x)
	vision.AugmentPips(dst, rng)
}

// pipPrep augments a pip patch as prepPips does, then (shift > 0) moves
// every plane by one whole number of samples, up to shift either way
// along each axis (the edge repeated), and (noise > 0) adds Gaussian noise
// of that deviation to every value (the planes are zero mean, unit
// variance): the patch's place and the sensor's noise varied a little
// more than the renders show, against the pip CNNs learning their
// training tops far better than they read others.
func pipPrep(shift int, noise float64) func(dst, x []float32, rng *rand.Rand) {
	if shift <= 0 && noise <= 0 {
		return prepPips
	}
	var tmp []float32
	return func(dst, x []float32, rng *rand.Rand) {
		prepPips(dst, x, rng)
		if shift > 0 {
			side, planes := vision.PipShapeOf(len(dst))
			dx, dy := rng.IntN(2*shift+1)-shift, rng.IntN(2*shift+1)-shift
			if side > 0 && (dx != 0 || dy != 0) {
				tmp = append(tmp[:0], dst...)
				shiftPlanes(dst, tmp, side, planes, dx, dy)
			}
		}
		if noise > 0 {
			for i := range dst {
				dst[i] += float32(noise * rng.NormFloat64())
			}
		}
	}
}

// shiftPlanes writes into dst each side² plane of src moved by (dx, dy)
// samples: dst's point (i, j) is src's (i-dy, j-dx), clamped to the
// plane (its edge repeated).
func shiftPlanes(dst, src []float32, side, planes, dx, dy int) {
	n := side * side
	for p := 0; p < planes; p++ {
		s, d := src[p*n:(p+1)*n], dst[p*n:(p+1)*n]
		for i := 0; i < side; i++ {
			si := min(max(i-dy, 0), side-1)
			for j := 0; j < side; j++ {
				sj := min(max(j-dx, 0), side-1)
				d[i*side+j] = s[si*side+sj]
			}
		}
	}
}

// convertingPrep augments a copy of a sample's stored inputs (n long)
// and converts them into a CNN's input.
func convertingPrep(n int, augment func([]float32, *rand.Rand), convert func(src, dst []float32)) func(dst, x []float32, rng *rand.Rand) {
	buf := make([]float32, n)
	return func(dst, x []float32, rng *rand.Rand) {
		copy(buf, x)
		augment(buf, rng)
		convert(buf, dst)
	}
}

// convertingPredictor runs a CNN on stored inputs converted to its input.
func convertingPredictor(n *cnn.Net, convert func(src, dst []float32)) predictor {
	p := cnnPredictor(n)
	x := make([]float32, n.InputLen())
	return func(in, out []float32) {
		convert(in, x)
		p(x, out)
	}
}

// The height CNN reads a cell's inputs at every level (one symmetry of
// the square for all of them when training); the material CNN one level's.
func heightCNNPrep() func(dst, x []float32, rng *rand.Rand) {
	return convertingPrep(vision.CellInputs, vision.AugmentCell, vision.HeightCNNInput)
}

// nadirPrep augments a nadir height CNN's planes (side² each): one random
// symmetry of the square for every level.
func nadirPrep(side int) func(dst, x []float32, rng *rand.Rand) {
	return func(dst, x []float32, rng *rand.Rand) {
		copy(dst, x)
		vision.AugmentPlanes(dst, side, vision.HeightCNNChannels, rng)
	}
}

func heightCNNPredictor(n *cnn.Net) predictor {
	return convertingPredictor(n, vision.HeightCNNInput)
}

func materialCNNPrep() func(dst, x []float32, rng *rand.Rand) {
	return convertingPrep(vision.TopInputs, vision.AugmentTop, vision.MaterialCNNInput)
}

func materialCNNPredictor(n *cnn.Net) predictor {
	return convertingPredictor(n, vision.MaterialCNNInput)
}

// meanPredictor averages the probabilities of several predictors.
func meanPredictor(ps []predictor, classes int) predictor {
	tmp := make([]float32, classes)
	return func(x, out []float32) {
		clear(out)
		for _, p := range ps {
			p(x, tmp)
			for k, v := range tmp {
				out[k] += v / float32(len(ps))
			}
		}
	}
}

// cnnEnsemble writes networks as one model file (one network as a plain
// model file).
type cnnEnsemble []*cnn.Net

func (e cnnEnsemble) MarshalBinary() ([]byte, error) { return cnn.MarshalEnsemble(e) }

// glassLevelSamples are the glass levels network's samples of cells: every
// clear glass top that counts as uncovered (a hand hides less than
// vision.HandCovered of it, other dice less than vision.HiddenByDice: the
// stacks the bench scores), read at its true pose only, seen as if read a
// level low, at its height and a level high (vision.GlassLevelsInput).
func glassLevelSamples(cells []vision.CellSample) []mlp.Sample {
	var out []mlp.Sample
	for _, c := range cells {
		if c.Jittered || c.Material != 'G' || c.Height < 1 || c.Hand >= vision.HandCovered || c.Hidden >= vision.HiddenByDice || c.Pips[0] == nil {
			continue
		}
		for h := c.Height - 1; h <= c.Height+1; h++ {
			if h < 1 || h > vision.MaxStack {
				continue
			}
			x := make([]float32, 3*len(c.Pips[0]))
			vision.GlassLevelsInput(&c.Pips, h, x)
			out = append(out, mlp.Sample{X: x, Class: vision.GlassLevelsClass(c.Height, c.PipsTop, h)})
		}
	}
	return out
}

// reportGlassLevels prints how many validation samples the glass levels
// networks (predict) read right, in all and where the read height is the
// true one.
func reportGlassLevels(predict predictor, val []mlp.Sample) {
	var ok, okAt, at int
	p := make([]float32, vision.GlassLevelsClasses)
	for _, s := range val {
		predict(s.X, p)
		k := 0
		for i := range p {
			if p[i] > p[k] {
				k = i
			}
		}
		if k == s.Class {
			ok++
		}
		if s.Class/6 == 1 {
			at++
			if k == s.Class {
				okAt++
			}
		}
	}
	fmt.Printf("glass levels: validation %d / %d right (%.1f %%), read at the true height %d / %d\n", ok, len(val), 100*float64(ok)/float64(max(len(val), 1)), okAt, at)
}
