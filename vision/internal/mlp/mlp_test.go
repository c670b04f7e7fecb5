package mlp

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Two interleaved spirals-like classes that a linear model cannot split:
// class = whether x and y have the same sign (XOR).
func xorSamples(n int, seed uint64) []Sample {
	rng := rand.New(rand.NewPCG(seed, 1))
	var out []Sample
	for i := 0; i < n; i++ {
		x, y := rng.Float32()*2-1, rng.Float32()*2-1
		c := 0
		if (x > 0) == (y > 0) {
			c = 1
		}
		out = append(out, Sample{X: []float32{x, y}, Class: c})
	}
	return out
}

func accuracy(n *Net, s []Sample) float64 {
	sc := n.NewScratch()
	out := make([]float32, n.Outputs())
	right := 0
	for _, x := range s {
		p := n.Predict(x.X, sc, out)
		if (p[1] > p[0]) == (x.Class == 1) {
			right++
		}
	}
	return float64(right) / float64(len(s))
}

func TestTrainLearnsXOR(t *testing.T) {
	n, err := New([]int{2, 16, 2}, 1)
	require.NoError(t, err)
	test := xorSamples(500, 2)
	before := accuracy(n, test)
	require.NoError(t, n.Train(xorSamples(2000, 1), TrainOptions{Epochs: 30, Batch: 16, LR: 0.01, Seed: 3}))
	after := accuracy(n, test)
	assert.Greater(t, after, 0.95, "XOR accuracy after training (before %.2f)", before)
}

func TestTrainIsSeeded(t *testing.T) {
	train := func() []byte {
		n, _ := New([]int{2, 8, 2}, 5)
		require.NoError(t, n.Train(xorSamples(300, 1), TrainOptions{Epochs: 3, LR: 0.01, Seed: 9}))
		b, err := n.MarshalBinary()
		require.NoError(t, err)
		return b
	}
	assert.Equal(t, train(), train())
}

func TestTrainRejectsBadSamples(t *testing.T) {
	n, _ := New([]int{2, 4, 2}, 1)
	assert.Error(t, n.Train(nil, TrainOptions{Epochs: 1}))
	assert.ErrorContains(t, n.Train([]Sample{{X: []float32{1}, Class: 0}}, TrainOptions{Epochs: 1}), "sample 0")
	assert.ErrorContains(t, n.Train([]Sample{{X: []float32{1, 2}, Class: 2}}, TrainOptions{Epochs: 1}), "class 2")
}

func TestModelFileRoundTrip(t *testing.T) {
	n, _ := New([]int{3, 5, 4, 2}, 1)
	b, err := n.MarshalBinary()
	require.NoError(t, err)
	m, err := Unmarshal(b)
	require.NoError(t, err)
	assert.Equal(t, n.Sizes, m.Sizes)
	assert.Equal(t, n.W, m.W)
	assert.Equal(t, n.B, m.B)

	// damaged files are refused with a reason
	for name, bad := range map[string][]byte{
		"empty":     nil,
		"truncated": b[:len(b)-9],
		"flipped":   append(append([]byte(nil), b[:40]...), append([]byte{b[40] ^ 1}, b[41:]...)...),
		"not ours":  []byte("blueprints-cnn v1\nxxxxxxxxxxxx"),
	} {
		_, err := Unmarshal(bad)
		assert.ErrorIs(t, err, ErrFormat, name)
	}
}

func TestPredictDoesNotAllocate(t *testing.T) {
	n, _ := New([]int{64, 32, 5}, 1)
	sc := n.NewScratch()
	x := make([]float32, 64)
	out := make([]float32, 5)
	allocs := testing.AllocsPerRun(100, func() { n.Predict(x, sc, out) })
	assert.Zero(t, allocs)
	var sum float32
	for _, p := range n.Predict(x, sc, out) {
		sum += p
	}
	assert.InDelta(t, 1, sum, 1e-5, "probabilities sum to 1")
}

func FuzzUnmarshal(f *testing.F) {
	n, _ := New([]int{3, 4, 2}, 1)
	b, _ := n.MarshalBinary()
	f.Add(b)
	f.Add([]byte(magic))
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := Unmarshal(data)
		if err != nil {
			return
		}
		sc := m.NewScratch()
		m.Predict(make([]float32, m.Inputs()), sc, make([]float32, m.Outputs()))
	})
}

func BenchmarkPredict(b *testing.B) {
	n, _ := New([]int{640, 128, 6}, 1)
	sc := n.NewScratch()
	x := make([]float32, 640)
	out := make([]float32, 6)
	for b.Loop() {
		n.Predict(x, sc, out)
	}
}

// TestModelFileFlushesSubnormals: subnormal weights are read as zero.
func TestModelFileFlushesSubnormals(t *testing.T) {
	n, _ := New([]int{3, 5, 2}, 1)
	tiny := math.Float32frombits(7)
	n.W[0][0], n.B[1][1] = tiny, -tiny
	b, err := n.MarshalBinary()
	require.NoError(t, err)
	m, err := Unmarshal(b)
	require.NoError(t, err)
	assert.Zero(t, m.W[0][0])
	assert.Zero(t, m.B[1][1])
	assert.Equal(t, n.W[0][1:], m.W[0][1:])
	assert.Equal(t, n.B[0], m.B[0])
}
