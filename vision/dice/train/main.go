// Command train trains the dice pip reader's network (vision/dice) on a YOLO
// data set of boxed dice, seeded and single-threaded, and writes the model
// file the dice package embeds.
//
// The source photos are split into dice.Folds folds by a hash of their name;
// fold dice.HeldOutFold is never read here (its images are not even opened).
// Training uses the other folds; with -val F it trains on the remaining
// training folds and reports accuracy on fold F, read exactly as the reader
// reads (dice.Patcher, every network of the model, -boxes box placements,
// each averaged over -tta symmetries), for choosing settings without
// touching the held-out fold. Without -val it trains on all four training
// folds.
//
// -members N trains N networks one after another (seeds -seed, -seed+1, ...,
// each from its own generator, so a member is exactly the network a lone run
// with its seed trains) and writes them as one ensemble model file, whose
// answers the reader averages. -from A,B -epochs 0 only evaluates the
// networks of the given files together (and with -out writes them as one
// ensemble).
//
//	go run ./vision/dice/train -data ../shared/datasets/dice-real -members 2 -out vision/dice/model/pips.cnn
//	go run ./vision/dice/train -data ../shared/datasets/dice-real -val 1   # tuning run
//
// `make dice-model` runs the first line with the committed settings
// (GOMAXPROCS=1, GOEXPERIMENT=simd for speed; the result is reproducible for
// a given build).
//
// Each die is cut once from its photo as a grey "context" patch: the box
// grown by -context on every side, area-resized so that the box itself spans
// -side pixels, exactly the scale the reader uses. Every time a die is drawn
// for training, a fresh view is sampled from that patch: one of the eight
// symmetries of the square, a small rotation, a stretch and a shift of the
// box (the detector's boxes are loose), then gamma, blur, noise, and a
// polarity flip; then the patch is normalised like the reader's.
package main

import (
	"flag"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"math"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"time"

	"gocv.io/x/gocv"

	"github.com/blueprints-companion/blueprints/vision/dice"
	"github.com/blueprints-companion/blueprints/vision/dice/internal/aug"
	"github.com/blueprints-companion/blueprints/vision/internal/cnn"
)

// die is one labelled box of the training or validation folds.
type die struct {
	label int         // 0..5
	ctx   []float32   // channels×ctxSide² values 0..255, planes B, G, R or grey (training)
	patch []float32   // the reader's own patch (validation)
	moved [][]float32 // the reader's patches of the moved boxes (validation, -boxes 3)
	minPx int         // shorter side of the box in pixels
}

type config struct {
	side, ctxSide, channels int
	chanGain, chanSwap      float64
	rot, scale, aspect      float64
	shift, gamma, noise     float64
	blur, invert, exact     float64
	syms                    []int
}

