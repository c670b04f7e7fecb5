package mlp

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"math"
	"math/rand/v2"
	"os"

	"github.com/blueprints-companion/blueprints/vision/internal/vec"
)

// Net is a fully connected network: inputs, ReLU hidden layers, a softmax
// output. Weights are float32, row-major per layer (out x in), then biases.
type Net struct {
	Sizes []int // inputs, hidden..., outputs
	W     [][]float32
	B     [][]float32
}

// MaxWidth bounds any layer's size in a model file.
const MaxWidth = 1 << 14

// New makes a network with He-initialised weights from a seeded source.
func New(sizes []int, seed uint64) (*Net, error) {
	if err := checkSizes(sizes); err != nil {
		return nil, err
	}
	rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	n := &Net{Sizes: append([]int(nil), sizes...)}
	for l := 0; l+1 < len(sizes); l++ {
		in, out := sizes[l], sizes[l+1]
		w := make([]float32, in*out)
		sd := math.Sqrt(2 / float64(in))
		for i := range w {
			w[i] = float32(rng.NormFloat64() * sd)
		}
		n.W = append(n.W, w)
		n.B = append(n.B, make([]float32, out))
	}
	return n, nil
}

func checkSizes(sizes []int) error {
	if len(sizes) < 2 || len(sizes) > 6 {
		return fmt.Errorf("%w: %d layers (want 2 to 6 sizes)", ErrFormat, len(sizes))
	}
	for i, s := range sizes {
		if s < 1 || s > MaxWidth {
			return fmt.Errorf("%w: layer %d has size %d (want 1 to %d)", ErrFormat, i, s, MaxWidth)
		}
	}
	if sizes[len(sizes)-1] < 2 {
		return fmt.Errorf("%w: %d outputs (want at least 2)", ErrFormat, sizes[len(sizes)-1])
	}
	return nil
}

// Inputs is the length of an input vector; Outputs the number of classes.
func (n *Net) Inputs() int  { return n.Sizes[0] }
func (n *Net) Outputs() int { return n.Sizes[len(n.Sizes)-1] }

// Scratch holds one forward pass's activations, so that Predict does not
// allocate. It belongs to one goroutine.
type Scratch struct{ act [][]float32 }

// NewScratch makes the buffers for n.
func (n *Net) NewScratch() *Scratch {
	s := &Scratch{}
	for _, sz := range n.Sizes {
		s.act = append(s.act, make([]float32, sz))
	}
	return s
}

// Predict writes the class probabilities for x into out (len Outputs) and
// returns out. x must have Inputs values.
func (n *Net) Predict(x []float32, s *Scratch, out []float32) []float32 {
	n.forward(x, s)
	copy(out, s.act[len(s.act)-1])
	return out
}

func (n *Net) forward(x []float32, s *Scratch) {
	copy(s.act[0], x)
	last := len(n.W) - 1
	for l, w := range n.W {
		in, out := s.act[l], s.act[l+1]
		ni := len(in)
		for o := range out {
			sum := n.B[l][o] + vec.Dot32(w[o*ni:(o+1)*ni], in)
			if l < last && sum < 0 {
				sum = 0
			}
			out[o] = sum
		}
	}
	softmax(s.act[len(s.act)-1])
}

func softmax(z []float32) {
	m := z[0]
	for _, v := range z {
		m = max(m, v)
	}
	var sum float32
	for i, v := range z {
		e := float32(math.Exp(float64(v - m)))
		z[i] = e
		sum += e
	}
	for i := range z {
		z[i] /= sum
	}
}

// Sample is one training example: inputs and the class.
type Sample struct {
	X     []float32
	Class int
}

// TrainOptions set the training run.
type TrainOptions struct {
	Epochs  int
	Batch   int
	LR      float64 // Adam step
	Decay   float64 // L2 weight decay
	Seed    uint64
	Weights []float64 // per-class loss weight; nil for 1 each
	// Augment, if set, may rewrite a copy of a sample's inputs before each
	// use (flips, rotations); it gets a seeded source.
	Augment func(x []float32, rng *rand.Rand)
	// Epoch, if set, is called after every epoch with its mean loss.
	Epoch func(epoch int, loss float64)
}

