// Command train trains the dice pip reader's network (vision/dice) on a YOLO
// data set of boxed dice, seeded and single-threaded, and writes the model
// file the dice package embeds.
//
// The source photos are split into dice.Folds folds by a hash of their name;
// fold dice.HeldOutFold is never read here. Training uses the other folds;
// with -val F it trains on the remaining training folds and reports accuracy
// on fold F (for choosing settings without touching the held-out fold).
//
//	go run ./vision/dice/train -data ../shared/datasets/dice-real -out vision/dice/model/pips.cnn
//	go run ./vision/dice/train -data ../shared/datasets/dice-real -val 1   # tuning run
//
// `make dice-model` runs the first line.
package main

import (
	"flag"
	"fmt"
	"image"
	"math"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/blueprints-companion/blueprints/vision/dice"
	"github.com/blueprints-companion/blueprints/vision/dice/internal/cnn"
)

type sample struct {
	label    int
	variants [][]float32
}

func main() {
	data := flag.String("data", "../shared/datasets/dice-real", "YOLO data set folder")
	out := flag.String("out", "", "model file to write (empty: do not write)")
	seed := flag.Uint64("seed", 1, "random seed")
	epochs := flag.Int("epochs", 40, "training epochs")
	side := flag.Int("side", 32, "input side in pixels")
	channels := flag.Int("channels", 1, "1 (grey) or 3 (colour) input channels")
	hidden := flag.Int("hidden", 64, "hidden layer width")
	convs := flag.String("convs", "8,16,32", "output channels of each conv block (each halves the side)")
	gap := flag.Bool("gap", false, "global average pooling before the hidden layer")
	lr := flag.Float64("lr", 2e-3, "Adam learning rate (cosine decay to 5%)")
	wd := flag.Float64("wd", 1e-4, "weight decay")
	jitter := flag.Float64("jitter", 0.08, "box jitter (fraction of the box side)")
	variants := flag.Int("variants", 6, "jittered crops per box")
	rot90 := flag.Bool("rot90", false, "randomly rotate patches by multiples of 90 degrees")
	invert := flag.Bool("invert", true, "randomly invert patch polarity (light/dark pips)")
	val := flag.Int("val", -1, "validation fold (1..4) for tuning; -1 trains on all training folds")
	flag.Parse()
	if *val == dice.HeldOutFold || *val >= dice.Folds {
		fail(fmt.Errorf("-val %d: want a training fold 1..%d (fold %d is held out)", *val, dice.Folds-1, dice.HeldOutFold))
	}
	photos, err := dice.LoadDataset(*data)
	if err != nil {
		fail(err)
	}
	rng := rand.New(rand.NewPCG(*seed, 0x9d1ce))
	t0 := time.Now()
	var train, valSet []sample
	p := dice.NewPatcher(*side, *channels)
	defer p.Close()
	for _, ph := range photos {
		if ph.Fold == dice.HeldOutFold {
			continue
		}
		isVal := ph.Fold == *val
		img, err := dice.LoadImage(ph.Image)
		if err != nil {
			fail(err)
		}
		w, h := img.Size()
		for _, l := range ph.Labels {
			box, err := l.Rect(w, h)
			if err != nil || l.Class > 5 {
				continue
			}
			s := sample{label: l.Class}
			n := *variants
			if isVal {
				n = 1
			}
			for v := 0; v < n; v++ {
				b := box
				if v > 0 {
					b = jitterBox(box, *jitter, rng, w, h)
				}
				x := make([]float32, p.Len())
				if err := p.Patch(img.Mat(), b, false, x); err != nil {
					continue
				}
				s.variants = append(s.variants, x)
			}
			if len(s.variants) == 0 {
				continue
			}
			if isVal {
				valSet = append(valSet, s)
			} else {
				train = append(train, s)
			}
		}
		img.Close()
	}
	fmt.Printf("%d training dice, %d validation dice, patches in %v\n", len(train), len(valSet), time.Since(t0).Round(time.Millisecond))

	arch := cnn.Arch{InC: *channels, Side: *side, Convs: parseInts(*convs), Hidden: *hidden, Classes: 6, GAP: *gap}
	net, err := cnn.New(arch, rng)
	if err != nil {
		fail(err)
	}
	fmt.Printf("network %+v, %d parameters\n", arch, net.NumParams())
	ws := net.NewWorkspace()
	gr := net.NewGrads()
	opt := net.NewAdam(*lr)
	opt.WeightDecay = *wd
	const batch = 32
	x := make([]float32, p.Len())
	tmp := make([]float32, p.Len())
	order := make([]int, len(train))
	for i := range order {
		order[i] = i
	}
	steps := *epochs * ((len(train) + batch - 1) / batch)
	step := 0
	for ep := 0; ep < *epochs; ep++ {
		rng.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
		var loss float64
		correct := 0
		for b := 0; b < len(order); b += batch {
			gr.Zero()
			n := 0
			for _, i := range order[b:min(b+batch, len(order))] {
				s := train[i]
				src := s.variants[rng.IntN(len(s.variants))]
				augment(x, src, *side, rng.IntN(2) == 1, *invert && rng.IntN(2) == 1)
				if *rot90 {
					rotate(x, tmp, *side, rng.IntN(4))
				}
				if err := ws.Forward(x); err != nil {
					fail(err)
				}
				if c, _ := ws.Argmax(); c == s.label {
					correct++
				}
				loss += ws.Backward(x, s.label, gr)
				n++
			}
			opt.LR = *lr * (0.05 + 0.95*0.5*(1+math.Cos(math.Pi*float64(step)/float64(steps))))
			opt.Step(net, gr, n)
			step++
		}
		line := fmt.Sprintf("epoch %2d  loss %.4f  train %.2f%%", ep+1, loss/float64(len(train)), 100*float64(correct)/float64(len(train)))
		if len(valSet) > 0 && (ep%5 == 4 || ep == *epochs-1) {
			line += fmt.Sprintf("  val %.2f%%", 100*accuracy(ws, valSet, x, *side))
		}
		fmt.Printf("%s  (%v)\n", line, time.Since(t0).Round(time.Second))
	}
	if *out != "" {
		b, err := net.MarshalBinary()
		if err != nil {
			fail(err)
		}
		if err := os.WriteFile(*out, b, 0o644); err != nil {
			fail(err)
		}
		fmt.Printf("wrote %s (%d bytes)\n", *out, len(b))
	}
}

