package cnn

import (
	"math"

	"github.com/blueprints-companion/blueprints/vision/internal/vec"
)

// Grads accumulates parameter gradients over a mini-batch, in params order.
type Grads struct {
	g [][]float32
}

// NewGrads makes zeroed gradient buffers shaped like n's parameters.
func (n *Net) NewGrads() *Grads {
	gr := &Grads{}
	for _, p := range n.params() {
		gr.g = append(gr.g, make([]float32, len(p)))
	}
	return gr
}

// Zero clears the accumulated gradients.
func (gr *Grads) Zero() {
	for _, g := range gr.g {
		clear(g)
	}
}

// Backward adds to gr the gradient of the cross-entropy loss of the last
// Forward against class label, and returns that loss. x must be that
// Forward's input: after a Forward in the compact layout (inference's,
// see Forward) Backward runs it again on x in the wide layout, whose
// activations the gradients read, and the workspace keeps to the wide
// layout from then on; an x of the wrong length then adds nothing and
// returns NaN.
func (ws *Workspace) Backward(x []float32, label int, gr *Grads) float64 {
	n := ws.net
	if ws.compact {
		// The last Forward took the compact layout: do it again in the
		// wide one, which the gradients read (same bits, no dropout),
		// and keep to it from now on.
		ws.wide = true
		if err := ws.Forward(x); err != nil {
			return math.NaN()
		}
	}
	if ws.dhid == nil {
		for l := range n.convs {
			ws.dpad = append(ws.dpad, make([]float32, len(ws.pad[l])))
			ws.dact = append(ws.dact, make([]float32, len(ws.act[l])))
			// room for one output plane with a margin of 2*ps+2 in front
			ws.dkpad = append(ws.dkpad, make([]float32, 2*(n.convs[l].side+2)+2+planeLen(n.convs[l].side)))
			ws.dpool = append(ws.dpool, make([]float32, len(ws.pool[l])))
		}
		ws.dhid = make([]float32, n.hidden.out)
		ws.dgap = make([]float32, len(ws.gap))
	}
	loss := -math.Log(math.Max(float64(ws.Prob[label]), 1e-12))
	nc := len(n.convs)
	gi := 2 * nc // index of hidden.w in params order
	// output layer
	od := n.output
	gOW, gOB := gr.g[gi+2], gr.g[gi+3]
	clear(ws.dhid)
	for j := 0; j < od.out; j++ {
		d := ws.Prob[j] - ws.Smooth/float32(od.out)
		if j == label {
			d -= 1 - ws.Smooth
		}
		gOB[j] += d
		axpy(gOW[j*od.in:(j+1)*od.in], ws.hid, d)
		axpy(ws.dhid, od.w[j*od.in:(j+1)*od.in], d)
	}
	// hidden layer
	hd := n.hidden
	gHW, gHB := gr.g[gi], gr.g[gi+1]
	last := ws.pool[nc-1]
	dlast := ws.dpool[nc-1]
	if n.Arch.GAP {
		last, dlast = ws.gap, ws.dgap
	}
	clear(dlast)
	for j := 0; j < hd.out; j++ {
		if ws.hid[j] <= 0 {
			continue
		}
		d := ws.dhid[j] * ws.dropScale
		gHB[j] += d
		axpy(gHW[j*hd.in:(j+1)*hd.in], last, d)
		axpy(dlast, hd.w[j*hd.in:(j+1)*hd.in], d)
	}
	if n.Arch.GAP {
		lc := n.convs[nc-1]
		hh := (lc.side / 2) * (lc.side / 2)
		dp := ws.dpool[nc-1]
		for k, g := range ws.dgap {
			for i := k * hh; i < (k+1)*hh; i++ {
				dp[i] = g / float32(hh)
			}
		}
	}
	// conv blocks, last to first
	for l := nc - 1; l >= 0; l-- {
		cv := n.convs[l]
		s, ps := cv.side, cv.side+2
		pst, wide := planeLen(s), s*ps
		dact := ws.dact[l]
		clear(dact)
		ws.poolArgs(l)
		for i, a := range ws.arg[l] {
			dact[a] += ws.dpool[l][i]
		}
		act := ws.act[l]
		for i, v := range act {
			if v <= 0 {
				dact[i] = 0
			}
		}
		pad, dpad, dkpad := ws.pad[l], ws.dpad[l], ws.dkpad[l]
		clear(dpad)
		margin := 2*ps + 2
		back := tapOffsets(ps, margin, -1)
		gW, gB := gr.g[2*l], gr.g[2*l+1]
		// dact is zero in the wide rows' padding columns (no pooled value
		// points there), so those columns add nothing below.
		for k := 0; k < cv.out; k++ {
			dk := dact[k*wide : (k+1)*wide]
			var sb float32
			for _, v := range dk {
				sb += v
			}
			gB[k] += sb
			if l > 0 {
				copy(dkpad[margin:], dk)
			}
			for c := 0; c < cv.in; c++ {
				grad9((*[9]float32)(gW[(k*cv.in+c)*9:]), dk, pad[c*pst:(c+1)*pst], ps)
				if l > 0 {
					// dpad[j] += sum over taps of w[t]*dk[j-off[t]]
					convBack(dpad[c*pst:(c+1)*pst], dkpad, &back, (*[9]float32)(cv.w[(k*cv.in+c)*9:]), ps)
				}
			}
		}
		if l > 0 {
			prev := ws.dpool[l-1]
			for c := 0; c < cv.in; c++ {
				for y := 0; y < s; y++ {
					copy(prev[c*s*s+y*s:c*s*s+y*s+s], dpad[c*pst+(y+1)*ps+1:c*pst+(y+1)*ps+1+s])
				}
			}
		}
	}
	return loss
}