// Train fits the network to the samples with Adam on minibatches.
func (n *Net) Train(samples []Sample, o TrainOptions) error {
	if len(samples) == 0 {
		return errors.New("mlp: no samples")
	}
	for i, s := range samples {
		if len(s.X) != n.Inputs() || s.Class < 0 || s.Class >= n.Outputs() {
			return fmt.Errorf("mlp: sample %d: %d inputs, class %d (want %d inputs, class < %d)", i, len(s.X), s.Class, n.Inputs(), n.Outputs())
		}
	}
	if o.Batch < 1 {
		o.Batch = 32
	}
	rng := rand.New(rand.NewPCG(o.Seed, 7))
	sc := n.NewScratch()
	// gradients and Adam moments, one per parameter slice
	var gw, gb, mw, vw, mb, vb [][]float32
	for l := range n.W {
		gw, mw, vw = append(gw, make([]float32, len(n.W[l]))), append(mw, make([]float32, len(n.W[l]))), append(vw, make([]float32, len(n.W[l])))
		gb, mb, vb = append(gb, make([]float32, len(n.B[l]))), append(mb, make([]float32, len(n.B[l]))), append(vb, make([]float32, len(n.B[l])))
	}
	delta := make([][]float32, len(n.Sizes))
	for l, sz := range n.Sizes {
		delta[l] = make([]float32, sz)
	}
	x := make([]float32, n.Inputs())
	order := make([]int, len(samples))
	for i := range order {
		order[i] = i
	}
	step := 0
	const b1, b2, eps = 0.9, 0.999, 1e-8
	for ep := 0; ep < o.Epochs; ep++ {
		rng.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
		var total float64
		lr := o.LR * 0.5 * (1 + math.Cos(math.Pi*float64(ep)/float64(o.Epochs))) // cosine schedule
		for start := 0; start < len(order); start += o.Batch {
			end := min(start+o.Batch, len(order))
			for l := range gw {
				clear(gw[l])
				clear(gb[l])
			}
			for _, idx := range order[start:end] {
				s := samples[idx]
				copy(x, s.X)
				if o.Augment != nil {
					o.Augment(x, rng)
				}
				n.forward(x, sc)
				out := sc.act[len(sc.act)-1]
				wgt := float32(1)
				if o.Weights != nil {
					wgt = float32(o.Weights[s.Class])
				}
				total += -math.Log(math.Max(float64(out[s.Class]), 1e-12)) * float64(wgt)
				d := delta[len(delta)-1]
				for i := range d {
					d[i] = out[i] * wgt
				}
				d[s.Class] -= wgt
				for l := len(n.W) - 1; l >= 0; l-- {
					in, dout := sc.act[l], delta[l+1]
					ni := len(in)
					din := delta[l]
					clear(din)
					for o2, g := range dout {
						if g == 0 {
							continue
						}
						gb[l][o2] += g
						row := gw[l][o2*ni : (o2+1)*ni]
						wrow := n.W[l][o2*ni : (o2+1)*ni]
						for i, v := range in {
							row[i] += g * v
							din[i] += g * wrow[i]
						}
					}
					if l > 0 { // through the ReLU of the layer below
						for i, v := range in {
							if v <= 0 {
								din[i] = 0
							}
						}
					}
				}
			}
			step++
			bs := float32(end - start)
			c1 := 1 - math.Pow(b1, float64(step))
			c2 := 1 - math.Pow(b2, float64(step))
			upd := func(p, g, m, v []float32, decay float64) {
				for i := range p {
					gi := g[i]/bs + float32(decay)*p[i]
					m[i] = b1*m[i] + (1-b1)*gi
					v[i] = b2*v[i] + (1-b2)*gi*gi
					p[i] -= float32(lr * (float64(m[i]) / c1) / (math.Sqrt(float64(v[i])/c2) + eps))
				}
			}
			for l := range n.W {
				upd(n.W[l], gw[l], mw[l], vw[l], o.Decay)
				upd(n.B[l], gb[l], mb[l], vb[l], 0)
			}
		}
		if o.Epoch != nil {
			o.Epoch(ep, total/float64(len(order)))
		}
	}
	return nil
}

