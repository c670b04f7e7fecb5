package cnn

import (
	"math"
	"testing"
)

// The cell reader's networks: the height CNN (12 planes of 12x12 face
// patches), the material CNN (three colour planes of the 12x12 face patch)
// and the pip CNN (32x32 grey since the seventh session; 16x16 before);
// and the nadir height CNN of the finer face patch (12 planes of 24x24).
func BenchmarkForwardCellNets(b *testing.B) {
	for _, c := range []struct {
		name string
		a    Arch
	}{
		{"height-16-32", Arch{InC: 12, Side: 12, Convs: []int{16, 32}, Hidden: 64, Classes: 8}},
		{"height-32-64", Arch{InC: 12, Side: 12, Convs: []int{32, 64}, Hidden: 128, Classes: 8}},
		{"height-48-96", Arch{InC: 12, Side: 12, Convs: []int{48, 96}, Hidden: 128, Classes: 8}},   // the committed height CNNs
		{"height-96-192", Arch{InC: 12, Side: 12, Convs: []int{96, 192}, Hidden: 256, Classes: 8}}, // the thirty-fourth session's wide probe
		{"pips-16-32", Arch{InC: 1, Side: 16, Convs: []int{16, 32}, Hidden: 64, Classes: 6}},
		{"material-32-64", Arch{InC: 3, Side: 12, Convs: []int{32, 64}, Hidden: 64, Classes: 4}},
		{"pips32-16-32-64", Arch{InC: 1, Side: 32, Convs: []int{16, 32, 64}, Hidden: 64, Classes: 6}},
		{"nadir24-32-64-96", Arch{InC: 12, Side: 24, Convs: []int{32, 64, 96}, Hidden: 128, Classes: 8}}, // the twenty-seventh session's nadir trial
	} {
		b.Run(c.name, func(b *testing.B) {
			n, x := benchNet(b, c.a)
			ws := n.NewWorkspace()
			b.ReportAllocs()
			for b.Loop() {
				if err := ws.Forward(x); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkBackwardHeight is one training sample of the height CNN:
// forward and backward.
func BenchmarkBackwardHeight(b *testing.B) {
	n, x := benchNet(b, Arch{InC: 12, Side: 12, Convs: []int{32, 64}, Hidden: 128, Classes: 8})
	ws, gr := n.NewWorkspace(), n.NewGrads()
	for b.Loop() {
		if err := ws.Forward(x); err != nil {
			b.Fatal(err)
		}
		ws.Backward(x, 3, gr)
	}
}

// BenchmarkTrainStep is one Adam step of a 16-sample batch of the
// committed height CNN's architecture, with normal weights and with a
// third of them subnormal (as weight decay leaves trained networks; the
// step flushes them, so only the first step meets them).
func BenchmarkTrainStep(b *testing.B) {
	for _, sub := range []bool{false, true} {
		name := "normal"
		if sub {
			name = "third-subnormal"
		}
		b.Run(name, func(b *testing.B) {
			n, x := benchNet(b, Arch{InC: 12, Side: 12, Convs: []int{48, 96}, Hidden: 128, Classes: 8})
			if sub {
				for _, p := range n.params() {
					for i := range p {
						if i%3 == 0 {
							p[i] = math.Float32frombits(uint32(1 + i%1000))
						}
					}
				}
			}
			ws, gr := n.NewWorkspace(), n.NewGrads()
			ad := n.NewAdam(1e-9)
			ad.WeightDecay = 1e-4
			for b.Loop() {
				for k := 0; k < 16; k++ {
					if err := ws.Forward(x); err != nil {
						b.Fatal(err)
					}
					ws.Backward(x, 3, gr)
				}
				ad.Step(n, gr, 16)
				gr.Zero()
			}
		})
	}
}