func main() {
	data := flag.String("data", "../shared/datasets/dice-real", "YOLO data set folder")
	out := flag.String("out", "", "model file to write (empty: do not write)")
	seed := flag.Uint64("seed", 1, "random seed (of the first network)")
	members := flag.Int("members", 1, "networks to train one after another, with seeds -seed, -seed+1, ...; more than one are written as an ensemble model whose answers the reader averages")
	epochs := flag.Int("epochs", 40, "training epochs")
	side := flag.Int("side", 48, "input side in pixels")
	hidden := flag.Int("hidden", 128, "hidden layer width")
	convs := flag.String("convs", "16,32,64,64", "output channels of each conv block (each halves the side)")
	gap := flag.Bool("gap", false, "global average pooling before the hidden layer")
	lr := flag.Float64("lr", 2e-3, "Adam learning rate (linear warm-up over the first epoch, cosine decay to 2%)")
	wd := flag.Float64("wd", 1e-4, "weight decay")
	batch := flag.Int("batch", 32, "mini-batch size")
	drop := flag.Float64("dropout", 0.3, "dropout of the hidden layer")
	smooth := flag.Float64("smooth", 0.05, "label smoothing")
	context := flag.Float64("context", 0.25, "context kept around the box, as a fraction of its size on each side")
	var c config
	flag.Float64Var(&c.rot, "rot", 20, "largest extra rotation in degrees (on top of the eight symmetries)")
	flag.Float64Var(&c.scale, "scale", 0.12, "largest change of the box size (fraction)")
	flag.Float64Var(&c.aspect, "aspect", 0.10, "largest change of the box's aspect ratio (fraction)")
	flag.Float64Var(&c.shift, "shift", 0.10, "largest shift of the box (fraction of its size)")
	flag.Float64Var(&c.gamma, "gamma", 0.4, "gamma drawn from exp(±this)")
	flag.Float64Var(&c.noise, "noise", 6, "largest noise standard deviation (grey levels)")
	flag.Float64Var(&c.blur, "blur", 0.25, "probability of a light blur")
	flag.Float64Var(&c.invert, "invert", 0.5, "probability of inverting the patch (light pips on dark dice)")
	flag.Float64Var(&c.exact, "exact", 0.1, "probability of the plain box (no geometric change but the symmetry)")
	syms := flag.Int("syms", 8, "symmetries of the square drawn from for training views (1, 2: mirror, 4: and half turns, 8: all)")
	channels := flag.Int("channels", 1, "1 (grey) or 3 (colour: B, G, R planes) input channels")
	flag.Float64Var(&c.chanGain, "chan-gain", 0.15, "colour: largest change of each channel's gain (white balance)")
	flag.Float64Var(&c.chanSwap, "chan-swap", 0.3, "colour: probability of shuffling the channels (other dice colours)")
	tta := flag.Int("tta", dice.DefaultPasses, "symmetries averaged when reading validation dice (1, 2, 4 or 8)")
	boxes := flag.Int("boxes", dice.DefaultBoxes, "box placements read for validation dice (1 or 3, as dice.Options.Boxes)")
	val := flag.Int("val", -1, "validation fold (1..4) for tuning; -1 trains on all training folds")
	evalEvery := flag.Int("eval-every", 5, "epochs between validation reports")
	from := flag.String("from", "", "start from this model file instead of a fresh network; with -epochs 0, model files separated by commas are only evaluated (and with -out written) as one ensemble")
	failures := flag.String("failures", "", "write a PNG contact sheet of the misread validation dice here")
	dump := flag.String("dump", "", "write a PNG contact sheet of augmented training views here and stop")
	flag.Parse()
	if *val == dice.HeldOutFold || *val >= dice.Folds {
		fail(fmt.Errorf("-val %d: want a training fold 1..%d (fold %d is held out)", *val, dice.Folds-1, dice.HeldOutFold))
	}
	c.side = *side
	c.channels = *channels
	if c.channels != 3 {
		c.channels = 1
	}
	c.syms = dice.Symmetries(*syms)
	c.ctxSide = int(math.Round(float64(*side) * (1 + 2**context)))
	photos, err := dice.LoadDataset(*data)
	if err != nil {
		fail(err)
	}
	t0 := time.Now()
	train, valSet := load(photos, *val, c, *context, *boxes)
	fmt.Printf("%d training dice, %d validation dice, patches in %v (simd %v)\n", len(train), len(valSet), time.Since(t0).Round(time.Millisecond), cnn.SIMD)

	if *dump != "" {
		writeSheet(*dump, train, c, rand.New(rand.NewPCG(*seed, 0x9d1ce)))
		return
	}
	arch := cnn.Arch{InC: c.channels, Side: *side, Convs: parseInts(*convs), Hidden: *hidden, Classes: 6, GAP: *gap}
	var start []*cnn.Net
	if *from != "" {
		for _, path := range strings.Split(*from, ",") {
			b, err := os.ReadFile(path)
			if err != nil {
				fail(err)
			}
			nets, err := cnn.UnmarshalMixed(b)
			if err != nil {
				fail(fmt.Errorf("%s: %w", path, err))
			}
			start = append(start, nets...)
		}
		if *epochs > 0 && len(start) != 1 {
			fail(fmt.Errorf("-from %s: %d networks; training continues from one only (use -epochs 0 to evaluate an ensemble)", *from, len(start)))
		}
	}
	var nets []*cnn.Net
	if *from != "" && *epochs == 0 {
		nets = start
		for i, n := range nets {
			if len(valSet) > 0 && (n.Arch.InC != arch.InC || n.Arch.Side != arch.Side) {
				fail(fmt.Errorf("-from: network %d reads %dx%dx%d patches, this run cuts %dx%dx%d (-channels, -side); measure a model of mixed inputs with blueprints vision dice --model", i+1, n.Arch.InC, n.Arch.Side, n.Arch.Side, arch.InC, arch.Side, arch.Side))
			}
		}
	} else {
		if *members < 1 || *members > cnn.MaxMembers {
			fail(fmt.Errorf("-members %d: want 1..%d", *members, cnn.MaxMembers))
		}
		if *from != "" && *members != 1 {
			fail(fmt.Errorf("-from with -members %d: training continues from one network only", *members))
		}
		tr := trainer{train: train, valSet: valSet, c: c, epochs: *epochs, batch: *batch, lr: *lr, wd: *wd, drop: *drop,
			smooth: *smooth, tta: *tta, evalEvery: *evalEvery, t0: t0}
		for m := 0; m < *members; m++ {
			var init *cnn.Net
			if len(start) > 0 {
				init = start[0]
			}
			s := *seed + uint64(m)
			if *members > 1 {
				fmt.Printf("network %d of %d, seed %d\n", m+1, *members, s)
			}
			nets = append(nets, tr.run(arch, init, s))
		}
	}
	if len(valSet) > 0 {
		var ws []*cnn.Workspace
		for i, n := range nets {
			ws = append(ws, n.NewWorkspace())
			if len(nets) > 1 {
				acc, _ := evaluate(ws[i:i+1], valSet, *side, *tta)
				fmt.Printf("validation fold %d, network %d alone (%d symmetries): %.2f%%\n", *val, i+1, *tta, 100*acc)
			}
		}
		for _, k := range []int{1, 2, 4, 8} {
			acc, rep := evaluate(ws, valSet, *side, k)
			fmt.Printf("validation fold %d, %d networks, %d boxes, %d symmetries averaged: %.2f%%\n", *val, len(nets), *boxes, k, 100*acc)
			if k == *tta {
				fmt.Print(rep.String())
			}
		}
		smallAcc(ws, valSet, *side, *tta)
		if *failures != "" {
			failureSheet(*failures, ws, valSet, *side, *tta)
		}
	}
	fmt.Printf("trained in %v\n", time.Since(t0).Round(time.Second))
	if *out != "" {
		b, err := cnn.MarshalEnsemble(nets)
		if err != nil {
			fail(err)
		}
		if err := os.WriteFile(*out, b, 0o644); err != nil {
			fail(err)
		}
		fmt.Printf("wrote %s (%d bytes, %d networks)\n", *out, len(b), len(nets))
	}
}