// accuracy reads each validation die as the reader does (the patch and its
// mirror image averaged).
func accuracy(ws *cnn.Workspace, set []sample, x []float32, side int) float64 {
	ok := 0
	var prob [6]float32
	for _, s := range set {
		prob = [6]float32{}
		for f := 0; f < 2; f++ {
			augment(x, s.variants[0], side, f == 1, false)
			if err := ws.Forward(x); err != nil {
				fail(err)
			}
			for j, p := range ws.Prob {
				prob[j] += p
			}
		}
		best := 0
		for j := range prob {
			if prob[j] > prob[best] {
				best = j
			}
		}
		if best == s.label {
			ok++
		}
	}
	return float64(ok) / float64(len(set))
}

// augment copies src to dst, mirrored left to right and/or negated.
func augment(dst, src []float32, side int, flip, invert bool) {
	sign := float32(1)
	if invert {
		sign = -1
	}
	for c := 0; c < len(src)/(side*side); c++ {
		d, s := dst[c*side*side:(c+1)*side*side], src[c*side*side:(c+1)*side*side]
		for y := 0; y < side; y++ {
			for x := 0; x < side; x++ {
				sx := x
				if flip {
					sx = side - 1 - x
				}
				d[y*side+x] = sign * s[y*side+sx]
			}
		}
	}
}

// rotate turns x by k quarter turns (tmp is scratch of the same size).
func rotate(x, tmp []float32, side, k int) {
	for ; k > 0; k-- {
		copy(tmp, x)
		for c := 0; c < len(x)/(side*side); c++ {
			d, s := x[c*side*side:(c+1)*side*side], tmp[c*side*side:(c+1)*side*side]
			for y := 0; y < side; y++ {
				for xx := 0; xx < side; xx++ {
					d[xx*side+(side-1-y)] = s[y*side+xx]
				}
			}
		}
	}
}

// jitterBox moves and scales box by up to frac of its size, inside w×h.
func jitterBox(box image.Rectangle, frac float64, rng *rand.Rand, w, h int) image.Rectangle {
	dx, dy := float64(box.Dx()), float64(box.Dy())
	sx := 1 + frac*(2*rng.Float64()-1)
	sy := 1 + frac*(2*rng.Float64()-1)
	cx := float64(box.Min.X) + dx/2 + frac*dx*(2*rng.Float64()-1)
	cy := float64(box.Min.Y) + dy/2 + frac*dy*(2*rng.Float64()-1)
	r := image.Rect(int(cx-dx*sx/2), int(cy-dy*sy/2), int(cx+dx*sx/2), int(cy+dy*sy/2)).Intersect(image.Rect(0, 0, w, h))
	if r.Dx() < dice.MinSide || r.Dy() < dice.MinSide {
		return box
	}
	return r
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
