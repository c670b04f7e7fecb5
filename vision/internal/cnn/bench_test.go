package cnn

import (
	"fmt"
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

// BenchmarkShiftPlanes is the compact layout's column-shifted copies of a
// conv block's input planes, for the cell networks' blocks (the height
// CNNs' 12 planes of 12x12 and 48 of 6x6, the pip CNNs' 1 of 32x32, 16 of
// 16x16 and 32 of 8x8).
func BenchmarkShiftPlanes(b *testing.B) {
	for _, c := range []struct{ side, nin int }{{12, 12}, {6, 48}, {32, 1}, {16, 16}, {8, 32}} {
		rng := rand.New(rand.NewPCG(1, 2))
		in := normals(rng, c.nin*c.side*c.side)
		sh := make([]float32, 3*c.nin*compactLen(c.side))
		b.Run(fmt.Sprintf("%dx%dx%d", c.nin, c.side, c.side), func(b *testing.B) {
			for b.Loop() {
				shiftPlanes(sh, in, c.side, c.nin)
			}
		})
	}
}