// trainer holds the training settings shared by the networks of an
// ensemble.
type trainer struct {
	train, valSet                 []die
	c                             config
	epochs, batch, tta, evalEvery int
	lr, wd, drop, smooth          float64
	t0                            time.Time
}

// run trains one network from seed (or continues training init) and
// returns it. Each network draws from its own generator, seeded with seed
// alone, so a network of an ensemble is the one a lone run with that seed
// trains.
func (t *trainer) run(arch cnn.Arch, init *cnn.Net, seed uint64) *cnn.Net {
	train, valSet, c := t.train, t.valSet, t.c
	rng := rand.New(rand.NewPCG(seed, 0x9d1ce))
	net, err := cnn.New(arch, rng)
	if err != nil {
		fail(err)
	}
	if init != nil {
		net = init
		arch = net.Arch
	}
	fmt.Printf("network %+v, %d parameters\n", arch, net.NumParams())
	ws := net.NewWorkspace()
	ws.Smooth = float32(t.smooth)
	lr, batch, epochs := t.lr, t.batch, t.epochs
	gr := net.NewGrads()
	opt := net.NewAdam(lr)
	opt.WeightDecay = t.wd
	x := make([]float32, net.InputLen())
	s := newSampler(c)
	order := make([]int, len(train))
	for i := range order {
		order[i] = i
	}
	perEpoch := (len(train) + batch - 1) / batch
	steps := epochs * perEpoch
	step := 0
	for ep := 0; ep < epochs; ep++ {
		rng.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
		var loss float64
		correct := 0
		ws.SetDropout(t.drop, rng)
		for b := 0; b < len(order); b += batch {
			gr.Zero()
			n := 0
			for _, i := range order[b:min(b+batch, len(order))] {
				d := &train[i]
				s.sample(x, d, rng)
				if err := ws.Forward(x); err != nil {
					fail(err)
				}
				if k, _ := ws.Argmax(); k == d.label {
					correct++
				}
				loss += ws.Backward(x, d.label, gr)
				n++
			}
			opt.LR = cnn.WarmCosineLR(lr, step, steps, perEpoch)
			opt.Step(net, gr, n)
			step++
		}
		ws.SetDropout(0, nil)
		line := fmt.Sprintf("epoch %2d  loss %.4f  train %.2f%%", ep+1, loss/float64(len(train)), 100*float64(correct)/float64(len(train)))
		if len(valSet) > 0 && ((ep+1)%t.evalEvery == 0 || ep == epochs-1) {
			acc, _ := evaluate([]*cnn.Workspace{ws}, valSet, c.side, t.tta)
			line += fmt.Sprintf("  val %.2f%%", 100*acc)
		}
		fmt.Printf("%s  (%v)\n", line, time.Since(t.t0).Round(time.Second))
	}
	return net
}