// The model file: the magic line, the number of sizes and each size as
// little-endian uint32, every weight then bias of each layer as
// little-endian float32, then a CRC-32 (IEEE) of everything before it.
const magic = "blueprints-mlp v1\n"

// ErrFormat is wrapped for a model file that cannot be read.
var ErrFormat = errors.New("mlp: not a model file")

// MarshalBinary encodes the network as a model file.
func (n *Net) MarshalBinary() ([]byte, error) {
	var buf bytes.Buffer
	buf.WriteString(magic)
	hdr := []uint32{uint32(len(n.Sizes))}
	for _, s := range n.Sizes {
		hdr = append(hdr, uint32(s))
	}
	if err := binary.Write(&buf, binary.LittleEndian, hdr); err != nil {
		return nil, err
	}
	for l := range n.W {
		if err := binary.Write(&buf, binary.LittleEndian, n.W[l]); err != nil {
			return nil, err
		}
		if err := binary.Write(&buf, binary.LittleEndian, n.B[l]); err != nil {
			return nil, err
		}
	}
	if err := binary.Write(&buf, binary.LittleEndian, crc32.ChecksumIEEE(buf.Bytes())); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// Unmarshal decodes a model file made by MarshalBinary.
func Unmarshal(data []byte) (*Net, error) {
	if len(data) < len(magic)+8 || string(data[:len(magic)]) != magic {
		return nil, fmt.Errorf("%w: missing header", ErrFormat)
	}
	body, sum := data[:len(data)-4], binary.LittleEndian.Uint32(data[len(data)-4:])
	if crc32.ChecksumIEEE(body) != sum {
		return nil, fmt.Errorf("%w: checksum mismatch (damaged file)", ErrFormat)
	}
	r := body[len(magic):]
	u32 := func() (uint32, bool) {
		if len(r) < 4 {
			return 0, false
		}
		v := binary.LittleEndian.Uint32(r)
		r = r[4:]
		return v, true
	}
	nl, ok := u32()
	if !ok || nl < 2 || nl > 6 {
		return nil, fmt.Errorf("%w: bad layer count", ErrFormat)
	}
	sizes := make([]int, nl)
	for i := range sizes {
		v, ok := u32()
		if !ok || v > MaxWidth {
			return nil, fmt.Errorf("%w: bad size of layer %d", ErrFormat, i)
		}
		sizes[i] = int(v)
	}
	if err := checkSizes(sizes); err != nil {
		return nil, err
	}
	want := 0
	for l := 0; l+1 < len(sizes); l++ {
		want += (sizes[l] + 1) * sizes[l+1]
	}
	if len(r) != 4*want {
		return nil, fmt.Errorf("%w: %d bytes of parameters, want %d", ErrFormat, len(r), 4*want)
	}
	n := &Net{Sizes: sizes}
	f32 := func(k int) []float32 {
		out := make([]float32, k)
		for i := range out {
			out[i] = math.Float32frombits(binary.LittleEndian.Uint32(r[4*i:]))
		}
		r = r[4*k:]
		return out
	}
	for l := 0; l+1 < len(sizes); l++ {
		n.W = append(n.W, f32(sizes[l]*sizes[l+1]))
		n.B = append(n.B, f32(sizes[l+1]))
	}
	for l := range n.W {
		for _, p := range [][]float32{n.W[l], n.B[l]} {
			for _, v := range p {
				if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
					return nil, fmt.Errorf("%w: a parameter of layer %d is not finite", ErrFormat, l)
				}
			}
			vec.FlushSubnormals(p) // they change no reading but slow every multiply
		}
	}
	return n, nil
}

// ReadFile reads a model file; a file that is not one is named in the error.
func ReadFile(path string) (*Net, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	n, err := Unmarshal(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return n, nil
}