// Adam is the Adam optimiser's state for one network.
type Adam struct {
	LR, Beta1, Beta2, Eps, WeightDecay float64
	t                                  int
	m, v                               [][]float32
}

// NewAdam makes an optimiser for n with the usual constants.
func (n *Net) NewAdam(lr float64) *Adam {
	a := &Adam{LR: lr, Beta1: 0.9, Beta2: 0.999, Eps: 1e-8}
	for _, p := range n.params() {
		a.m = append(a.m, make([]float32, len(p)))
		a.v = append(a.v, make([]float32, len(p)))
	}
	return a
}

// Step applies the mean gradient of a batch of size batch to n.
func (a *Adam) Step(n *Net, gr *Grads, batch int) {
	a.t++
	b1t := 1 - math.Pow(a.Beta1, float64(a.t))
	b2t := 1 - math.Pow(a.Beta2, float64(a.t))
	scale := float32(1 / float64(batch))
	n.hidden.wt = nil // the weights change: Forward reads them from w
	for pi, p := range n.params() {
		g, m, v := gr.g[pi], a.m[pi], a.v[pi]
		for i := range p {
			gi := g[i]*scale + float32(a.WeightDecay)*p[i]
			m[i] = float32(a.Beta1)*m[i] + float32(1-a.Beta1)*gi
			v[i] = float32(a.Beta2)*v[i] + float32(1-a.Beta2)*gi*gi
			mh := float64(m[i]) / b1t
			vh := float64(v[i]) / b2t
			p[i] -= float32(a.LR * mh / (math.Sqrt(vh) + a.Eps))
		}
		// Weight decay leaves many weights subnormal; they read as zero
		// in every SIMD kernel, and on many Intel processors every Go
		// multiply by one takes a slow assist (a third of the weights so:
		// a training step 35 % slower). They are zero from here on.
		vec.FlushSubnormals(p)
	}
}

// WarmCosineLR is the step size of mini-batch step (from 0) of steps in
// all, perEpoch to an epoch: a linear warm-up over the first epoch, then a
// cosine decay from lr to 2% of it. The dice trainer and the cell trainer
// both use it; the expression is fixed, so trained files stay the same.
func WarmCosineLR(lr float64, step, steps, perEpoch int) float64 {
	f := float64(step) / float64(steps)
	r := lr * (0.02 + 0.98*0.5*(1+math.Cos(math.Pi*f)))
	if step < perEpoch {
		r *= float64(step+1) / float64(perEpoch)
	}
	return r
}