// load cuts the dice of every photo outside the held-out fold: context
// patches for training, the reader's patches for the validation fold.
func load(photos []dice.Photo, val int, c config, context float64, boxes int) (train, valSet []die) {
	p := dice.NewPatcher(c.side, c.channels)
	defer p.Close()
	grey, padded, small := gocv.NewMat(), gocv.NewMat(), gocv.NewMat()
	defer grey.Close()
	defer padded.Close()
	defer small.Close()
	for _, ph := range photos {
		if ph.Fold == dice.HeldOutFold {
			continue // never opened
		}
		img, err := dice.LoadImage(ph.Image)
		if err != nil {
			fail(err)
		}
		w, h := img.Size()
		isVal := ph.Fold == val
		border := 0
		if !isVal {
			if c.channels == 1 {
				gocv.CvtColor(img.Mat(), &grey, gocv.ColorBGRToGray)
			} else {
				m := img.Mat()
				m.CopyTo(&grey)
			}
			border = max(w, h) / 2
			gocv.CopyMakeBorder(grey, &padded, border, border, border, border, gocv.BorderReflect101, color.RGBA{})
		}
		for _, l := range ph.Labels {
			box, err := l.Rect(w, h)
			if err != nil || l.Class > 5 {
				continue
			}
			d := die{label: l.Class, minPx: min(box.Dx(), box.Dy())}
			if isVal {
				d.patch = make([]float32, p.Len())
				if err := p.Patch(img.Mat(), box, false, d.patch); err != nil {
					fail(err)
				}
				for _, b := range dice.ViewBoxes(nil, box, image.Rect(0, 0, w, h), boxes)[1:] {
					m := make([]float32, p.Len())
					if err := p.Patch(img.Mat(), b, false, m); err != nil {
						fail(err)
					}
					d.moved = append(d.moved, m)
				}
				valSet = append(valSet, d)
				continue
			}
			mx, my := int(math.Round(context*float64(box.Dx()))), int(math.Round(context*float64(box.Dy())))
			r := image.Rect(box.Min.X-mx+border, box.Min.Y-my+border, box.Max.X+mx+border, box.Max.Y+my+border)
			roi := padded.Region(r)
			gocv.Resize(roi, &small, image.Pt(c.ctxSide, c.ctxSide), 0, 0, gocv.InterpolationArea)
			roi.Close()
			px, err := small.DataPtrUint8()
			if err != nil {
				fail(err)
			}
			d.ctx = make([]float32, len(px))
			nn := c.ctxSide * c.ctxSide
			for i, v := range px {
				d.ctx[(i%c.channels)*nn+i/c.channels] = float32(v)
			}
			train = append(train, d)
		}
		img.Close()
	}
	return train, valSet
}

