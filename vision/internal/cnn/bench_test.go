package cnn

import (
	"math/rand/v2"
	"testing"
)

// benchArch is the size of the dice reader's network.
var benchArch = Arch{InC: 1, Side: 48, Convs: []int{16, 32, 64, 64}, Hidden: 128, Classes: 6}

// benchNet makes a seeded network of arch a, read back from its file
// form as the detector's networks are (with the dense layer's layout for
// the processor's kernel), and a random input for it.
func benchNet(b *testing.B, a Arch) (*Net, []float32) {
	b.Helper()
	n, err := New(a, rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		b.Fatal(err)
	}
	n = reread(b, n)
	x := make([]float32, n.InputLen())
	rng := rand.New(rand.NewPCG(3, 4))
	for i := range x {
		x[i] = float32(rng.NormFloat64())
	}
	return n, x
}

func BenchmarkForward(b *testing.B) {
	n, x := benchNet(b, benchArch)
	ws := n.NewWorkspace()
	b.ReportAllocs()
	for b.Loop() {
		if err := ws.Forward(x); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkForwardBackward(b *testing.B) {
	n, x := benchNet(b, benchArch)
	ws := n.NewWorkspace()
	gr := n.NewGrads()
	for b.Loop() {
		if err := ws.Forward(x); err != nil {
			b.Fatal(err)
		}
		ws.Backward(x, 2, gr)
	}
}
