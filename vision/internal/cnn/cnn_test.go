package cnn

import (
	"bytes"
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

func smallNet(t *testing.T) *Net {
	t.Helper()
	n, err := New(Arch{InC: 2, Side: 8, Convs: []int{3, 4}, Hidden: 5, Classes: 3}, rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// TestGradient compares Backward with a numerical derivative of the loss.
func TestGradient(t *testing.T) {
	for _, gap := range []bool{false, true} {
		n := smallNet(t)
		if gap {
			var err error
			n, err = New(Arch{InC: 2, Side: 8, Convs: []int{3, 4}, Hidden: 5, Classes: 3, GAP: true}, rand.New(rand.NewPCG(1, 2)))
			if err != nil {
				t.Fatal(err)
			}
		}
		checkGradient(t, n, 0)
	}
	// a wider net whose planes take the vector kernels' main loops, with
	// label smoothing
	n, err := New(Arch{InC: 1, Side: 20, Convs: []int{4, 3}, Hidden: 6, Classes: 4}, rand.New(rand.NewPCG(5, 6)))
	if err != nil {
		t.Fatal(err)
	}
	checkGradient(t, n, 0.1)
}

func checkGradient(t *testing.T, n *Net, smooth float32) {
	rng := rand.New(rand.NewPCG(3, 4))
	x := make([]float32, n.InputLen())
	for i := range x {
		x[i] = float32(rng.NormFloat64())
	}
	ws := n.NewWorkspace()
	ws.Smooth = smooth
	gr := n.NewGrads()
	if err := ws.Forward(x); err != nil {
		t.Fatal(err)
	}
	ws.Backward(x, 1, gr)
	loss := func() float64 {
		if err := ws.Forward(x); err != nil {
			t.Fatal(err)
		}
		k := float64(len(ws.Prob))
		l := 0.0
		for j, p := range ws.Prob {
			q := float64(smooth) / k
			if j == 1 {
				q += 1 - float64(smooth)
			}
			l -= q * math.Log(float64(p))
		}
		return l
	}
	checked := 0
	for pi, p := range n.params() {
		for i := 0; i < len(p); i += 1 + len(p)/7 {
			old := p[i]
			const h = 2e-3
			p[i] = old + h
			lp := loss()
			p[i] = old - h
			lm := loss()
			p[i] = old
			num := (lp - lm) / (2 * h)
			got := float64(gr.g[pi][i])
			if math.Abs(num-got) > 2e-2*math.Max(1, math.Abs(num)) {
				t.Errorf("param %d[%d]: backward %.5f, numerical %.5f", pi, i, got, num)
			}
			checked++
		}
	}
	if checked < 20 {
		t.Fatalf("only %d parameters checked", checked)
	}
}

func TestRoundTrip(t *testing.T) {
	n := smallNet(t)
	data, err := n.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	m, err := Unmarshal(data)
	if err != nil {
		t.Fatal(err)
	}
	x := make([]float32, n.InputLen())
	for i := range x {
		x[i] = float32(i%7) - 3
	}
	a, b := n.NewWorkspace(), m.NewWorkspace()
	if err := a.Forward(x); err != nil {
		t.Fatal(err)
	}
	if err := b.Forward(x); err != nil {
		t.Fatal(err)
	}
	for i := range a.Prob {
		if a.Prob[i] != b.Prob[i] {
			t.Fatalf("class %d: %v before, %v after a round trip", i, a.Prob[i], b.Prob[i])
		}
	}
	data[len(data)/2] ^= 1
	if _, err := Unmarshal(data); !errors.Is(err, ErrFormat) {
		t.Fatalf("damaged file: err %v, want ErrFormat", err)
	}
	if err := a.Forward(x[:3]); !errors.Is(err, ErrInput) {
		t.Fatalf("short input: err %v, want ErrInput", err)
	}
}

func FuzzUnmarshal(f *testing.F) {
	n, _ := New(Arch{InC: 1, Side: 4, Convs: []int{2}, Hidden: 3, Classes: 2}, rand.New(rand.NewPCG(1, 1)))
	data, _ := n.MarshalBinary()
	f.Add(data)
	f.Add([]byte(magic))
	o, _ := New(Arch{InC: 1, Side: 4, Convs: []int{3}, Hidden: 2, Classes: 2}, rand.New(rand.NewPCG(2, 2)))
	ens, _ := MarshalEnsemble([]*Net{n, o})
	f.Add(ens)
	f.Add([]byte(ensembleMagic))
	f.Fuzz(func(t *testing.T, b []byte) {
		m, err := Unmarshal(b)
		if err == nil {
			ws := m.NewWorkspace()
			_ = ws.Forward(make([]float32, m.InputLen()))
		}
		nets, err := UnmarshalAll(b)
		if err == nil {
			if len(nets) < 1 || len(nets) > MaxMembers {
				t.Fatalf("%d networks", len(nets))
			}
			for _, m := range nets {
				if m.InputLen() != nets[0].InputLen() || m.Arch.Classes != nets[0].Arch.Classes {
					t.Fatalf("members disagree: %+v, %+v", m.Arch, nets[0].Arch)
				}
				ws := m.NewWorkspace()
				_ = ws.Forward(make([]float32, m.InputLen()))
			}
		}
	})
}

// TestEnsembleRoundTrip checks the ensemble file: members come back in
// order and unchanged, a single network is a plain model file, and damage
// or mismatched members are refused.
func TestEnsembleRoundTrip(t *testing.T) {
	a := smallNet(t)
	b, err := New(Arch{InC: a.Arch.InC, Side: a.Arch.Side, Convs: []int{3}, Hidden: 5, Classes: a.Arch.Classes}, rand.New(rand.NewPCG(3, 4)))
	if err != nil {
		t.Fatal(err)
	}
	data, err := MarshalEnsemble([]*Net{a, b})
	if err != nil {
		t.Fatal(err)
	}
	nets, err := UnmarshalAll(data)
	if err != nil {
		t.Fatal(err)
	}
	if len(nets) != 2 {
		t.Fatalf("%d networks back, want 2", len(nets))
	}
	x := make([]float32, a.InputLen())
	for i := range x {
		x[i] = float32(i%5) - 2
	}
	for i, n := range []*Net{a, b} {
		w, v := n.NewWorkspace(), nets[i].NewWorkspace()
		if err := w.Forward(x); err != nil {
			t.Fatal(err)
		}
		if err := v.Forward(x); err != nil {
			t.Fatal(err)
		}
		for j := range w.Prob {
			if w.Prob[j] != v.Prob[j] {
				t.Fatalf("member %d class %d: %v before, %v after a round trip", i+1, j, w.Prob[j], v.Prob[j])
			}
		}
	}
	if _, err := Unmarshal(data); !errors.Is(err, ErrFormat) {
		t.Errorf("Unmarshal of an ensemble: err %v, want ErrFormat", err)
	}
	one, err := MarshalEnsemble([]*Net{a})
	if err != nil {
		t.Fatal(err)
	}
	plain, _ := a.MarshalBinary()
	if !bytes.Equal(one, plain) {
		t.Error("an ensemble of one is not the plain model file")
	}
	if nets, err := UnmarshalAll(plain); err != nil || len(nets) != 1 {
		t.Errorf("UnmarshalAll of a plain file: %d networks, %v", len(nets), err)
	}
	for i := len(ensembleMagic); i < len(data); i += len(data) / 7 {
		bad := bytes.Clone(data)
		bad[i] ^= 0x10
		if _, err := UnmarshalAll(bad); !errors.Is(err, ErrFormat) {
			t.Errorf("damaged byte %d: err %v, want ErrFormat", i, err)
		}
	}
	if _, err := UnmarshalAll(data[:len(data)-9]); !errors.Is(err, ErrFormat) {
		t.Errorf("cut file: err %v, want ErrFormat", err)
	}
	c, _ := New(Arch{InC: a.Arch.InC, Side: a.Arch.Side * 2, Convs: []int{2}, Hidden: 2, Classes: a.Arch.Classes}, rand.New(rand.NewPCG(5, 6)))
	sides, err := MarshalEnsemble([]*Net{a, c})
	if err != nil {
		t.Fatalf("MarshalEnsemble of members of different input sizes: %v", err)
	}
	if _, err := UnmarshalAll(sides); !errors.Is(err, ErrFormat) {
		t.Errorf("UnmarshalAll of members of different input sizes: err %v, want ErrFormat", err)
	}
	if back, err := UnmarshalMixed(sides); err != nil || len(back) != 2 || back[1].Arch.Side != 2*a.Arch.Side {
		t.Errorf("UnmarshalMixed of members of different input sizes: %d networks, %v", len(back), err)
	}
	k, _ := New(Arch{InC: a.Arch.InC, Side: a.Arch.Side, Convs: []int{2}, Hidden: 2, Classes: a.Arch.Classes + 1}, rand.New(rand.NewPCG(9, 10)))
	if _, err := MarshalEnsemble([]*Net{a, k}); err == nil {
		t.Error("MarshalEnsemble accepted members of different classes")
	}
	if _, err := MarshalEnsemble(nil); err == nil {
		t.Error("MarshalEnsemble accepted no networks")
	}
	// Members reading other channels of the same-sized input: written,
	// read back only by UnmarshalMixed.
	g, _ := New(Arch{InC: a.Arch.InC + 2, Side: a.Arch.Side, Convs: []int{2}, Hidden: 2, Classes: a.Arch.Classes}, rand.New(rand.NewPCG(7, 8)))
	mixed, err := MarshalEnsemble([]*Net{a, g})
	if err != nil {
		t.Fatalf("MarshalEnsemble of grey and colour members: %v", err)
	}
	if _, err := UnmarshalAll(mixed); !errors.Is(err, ErrFormat) {
		t.Errorf("UnmarshalAll of members of different channels: err %v, want ErrFormat", err)
	}
	back, err := UnmarshalMixed(mixed)
	if err != nil || len(back) != 2 || back[1].Arch.InC != a.Arch.InC+2 {
		t.Errorf("UnmarshalMixed: %d networks, %v", len(back), err)
	}
	if nets, err := UnmarshalMixed(data); err != nil || len(nets) != 2 {
		t.Errorf("UnmarshalMixed of a plain ensemble: %d networks, %v", len(nets), err)
	}
}

// TestKernels checks the vector kernels (whichever build is in use) against
// plain loops, on lengths around the vector widths.
func TestKernels(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for _, n := range []int{1, 7, 8, 15, 16, 17, 31, 32, 33, 100} {
		a, b := make([]float32, n+40), make([]float32, n+40)
		for i := range a {
			a[i], b[i] = float32(rng.NormFloat64()), float32(rng.NormFloat64())
		}
		var want float64
		for i := 0; i < n; i++ {
			want += float64(a[i]) * float64(b[i])
		}
		if got := dot(a[:n], b); math.Abs(float64(got)-want) > 1e-4*(1+math.Abs(want)) {
			t.Errorf("dot n=%d: %v, want %v", n, got, want)
		}
		d := make([]float32, n)
		copy(d, b)
		axpy(d, a, 0.5)
		for i := range d {
			if w := b[i] + 0.5*a[i]; math.Abs(float64(d[i]-w)) > 1e-5 {
				t.Fatalf("axpy n=%d [%d]: %v, want %v", n, i, d[i], w)
			}
		}
		off := [9]int{0, 1, 2, 5, 6, 7, 10, 11, 12}
		w := [9]float32{1, -2, 3, 0.5, 0, -1, 2, 0.25, -0.75}
		copy(d, b)
		conv9(d, a, &off, &w)
		for i := range d {
			want := float64(b[i])
			for k := range off {
				want += float64(w[k]) * float64(a[off[k]+i])
			}
			if math.Abs(float64(d[i])-want) > 1e-4 {
				t.Fatalf("conv9 n=%d [%d]: %v, want %v", n, i, d[i], want)
			}
		}
	}
}

func TestWarmCosineLR(t *testing.T) {
	const lr, steps, perEpoch = 0.01, 100, 10
	if got := WarmCosineLR(lr, 0, steps, perEpoch); math.Abs(got-lr/perEpoch) > 1e-6 {
		t.Errorf("first step %g, want about %g (warm-up)", got, lr/perEpoch)
	}
	if got := WarmCosineLR(lr, perEpoch, steps, perEpoch); got > lr || got < 0.95*lr {
		t.Errorf("after warm-up %g, want just under %g", got, lr)
	}
	if got := WarmCosineLR(lr, steps, steps, perEpoch); math.Abs(got-0.02*lr) > 1e-9 {
		t.Errorf("end %g, want %g", got, 0.02*lr)
	}
	for s := perEpoch; s < steps; s++ {
		if WarmCosineLR(lr, s+1, steps, perEpoch) > WarmCosineLR(lr, s, steps, perEpoch) {
			t.Fatalf("step %d: the decay rises", s)
		}
	}
}

// TestConvRelu checks the fused per-channel kernel (one assembly call per
// output channel on amd64) against its definition, bit for bit: the bias,
// one conv9 per plane in order, then the ReLU. It also checks one value
// against a plain float64 sum, so the definition itself is tested.
func TestConvRelu(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	for _, c := range []struct{ side, nin int }{{1, 1}, {2, 3}, {4, 1}, {5, 2}, {6, 32}, {8, 16}, {8, 1}, {12, 12}, {16, 1}, {16, 7}, {7, 5}, {32, 1}, {32, 3}, {64, 2}} {
		s, ps := c.side, c.side+2
		pst, wide := planeLen(s), s*ps
		src := make([]float32, c.nin*pst)
		for i := range src {
			src[i] = float32(rng.NormFloat64())
		}
		w := make([]float32, 9*c.nin)
		for i := range w {
			w[i] = float32(rng.NormFloat64())
		}
		for _, bias := range []float32{0, 0.3, -2} {
			got, want := make([]float32, wide), make([]float32, wide)
			for i := range got {
				got[i] = float32(i) // must be overwritten
			}
			convRelu(got, src, pst, c.nin, ps, w, bias)
			convReluGo(want, src, pst, c.nin, ps, w, bias)
			zeros := 0
			for i := range got {
				if i%ps >= s && math.Float32bits(got[i]) == math.Float32bits(float32(i)) {
					continue // a row's padding columns may be left as they were
				}
				if math.Float32bits(got[i]) != math.Float32bits(want[i]) {
					t.Fatalf("side %d, %d planes, bias %g: [%d] = %v, want %v", s, c.nin, bias, i, got[i], want[i])
				}
				if i%ps < s && got[i] == 0 {
					zeros++
				}
			}
			if c.nin > 1 && (zeros == 0 || zeros == s*s) {
				t.Errorf("side %d, %d planes: %d of %d zeros; the ReLU should cut some, not all", s, c.nin, zeros, s*s)
			}
			i := wide - 3 // last real output: taps reach the end of each plane
			sum := float64(bias)
			for p := 0; p < c.nin; p++ {
				for tp := 0; tp < 9; tp++ {
					sum += float64(w[9*p+tp]) * float64(src[p*pst+(tp/3)*ps+tp%3+i])
				}
			}
			if sum = max(sum, 0); math.Abs(float64(got[i])-sum) > 1e-4*(1+math.Abs(sum)) {
				t.Errorf("side %d, %d planes: last output %v, want %v", s, c.nin, got[i], sum)
			}
		}
	}
}

// TestPool2 checks the pooling kernel against pool2Go bit for bit, for
// sides around its blocks of four outputs, with ties, signed zeros and NaN
// (which keep the first value of a square), and against a plain max.
func TestPool2(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	nan := float32(math.NaN())
	negZero := float32(math.Copysign(0, -1))
	special := []float32{0, negZero, 1, 1, nan, -1}
	for _, h := range []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 16, 17} {
		for _, nch := range []int{1, 3} {
			ps := 2*h + 2
			wide := 2 * h * ps
			src := make([]float32, nch*wide)
			for i := range src {
				if rng.IntN(3) == 0 {
					src[i] = special[rng.IntN(len(special))]
				} else {
					src[i] = float32(rng.NormFloat64())
				}
			}
			got, want := make([]float32, nch*h*h), make([]float32, nch*h*h)
			for i := range got {
				got[i] = float32(i) + 0.5 // must be overwritten
			}
			pool2(got, src, h, ps, nch, wide)
			pool2Go(want, src, h, ps, nch, wide)
			for i := range got {
				if math.Float32bits(got[i]) != math.Float32bits(want[i]) {
					t.Fatalf("h %d, %d channels: [%d] = %v (%#x), want %v (%#x)", h, nch, i, got[i], math.Float32bits(got[i]), want[i], math.Float32bits(want[i]))
				}
			}
			// away from NaN, each value is the largest of its square
			k, y, x := nch-1, h-1, h-1
			sq := []float32{src[k*wide+2*y*ps+2*x], src[k*wide+2*y*ps+2*x+1], src[k*wide+(2*y+1)*ps+2*x], src[k*wide+(2*y+1)*ps+2*x+1]}
			m, hasNaN := sq[0], false
			for _, v := range sq {
				m = max(m, v)
				hasNaN = hasNaN || v != v
			}
			if g := got[k*h*h+y*h+x]; !hasNaN && g != m {
				t.Errorf("h %d: last square's value %v, want the largest %v of %v", h, g, m, sq)
			}
		}
	}
}

// TestDotRows checks the dense layer's kernel against dot, bit for bit,
// for row counts and lengths around its blocks of eight rows and four
// lanes.
func TestDotRows(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	for _, rows := range []int{1, 7, 8, 9, 16, 20} {
		for _, n := range []int{1, 3, 4, 5, 36, 38, 576} {
			w, x := normals(rng, rows*n), normals(rng, n)
			got := make([]float32, rows)
			dotRows(got, w, x)
			for j := range got {
				want := dot(w[j*n:(j+1)*n], x)
				if math.Float32bits(got[j]) != math.Float32bits(want) {
					t.Fatalf("%d rows of %d: row %d = %v, want %v", rows, n, j, got[j], want)
				}
				var f float64
				for i := range x {
					f += float64(w[j*n+i]) * float64(x[i])
				}
				if math.Abs(f-float64(got[j])) > 1e-4*(1+math.Abs(f)) {
					t.Fatalf("%d rows of %d: row %d = %v, want about %v", rows, n, j, got[j], f)
				}
			}
		}
	}
}

// TestBackwardKernels checks the training kernels against their plain
// definitions (to float32 rounding: the assembly adds in another order),
// on plane sizes with and without a tail past the last vector of eight.
func TestBackwardKernels(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	for _, side := range []int{1, 2, 3, 4, 6, 8, 12, 16} {
		ps := side + 2
		pst, wide := planeLen(side), side*ps
		dk, p := make([]float32, wide), make([]float32, pst)
		for i := range dk {
			dk[i] = float32(rng.NormFloat64())
		}
		for i := range p {
			p[i] = float32(rng.NormFloat64())
		}
		var got, want [9]float32
		got[4], want[4] = 1, 1 // adds to what is there
		grad9(&got, dk, p, ps)
		grad9Go(&want, dk, p, ps)
		for tp := range got {
			if math.Abs(float64(got[tp]-want[tp])) > 1e-4*(1+math.Abs(float64(want[tp]))) {
				t.Fatalf("side %d: grad9 tap %d = %v, want %v", side, tp, got[tp], want[tp])
			}
		}
		margin := 2*ps + 2
		back := tapOffsets(ps, margin, -1)
		src := make([]float32, margin+pst)
		for i := range src {
			src[i] = float32(rng.NormFloat64())
		}
		var w [9]float32
		for i := range w {
			w[i] = float32(rng.NormFloat64())
		}
		d1, d2 := make([]float32, pst), make([]float32, pst)
		convBack(d1, src, &back, &w, ps)
		conv9Go(d2, src, &back, &w)
		for i := range d1 {
			if math.Abs(float64(d1[i]-d2[i])) > 1e-4*(1+math.Abs(float64(d2[i]))) {
				t.Fatalf("side %d: convBack [%d] = %v, want %v", side, i, d1[i], d2[i])
			}
		}
	}
}

// Blend mixes two networks of one architecture parameter by parameter and
// refuses networks that differ.
func TestBlend(t *testing.T) {
	a, b := smallNet(t), smallNet(t)
	for _, p := range b.params() {
		for j := range p {
			p[j] += 1
		}
	}
	for _, w := range []float32{0, 0.25, 1} {
		m, err := Blend(a, b, w)
		if err != nil {
			t.Fatal(err)
		}
		pa, pb, pm := a.params(), b.params(), m.params()
		for i := range pm {
			for j := range pm[i] {
				if want := (1-w)*pa[i][j] + w*pb[i][j]; math.Abs(float64(want-pm[i][j])) > 1e-6 {
					t.Fatalf("w %v: parameter %d/%d is %v, want %v", w, i, j, pm[i][j], want)
				}
			}
		}
	}
	other := a.Arch
	other.Hidden++
	c, err := New(other, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Blend(a, c, 0.5); err == nil || !strings.Contains(err.Error(), "architectures differ") {
		t.Errorf("blend of two architectures: %v", err)
	}
	if _, err := Blend(a, b, 1.5); err == nil || !strings.Contains(err.Error(), "not in 0-1") {
		t.Errorf("blend weight 1.5: %v", err)
	}
}

// TestUnmarshalFlushesSubnormals: a model file's subnormal weights are
// read as zero, its other weights exactly.
func TestUnmarshalFlushesSubnormals(t *testing.T) {
	n := smallNet(t)
	tiny := math.Float32frombits(3)
	n.convs[0].w[0], n.convs[0].w[1], n.hidden.b[0] = tiny, -tiny, tiny
	m := reread(t, n)
	if m.convs[0].w[0] != 0 || m.convs[0].w[1] != 0 || m.hidden.b[0] != 0 {
		t.Errorf("subnormal parameters read as %g, %g, %g; want zeros", m.convs[0].w[0], m.convs[0].w[1], m.hidden.b[0])
	}
	if m.convs[0].w[2] != n.convs[0].w[2] || m.output.w[0] != n.output.w[0] || m.output.w[0] == 0 {
		t.Errorf("normal parameters changed: %g, %g; want %g, %g", m.convs[0].w[2], m.output.w[0], n.convs[0].w[2], n.output.w[0])
	}
}

// TestAdamFlushesSubnormals: a weight an Adam step leaves subnormal (or
// finds so) is zero after it; the others move as before.
func TestAdamFlushesSubnormals(t *testing.T) {
	n := smallNet(t)
	gr := n.NewGrads()
	n.convs[0].w[0] = math.Float32frombits(5)
	before := n.convs[0].w[1]
	ad := n.NewAdam(1e-3)
	ad.Step(n, gr, 1) // zero gradients: only the flush changes a weight
	if n.convs[0].w[0] != 0 {
		t.Errorf("subnormal weight %g after a step, want 0", n.convs[0].w[0])
	}
	if n.convs[0].w[1] != before {
		t.Errorf("a normal weight with zero gradient moved: %g -> %g", before, n.convs[0].w[1])
	}
}

// reread is n written as a model file and read back.
func reread(t testing.TB, n *Net) *Net {
	t.Helper()
	data, err := n.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	m, err := Unmarshal(data)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// normals is k values drawn from rng's normal distribution.
func normals(rng *rand.Rand, k int) []float32 {
	v := make([]float32, k)
	for i := range v {
		v[i] = float32(rng.NormFloat64())
	}
	return v
}

// TestShiftPlanes checks the column-shifted copies (shiftPlanes, by the
// AVX2 kernel where there is one) against the Go code and against their
// definition, value by value, with the rows above and below and the slack
// zero, for planes of several sides, written twice over (as a workspace's
// buffers are).
func TestShiftPlanes(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 24))
	for _, side := range []int{1, 2, 3, 6, 12, 32} {
		const nin = 3
		third := compactLen(side)
		sh := make([]float32, 3*nin*third)
		for range 2 {
			in := normals(rng, nin*side*side)
			shiftPlanes(sh, in, side, nin)
			ref := make([]float32, len(sh))
			shiftPlanesGo(ref, in, side, nin)
			for i := range sh {
				if sh[i] != ref[i] {
					t.Fatalf("side %d: [%d] = %v, the Go code's %v", side, i, sh[i], ref[i])
				}
			}
			for c := 0; c < nin; c++ {
				for dx := 0; dx < 3; dx++ {
					cp := sh[(3*c+dx)*third : (3*c+dx+1)*third]
					for i, v := range cp {
						y, x := i/side-1, i%side+dx-1
						want := float32(0)
						if i < (side+2)*side && y >= 0 && y < side && x >= 0 && x < side {
							want = in[c*side*side+y*side+x]
						}
						if v != want {
							t.Fatalf("side %d, plane %d, copy %d: [%d] = %v, want %v", side, c, dx, i, v, want)
						}
					}
				}
			}
		}
	}
}

// TestWiden checks that a widened network reads its first channels as the
// original does, whatever its added channel holds, that it survives a
// round trip through its file, and that it cannot be narrowed.
func TestWiden(t *testing.T) {
	n := smallNet(t)
	w, err := Widen(n, 3)
	if err != nil {
		t.Fatal(err)
	}
	if w.Arch.InC != 3 || w.InputLen() != 3*8*8 {
		t.Fatalf("widened arch %+v", w.Arch)
	}
	b, err := w.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	back, err := Unmarshal(b)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(7, 8))
	x := make([]float32, n.InputLen())
	x3 := make([]float32, w.InputLen())
	wsN, wsW, wsB := n.NewWorkspace(), w.NewWorkspace(), back.NewWorkspace()
	for trial := 0; trial < 5; trial++ {
		for i := range x3 {
			x3[i] = float32(rng.NormFloat64())
		}
		copy(x, x3[:len(x)])
		for _, ws := range []*Workspace{wsN, wsW, wsB} {
			in := x3
			if ws == wsN {
				in = x
			}
			if err := ws.Forward(in); err != nil {
				t.Fatal(err)
			}
		}
		for k := range wsN.Prob {
			if d := math.Abs(float64(wsN.Prob[k] - wsW.Prob[k])); d > 1e-5 {
				t.Fatalf("trial %d class %d: widened %v, original %v", trial, k, wsW.Prob[k], wsN.Prob[k])
			}
			if wsB.Prob[k] != wsW.Prob[k] {
				t.Fatalf("trial %d class %d: read back %v, widened %v", trial, k, wsB.Prob[k], wsW.Prob[k])
			}
		}
	}
	if _, err := Widen(n, 1); err == nil {
		t.Fatal("narrowing to 1 channel was not refused")
	}
}