// sampler draws augmented training views.
type sampler struct {
	c        config
	raw, tmp []float32
}

func newSampler(c config) *sampler {
	n := c.channels * c.side * c.side
	return &sampler{c: c, raw: make([]float32, n), tmp: make([]float32, n)}
}

// sample writes one random view of d to x, normalised as the reader's patch.
func (s *sampler) sample(x []float32, d *die, rng *rand.Rand) {
	s.sampleSym(x, d, rng, s.c.syms[rng.IntN(len(s.c.syms))])
}

func (s *sampler) sampleSym(x []float32, d *die, rng *rand.Rand, sym int) {
	c := s.c
	// the output pixel (u, v), centred, maps to the context patch by
	// [a b; cc dd]·(u, v) + (tx, ty)
	a, b, cc, dd := 1.0, 0.0, 0.0, 1.0
	tx, ty := 0.0, 0.0
	if rng.Float64() >= c.exact {
		th := (2*rng.Float64() - 1) * c.rot * math.Pi / 180
		sc := math.Exp((2*rng.Float64() - 1) * math.Log1p(c.scale))
		as := math.Exp((2*rng.Float64() - 1) * math.Log1p(c.aspect))
		sx, sy := sc*math.Sqrt(as), sc/math.Sqrt(as)
		cos, sin := math.Cos(th), math.Sin(th)
		a, b, cc, dd = cos*sx, -sin*sy, sin*sx, cos*sy
		tx = (2*rng.Float64() - 1) * c.shift * float64(c.side)
		ty = (2*rng.Float64() - 1) * c.shift * float64(c.side)
	}
	half := float64(c.side) / 2
	ch := float64(c.ctxSide) / 2
	n := c.ctxSide
	ss := c.side * c.side
	perm := [3]int{0, 1, 2}
	var gain [3]float64
	for p := range gain {
		gain[p] = 1
	}
	if c.channels == 3 {
		if rng.Float64() < c.chanSwap {
			rng.Shuffle(3, func(i, j int) { perm[i], perm[j] = perm[j], perm[i] })
		}
		for p := range gain {
			gain[p] = 1 + (2*rng.Float64()-1)*c.chanGain
		}
	}
	for p := 0; p < c.channels; p++ {
		src := d.ctx[perm[p]*n*n : (perm[p]+1)*n*n]
		dst := s.raw[p*ss : (p+1)*ss]
		for v := 0; v < c.side; v++ {
			fv := float64(v) + 0.5 - half
			for u := 0; u < c.side; u++ {
				fu := float64(u) + 0.5 - half
				px := a*fu + b*fv + ch + tx - 0.5
				py := cc*fu + dd*fv + ch + ty - 0.5
				dst[v*c.side+u] = bilinear(src, n, px, py)
			}
		}
	}
	if rng.Float64() < c.blur {
		for p := 0; p < c.channels; p++ {
			blur3(s.tmp[p*ss:(p+1)*ss], s.raw[p*ss:(p+1)*ss], c.side)
		}
		copy(s.raw, s.tmp)
	}
	g := math.Exp((2*rng.Float64() - 1) * c.gamma)
	noise := rng.Float64() * c.noise
	for i, v := range s.raw {
		f := 255 * math.Pow(math.Min(math.Max(float64(v)*gain[i/ss], 0), 255)/255, g)
		if noise > 0 {
			f += noise * rng.NormFloat64()
		}
		s.raw[i] = float32(f)
	}
	normalise(s.tmp, s.raw)
	if rng.Float64() < c.invert {
		for i := range s.tmp {
			s.tmp[i] = -s.tmp[i]
		}
	}
	aug.Dihedral(x, s.tmp, c.side, sym)
}

