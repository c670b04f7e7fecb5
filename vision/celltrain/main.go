// Command celltrain trains the learned cell reader of package vision: the
// top network (is a top face at this level, and of which material) and the
// pip network, from rendered images with truth (vision/synth), and writes
// the two model files that package vision embeds.
//
//	go run ./vision/celltrain -data DIR[,DIR...] [-val 0.15] [-seed 1]
//
// Every *.json truth file under each DIR (recursively) is one image. A
// share of the images (-val, chosen by a hash of the path) is kept out of
// training and only measured. The committed stills in
// vision/testdata/synth/stills are what `vision bench` measures: do not
// train on them.
package main

import (
	"errors"
	"flag"
	"fmt"
	"hash/fnv"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/blueprints-companion/blueprints/vision"
	"github.com/blueprints-companion/blueprints/vision/internal/mlp"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "celltrain:", err)
		os.Exit(1)
	}
}

func run(args []string) error {
	fl := flag.NewFlagSet("celltrain", flag.ContinueOnError)
	data := fl.String("data", "", "folders of rendered images with truth, comma separated")
	val := fl.Float64("val", 0.15, "share of images kept out of training and measured")
	seed := fl.Uint64("seed", 1, "seed of initialisation, order and augmentation")
	epochs := fl.Int("epochs", 30, "training epochs")
	hidden := fl.Int("hidden", 64, "hidden units of the top network")
	pipHidden := fl.Int("pip-hidden", 96, "hidden units of the pip network")
	lr := fl.Float64("lr", 2e-3, "Adam step")
	outTop := fl.String("out-top", "vision/model/top.mlp", "top network file to write")
	outPips := fl.String("out-pips", "vision/model/pips.mlp", "pip network file to write")
	outHeight := fl.String("out-height", "vision/model/height.mlp", "height network file to write (\"\": train none; the detector then takes heights from the top network level by level)")
	heightHidden := fl.Int("height-hidden", 64, "hidden units of the height network")
	if err := fl.Parse(args); err != nil {
		return err
	}
	if *data == "" {
		return errors.New("-data is required")
	}
	var files []string
	for _, dir := range strings.Split(*data, ",") {
		err := filepath.WalkDir(dir, func(p string, e fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if !e.IsDir() && strings.HasSuffix(p, ".json") && filepath.Base(p) != "manifest.json" {
				files = append(files, p)
			}
			return nil
		})
		if err != nil {
			return err
		}
	}
	sort.Strings(files)
	for _, f := range files {
		if strings.Contains(filepath.ToSlash(f), "testdata/synth/stills/") {
			return fmt.Errorf("%s: the bench's stills are not training data", f)
		}
	}
	d := vision.NewDetector(vision.Options{Classical: true}) // features do not depend on the networks
	defer d.Close()
	var train, test []vision.CellSample
	start := time.Now()
	for i, f := range files {
		cells, err := d.TrainingCells(f)
		if err != nil {
			fmt.Fprintf(os.Stderr, "skip %s: %v\n", f, err)
			continue
		}
		h := fnv.New32a()
		h.Write([]byte(f))
		// Frames of a sequence are near copies of each other: they only
		// train, so that the validation images are independent scenes.
		if !strings.Contains(filepath.ToSlash(f), "/sequences/") && float64(h.Sum32()%1000)/1000 < *val {
			test = append(test, cells...)
		} else {
			train = append(train, cells...)
		}
		if (i+1)%50 == 0 {
			fmt.Fprintf(os.Stderr, "features %d/%d images (%s)\n", i+1, len(files), time.Since(start).Round(time.Second))
		}
	}
	fmt.Printf("%d images: %d training cells, %d validation cells\n", len(files), len(train), len(test))

	var topS, pipS []mlp.Sample
	for _, c := range train {
		for h := 1; h <= vision.MaxStack; h++ {
			if k := c.TopClass(h); k >= 0 {
				topS = append(topS, mlp.Sample{X: c.Top[h-1], Class: k})
			}
		}
		if c.Height > 0 && c.Hand == 0 {
			pipS = append(pipS, mlp.Sample{X: c.Pips[c.Height-1], Class: c.PipsTop - 1})
		}
	}
	top, err := mlp.New([]int{vision.TopInputs, *hidden, vision.TopClasses}, *seed)
	if err != nil {
		return err
	}
	pips, err := mlp.New([]int{vision.PipInputs, *pipHidden, *pipHidden / 2, 6}, *seed+1)
	if err != nil {
		return err
	}
	report := func(name string) func(int, float64) {
		return func(ep int, loss float64) {
			if ep%5 == 4 {
				fmt.Fprintf(os.Stderr, "%s epoch %d loss %.4f (%s)\n", name, ep+1, loss, time.Since(start).Round(time.Second))
			}
		}
	}
	if err := top.Train(topS, mlp.TrainOptions{Epochs: *epochs, Batch: 32, LR: *lr, Decay: 1e-4, Seed: *seed, Augment: vision.AugmentTop, Epoch: report("top")}); err != nil {
		return err
	}
	if err := pips.Train(pipS, mlp.TrainOptions{Epochs: *epochs, Batch: 32, LR: *lr, Decay: 1e-4, Seed: *seed + 1, Augment: vision.AugmentPips, Epoch: report("pips")}); err != nil {
		return err
	}
	outs := []struct {
		path string
		n    *mlp.Net
	}{{*outTop, top}, {*outPips, pips}}
	var height *mlp.Net
	if *outHeight != "" {
		var cellS []mlp.Sample
		for _, c := range train {
			k := c.HeightClass()
			if k < 0 {
				continue
			}
			x := make([]float32, 0, vision.CellInputs)
			for h := 0; h < vision.MaxStack; h++ {
				x = append(x, c.Top[h]...)
			}
			cellS = append(cellS, mlp.Sample{X: x, Class: k})
		}
		if height, err = mlp.New([]int{vision.CellInputs, *heightHidden, vision.HeightClasses}, *seed+2); err != nil {
			return err
		}
		if err := height.Train(cellS, mlp.TrainOptions{Epochs: *epochs, Batch: 32, LR: *lr, Decay: 1e-4, Seed: *seed + 2, Augment: vision.AugmentCell, Epoch: report("height")}); err != nil {
			return err
		}
		outs = append(outs, struct {
			path string
			n    *mlp.Net
		}{*outHeight, height})
	}
	for _, w := range outs {
		b, err := w.n.MarshalBinary()
		if err != nil {
			return err
		}
		if err := os.MkdirAll(filepath.Dir(w.path), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(w.path, b, 0o644); err != nil {
			return err
		}
	}
	fmt.Printf("trained in %s; wrote", time.Since(start).Round(time.Second))
	for _, w := range outs {
		fmt.Printf(" %s", w.path)
	}
	fmt.Println()
	for _, set := range []struct {
		name  string
		cells []vision.CellSample
	}{{"training", train}, {"validation", test}} {
		fmt.Printf("%s: %s\n", set.name, measure(top, pips, nil, set.cells))
		if height != nil {
			fmt.Printf("%s, heights from the cell network: %s\n", set.name, measure(top, pips, height, set.cells))
		}
	}
	return nil
}

// measure reads the cells as the detector does and tallies what is right.
func measure(top, pips, height *mlp.Net, cells []vision.CellSample) string {
	ts, ps := top.NewScratch(), pips.NewScratch()
	var hs *mlp.Scratch
	var hp []float32
	cellX := make([]float32, vision.CellInputs)
	if height != nil {
		hs, hp = height.NewScratch(), make([]float32, vision.HeightClasses)
	}
	pp := make([]float32, 6)
	var occ, nocc, n, hOK, mOK, pOK, all, covered, flagged, clear, falseFlag int
	var probs [vision.MaxStack][vision.TopClasses]float32
	for _, c := range cells {
		for h := 1; h <= vision.MaxStack; h++ {
			top.Predict(c.Top[h-1], ts, probs[h-1][:])
		}
		dec := vision.DecideCell(&probs)
		if height != nil {
			for h := 0; h < vision.MaxStack; h++ {
				copy(cellX[h*vision.TopInputs:], c.Top[h])
			}
			height.Predict(cellX, hs, hp)
			dec2 := vision.DecideHeight(hp)
			if dec2.Height > 0 {
				dec2.Material = dec.Material
				if dec2.Height != dec.Height {
					dec2.Material = vision.MaterialAt(&probs[dec2.Height-1])
				}
			}
			dec = dec2
		}
		bestH := dec.Height
		isFlagged := dec.Occluded
		switch {
		case c.Hand >= vision.HandCovered:
			covered++
			if isFlagged {
				flagged++
			}
			continue
		case c.Hand > 0:
			continue
		}
		clear++
		if isFlagged {
			falseFlag++
			bestH = 0
		}
		nocc++
		if (bestH == 0) == (c.Height == 0) && !isFlagged {
			occ++
		}
		if c.Height == 0 {
			continue
		}
		n++
		okH := bestH == c.Height
		okM := bestH > 0 && dec.Material == c.Material
		okP := false
		if bestH > 0 {
			pips.Predict(c.Pips[bestH-1], ps, pp)
			pi := 0
			for k := 1; k < 6; k++ {
				if pp[k] > pp[pi] {
					pi = k
				}
			}
			okP = pi+1 == c.PipsTop
		}
		for _, t := range []struct {
			ok bool
			c  *int
		}{{okH, &hOK}, {okM, &mOK}, {okP, &pOK}, {okH && okM && okP, &all}} {
			if t.ok {
				*t.c++
			}
		}
	}
	pct := func(a, b int) float64 { return 100 * float64(a) / float64(max(b, 1)) }
	return fmt.Sprintf("empty/occupied %.1f%% of %d cells; of %d stacks: height %.1f%%, material %.1f%%, pips %.1f%%, whole %.1f%%; covered cells flagged %.1f%% of %d, clear cells flagged %.2f%% of %d",
		pct(occ, nocc), nocc, n, pct(hOK, n), pct(mOK, n), pct(pOK, n), pct(all, n), pct(flagged, covered), covered, pct(falseFlag, clear), clear)
}