// bilinear samples the n×n image at (x, y), clamped to its edges.
func bilinear(img []float32, n int, x, y float64) float32 {
	x = math.Max(0, math.Min(float64(n-1), x))
	y = math.Max(0, math.Min(float64(n-1), y))
	x0, y0 := int(x), int(y)
	x1, y1 := min(x0+1, n-1), min(y0+1, n-1)
	fx, fy := float32(x-float64(x0)), float32(y-float64(y0))
	top := img[y0*n+x0]*(1-fx) + img[y0*n+x1]*fx
	bot := img[y1*n+x0]*(1-fx) + img[y1*n+x1]*fx
	return top*(1-fy) + bot*fy
}

// blur3 is a [1 2 1]² blur with clamped edges.
func blur3(dst, src []float32, side int) {
	at := func(x, y int) float32 {
		x = max(0, min(side-1, x))
		y = max(0, min(side-1, y))
		return src[y*side+x]
	}
	for y := 0; y < side; y++ {
		for x := 0; x < side; x++ {
			var s float32
			for dy := -1; dy <= 1; dy++ {
				for dx := -1; dx <= 1; dx++ {
					wt := float32((2 - dx*dx) * (2 - dy*dy))
					s += wt * at(x+dx, y+dy)
				}
			}
			dst[y*side+x] = s / 16
		}
	}
}

// normalise is the reader's normalisation (dice.Standardise).
func normalise(dst, src []float32) {
	m, inv := dice.Standardise(src)
	for i, v := range src {
		dst[i] = (v - m) * inv
	}
}

// evaluate reads each validation die as the reader does, averaging over
// every network, every box placement and the first k symmetries
// (dice.Reader's order).
func evaluate(ws []*cnn.Workspace, set []die, side, k int) (float64, dice.Report) {
	var rp dice.Report
	x := make([]float32, len(set[0].patch))
	for _, d := range set {
		rp.Add(d.label+1, readDie(ws, d, x, side, k)+1)
	}
	return float64(rp.Correct) / float64(max(rp.Dice, 1)), finish(rp)
}

// readDie reads a validation die as dice.Reader does: every network, over
// the first k symmetries of the patch of each box placement.
func readDie(wss []*cnn.Workspace, d die, x []float32, side, k int) int {
	var prob [6]float64
	for i := -1; i < len(d.moved); i++ {
		patch := d.patch
		if i >= 0 {
			patch = d.moved[i]
		}
		for _, sym := range dice.Symmetries(k) {
			aug.Dihedral(x, patch, side, sym)
			for _, ws := range wss {
				if err := ws.Forward(x); err != nil {
					fail(err)
				}
				for j, p := range ws.Prob {
					prob[j] += float64(p)
				}
			}
		}
	}
	best := 0
	for j := range prob {
		if prob[j] > prob[best] {
			best = j
		}
	}
	return best
}

// smallAcc prints validation accuracy by box size.
func smallAcc(ws []*cnn.Workspace, set []die, side, k int) {
	x := make([]float32, len(set[0].patch))
	edges := []int{0, 16, 24, 32, 48, 64, 96, 1 << 30}
	var n, ok [8]int
	for _, d := range set {
		b := 0
		for b+1 < len(edges) && d.minPx >= edges[b+1] {
			b++
		}
		n[b]++
		if readDie(ws, d, x, side, k) == d.label {
			ok[b]++
		}
	}
	for b := 0; b+1 < len(edges); b++ {
		if n[b] > 0 {
			fmt.Printf("  box %d..%d px: %d dice, %.1f%%\n", edges[b], edges[b+1], n[b], 100*float64(ok[b])/float64(n[b]))
		}
	}
}

// finish fills the report's ratios (dice.Report computes them in Evaluate).
func finish(rp dice.Report) dice.Report {
	if rp.Dice > 0 {
		rp.Accuracy = float64(rp.Correct) / float64(rp.Dice)
	}
	for v := range rp.Count {
		if rp.Count[v] > 0 {
			rp.PerValue[v] = float64(rp.Confusion[v][v]) / float64(rp.Count[v])
		}
	}
	return rp
}

// failureSheet draws the misread validation dice, 16 to a row, and prints
// their truth and reading in the same order.
func failureSheet(path string, ws []*cnn.Workspace, set []die, side, k int) {
	x := make([]float32, len(set[0].patch))
	var bad []int
	var read []int
	for i, d := range set {
		if r := readDie(ws, d, x, side, k); r != d.label {
			bad = append(bad, i)
			read = append(read, r)
		}
	}
	const cols = 16
	sd := side + 2
	rows := (len(bad) + cols - 1) / cols
	sheet := image.NewGray(image.Rect(0, 0, cols*sd, rows*sd))
	var line strings.Builder
	for n, i := range bad {
		r, c := n/cols, n%cols
		for v := 0; v < side; v++ {
			for u := 0; u < side; u++ {
				g := 128 + 50*set[i].patch[v*side+u]
				sheet.SetGray(c*sd+u, r*sd+v, color.Gray{Y: uint8(max(0, min(255, g)))})
			}
		}
		fmt.Fprintf(&line, " %d>%d(%dpx)", set[i].label+1, read[n]+1, set[i].minPx)
		if c == cols-1 || n == len(bad)-1 {
			fmt.Printf("row %2d:%s\n", r+1, line.String())
			line.Reset()
		}
	}
	savePNG(path, sheet)
}

// writeSheet draws 16 dice in rows of 12 views each: the plain box first,
// then augmented views.
func writeSheet(path string, train []die, c config, rng *rand.Rand) {
	const rows, cols = 16, 12
	sd := c.side + 2
	sheet := image.NewRGBA(image.Rect(0, 0, cols*sd, rows*sd))
	s := newSampler(c)
	x := make([]float32, c.channels*c.side*c.side)
	for r := 0; r < rows; r++ {
		d := &train[rng.IntN(len(train))]
		for k := 0; k < cols; k++ {
			if k == 0 {
				e := s.c
				e.rot, e.scale, e.aspect, e.shift, e.gamma, e.noise, e.blur, e.invert, e.exact = 0, 0, 0, 0, 0, 0, 0, 0, 1
				(&sampler{c: e, raw: s.raw, tmp: s.tmp}).sampleSym(x, d, rng, 0)
			} else {
				s.sample(x, d, rng)
			}
			for v := 0; v < c.side; v++ {
				for u := 0; u < c.side; u++ {
					ss := c.side * c.side
					px := func(p int) uint8 { return uint8(max(0, min(255, 128+50*x[p*ss+v*c.side+u]))) }
					if c.channels == 3 {
						sheet.Set(k*sd+u, r*sd+v, color.RGBA{R: px(2), G: px(1), B: px(0), A: 255})
					} else {
						sheet.Set(k*sd+u, r*sd+v, color.RGBA{R: px(0), G: px(0), B: px(0), A: 255})
					}
				}
			}
		}
		fmt.Printf("row %d: %d pips, %d px\n", r+1, d.label+1, d.minPx)
	}
	savePNG(path, sheet)
}

func parseInts(s string) []int {
	var out []int
	for _, f := range strings.Split(s, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil {
			fail(fmt.Errorf("-convs %q: %v", s, err))
		}
		out = append(out, n)
	}
	return out
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "train:", err)
	os.Exit(1)
}

// savePNG writes a contact sheet, or stops the trainer saying why not.
func savePNG(path string, img image.Image) {
	f, err := os.Create(path)
	if err != nil {
		fail(err)
	}
	if err := png.Encode(f, img); err != nil {
		f.Close()
		fail(err)
	}
	if err := f.Close(); err != nil {
		fail(err)
	}
}
