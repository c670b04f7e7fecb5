// Command celltrain trains the learned cell reader of package vision: the
// top network (is a top face at this level, and of which material), the
// pip reader (an MLP or, with -pip-convs, a CNN) and the height networks
// (MLPs and, with -train ...,height-cnn, a CNN; with -train glass-levels,
// the glass levels network, a trial none is built in of), from rendered images with
// truth (vision/synth), and writes the model files that package vision
// embeds. The networks train side by side, one per core (-jobs); each
// file depends only on the data, the flags and the seed.
//
//	go run ./vision/celltrain -data DIR[,DIR...] [-val 0.15] [-seed 1]
//	go run ./vision/celltrain -data DIR -eval -show-misreads   # measure only
//
// Every *.json truth file under each DIR (recursively) is one image. A
// share of the images (-val, chosen by a hash of the path) is kept out of
// training and only measured. The committed stills in
// vision/testdata/synth/stills and vision/testdata/synth-mistakes are what
// `vision bench` and the corpus tests measure: do not train on them.
package main

import (
	"errors"
	"flag"
	"fmt"
	"hash/fnv"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/blueprints-companion/blueprints/vision"
	"github.com/blueprints-companion/blueprints/vision/internal/cnn"
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
	outPips := fl.String("out-pips", "", "pip network file to write (default vision/model/pips.cnn with -pip-convs, or to read when it exists and pips are not trained; else vision/model/pips.mlp)")
	outHeight := fl.String("out-height", "vision/model/height.mlp", "height network file to write (\"\": train none; the detector then takes heights from the top network level by level)")
	heightHidden := fl.Int("height-hidden", 64, "hidden units of the height network")
	pipConvs := fl.String("pip-convs", "", "train the pip reader as a CNN with these conv block widths (e.g. 16,32) instead of an MLP")
	pipCNNHidden := fl.Int("pip-cnn-hidden", 64, "hidden units of the pip CNN's dense layer")
	pipCNNMembers := fl.Int("pip-cnn-members", 1, "pip CNNs to train (seeds differ), written together in the pip file; the detector averages them")
	pipSide := fl.Int("pip-side", vision.PipSide, fmt.Sprintf("side of the square grey patch the pip network reads (4-%d; an MLP reads %d); when the pip network is read, not trained, its own side unless given", vision.MaxPipSide, vision.PipSide))
	pipPlanes := fl.Int("pip-planes", 1, "planes of the pip CNN's patch: 1, the top face; 2, also the same square 2/3 of a die lower, where a clear glass top shows its own bottom face's pips; 3, also the top face as whiteness (HSV value less saturation); when the pip network is read, not trained, its own; a -pip-from network of fewer planes is widened (zero weights for the added planes)")
	only := fl.String("train", "top,pips,height", "which networks to train, comma separated (top, pips, height, height-cnn, material-cnn); the others are read from their -out-* files, to measure with")
	outHeightCNN := fl.String("out-height-cnn", "vision/model/height.cnn", "height CNN file to write with -train height-cnn (read, if it exists, otherwise)")
	heightConvs := fl.String("height-convs", "32,64", "conv block widths of the height CNN")
	outMaterialCNN := fl.String("out-material-cnn", "vision/model/material.cnn", "material CNN file to write with -train material-cnn (read, if it exists, otherwise)")
	materialConvs := fl.String("material-convs", "32,64", "conv block widths of the material CNN")
	outGlassLevels := fl.String("out-glass-levels", "vision/model/glass_levels.cnn", "glass levels network file to write with -train glass-levels")
	glassLevelsConvs := fl.String("glass-levels-convs", "24,48,96", "conv block widths of the glass levels network")
	glassLevelsHidden := fl.Int("glass-levels-hidden", 96, "hidden units of the glass levels network's dense layer")
	glassLevelsMembers := fl.Int("glass-levels-members", 1, "glass levels networks to train (seeds differ), written together in the glass levels file; the detector averages them")
	materialCNNHidden := fl.Int("material-cnn-hidden", 64, "hidden units of the material CNN's dense layer")
	heightCNNHidden := fl.Int("height-cnn-hidden", 64, "hidden units of the height CNN's dense layer")
	heightCNNMembers := fl.Int("height-cnn-members", 1, "height CNNs to train (seeds differ), written together in the height CNN file")
	pipFrom := fl.String("pip-from", "", "start each pip CNN from the same member of this pip CNN file (its architecture; fine-tuning) instead of random weights")
	heightFrom := fl.String("height-from", "", "start each height CNN from the same member of this height CNN file (its architecture; fine-tuning) instead of random weights")
	materialFrom := fl.String("material-from", "", "start the material CNN from the network in this material CNN file (its architecture; fine-tuning) instead of random weights")
	pipMaterial := fl.String("pip-material", "", "train the pip network on tops of this material only (W, R, S or G; \"\": all): a specialist the detector reads beside the others")
	glassWeight := fl.Int("pip-glass-weight", 1, "how many times each glass top die is learned from per epoch by the pip network (glass is the hardest top; weighting the height CNN's glass stacks the same way gained nothing)")
	heightMembers := fl.Int("height-members", 1, "height MLPs to train (seeds differ), written as height.mlp, height2.mlp, ...; the detector averages them (0: none, and any left from before are removed)")
	fl.BoolVar(&showMisreads, "show-misreads", false, "list every stack whose height is misread, on stderr")
	parallel := fl.Int("jobs", runtime.NumCPU(), "networks to train at once")
	jitter := fl.Int("pose-jitter", 0, "copies of each training cell to also read at a card pose jittered around the one found (up to 1.5 mm along each axis and 1 degree), so the networks learn cards found a little off; validation cells are read as found only, and the training cells are measured as found")
	pipTurn := fl.Float64("pip-turn", 0, "turn each training pip patch about its cell's centre by up to this many degrees either way, so the pip network learns dice left turned on their cells (0: as found; validation patches never)")
	pipShift := fl.Int("pip-shift", 0, "move each training pip patch by a whole number of samples, up to this many either way along each axis, at random each time it is learned from (0: as sampled; validation patches never)")
	pipNoise := fl.Float64("pip-noise", 0, "add Gaussian noise of this deviation (the patch is zero mean, unit variance) to each training pip patch each time it is learned from (0: none)")
	pipDropout := fl.Float64("pip-dropout", 0, "drop each hidden unit of the pip CNNs with this probability while they learn (0: none)")
	faceSuper := fl.Int("face-super", 1, fmt.Sprintf("average each face patch sample over this many points squared (1: its centre, as the detector reads faces; %d: as it reads them for height_nadir.cnn)", vision.NadirFaceSuper))
	maxSlide := fl.Float64("max-slide", 0, fmt.Sprintf("learn and measure only the cells whose top face slides less than this many face sizes per die (0: all; the detector reads height_nadir.cnn where it slides less than %.3f)", vision.NadirSlide))
	nadirSide := fl.Int("nadir-side", 0, fmt.Sprintf("train (or measure) the height CNNs as nadir height CNNs of a finer face patch: each level's face sampled this many points square (even, %d-%d) as the detector reads them for a height_nadir.cnn of that side; needs -max-slide (0: the level inputs' %dx%d faces)", vision.MinNadirSide, vision.MaxNadirSide, vision.FaceSide, vision.FaceSide))
	eval := fl.Bool("eval", false, "train nothing: measure the networks in the -out-* files on the training and validation images (as -train with none)")
	if err := fl.Parse(args); err != nil {
		return err
	}
	if *pipSide < 4 || *pipSide > vision.MaxPipSide {
		return fmt.Errorf("-pip-side %d: want 4..%d", *pipSide, vision.MaxPipSide)
	}
	if *pipShift < 0 || *pipShift > 4 {
		return fmt.Errorf("-pip-shift %d: want 0..4", *pipShift)
	}
	if !(*pipNoise >= 0 && *pipNoise <= 2) {
		return fmt.Errorf("-pip-noise %v: want 0..2", *pipNoise)
	}
	if !(*pipDropout >= 0 && *pipDropout < 1) {
		return fmt.Errorf("-pip-dropout %v: want 0 up to 1", *pipDropout)
	}
	if *faceSuper < 1 || *faceSuper > 8 {
		return fmt.Errorf("-face-super %d: want 1..8", *faceSuper)
	}
	if !(*maxSlide >= 0 && *maxSlide <= 1) {
		return fmt.Errorf("-max-slide %v: want 0..1", *maxSlide)
	}
	if *data == "" {
		return errors.New("-data is required")
	}
	if n := *nadirSide; n != 0 && (n < vision.MinNadirSide || n > vision.MaxNadirSide || n%2 != 0) {
		return fmt.Errorf("-nadir-side %d: want an even nadir face side from %d to %d", n, vision.MinNadirSide, vision.MaxNadirSide)
	}
	if *nadirSide != 0 && *maxSlide == 0 {
		return fmt.Errorf("-nadir-side %d: give -max-slide too (the cells under the camera)", *nadirSide)
	}
	trainSet := map[string]bool{}
	for _, w := range strings.Split(*only, ",") {
		if *eval {
			break
		}
		if w != "top" && w != "pips" && w != "height" && w != "height-cnn" && w != "material-cnn" && w != "glass-levels" {
			return fmt.Errorf("-train %q: want some of top,pips,height,height-cnn,material-cnn,glass-levels", *only)
		}
		trainSet[w] = true
	}
	if *glassWeight < 1 || *glassWeight > 9 {
		return fmt.Errorf("-pip-glass-weight %d: want 1..9", *glassWeight)
	}
	if len(*pipMaterial) > 1 || (*pipMaterial != "" && !strings.Contains("WRSG", *pipMaterial)) {
		return fmt.Errorf("-pip-material %q: want W, R, S or G", *pipMaterial)
	}
	copies := func(c vision.CellSample) int {
		if *pipMaterial != "" && c.Material != (*pipMaterial)[0] {
			return 0
		}
		if c.Height > 0 && c.Material == 'G' {
			return *glassWeight
		}
		return 1
	}
	if *heightMembers < 0 || *heightMembers > 9 {
		return fmt.Errorf("-height-members %d: want 0..9", *heightMembers)
	}
	if *outPips == "" {
		// a CNN when one is trained, or read when the built-in one is
		*outPips = "vision/model/pips.mlp"
		if _, err := os.Stat("vision/model/pips.cnn"); *pipConvs != "" || (!trainSet["pips"] && err == nil) {
			*outPips = "vision/model/pips.cnn"
		}
	}
	// a pip network read to measure with sets the patch side the features
	// are sampled at, unless -pip-side says otherwise
	var readPips predictor
	if !trainSet["pips"] {
		b, err := os.ReadFile(*outPips)
		if err != nil {
			return err
		}
		var side, planes int
		if readPips, side, planes, err = loadPipPredictor(b); err != nil {
			return fmt.Errorf("%s: %w", *outPips, err)
		}
		*pipPlanes = planes
		sideSet := false
		fl.Visit(func(f *flag.Flag) { sideSet = sideSet || f.Name == "pip-side" })
		if !sideSet {
			*pipSide = side
		}
		if side != *pipSide {
			return fmt.Errorf("%s reads %dx%d patches; -pip-side is %d", *outPips, side, side, *pipSide)
		}
		if side < 4 || side > vision.MaxPipSide {
			return fmt.Errorf("%s reads %dx%d patches: want 4..%d", *outPips, side, side, vision.MaxPipSide)
		}
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
		if p := filepath.ToSlash(f); strings.Contains(p, "testdata/synth/stills/") || strings.Contains(p, "testdata/synth-mistakes/") {
			return fmt.Errorf("%s: the bench's stills are not training data", f)
		}
	}
	if !(*pipTurn >= 0 && *pipTurn <= 45) {
		return fmt.Errorf("-pip-turn %v: want 0..45", *pipTurn)
	}
	if *jitter < 0 || *jitter > 4 {
		return fmt.Errorf("-pose-jitter %d: want 0..4", *jitter)
	}
	if *pipPlanes < 1 || *pipPlanes > vision.MaxPipPlanes {
		return fmt.Errorf("-pip-planes %d: want 1..%d", *pipPlanes, vision.MaxPipPlanes)
	}
	d := vision.NewDetector(vision.Options{Classical: true, PipSide: *pipSide, PipPlanes: *pipPlanes}) // features do not depend on the networks
	defer d.Close()
	d.SetFaceSupersampling(*faceSuper)
	if err := d.SetNadirTraining(*nadirSide, *maxSlide); err != nil {
		return err
	}
	nadirInput = *nadirSide > 0
	heightSide := vision.FaceSide
	if nadirInput {
		heightSide = *nadirSide
	}
	var train, test []vision.CellSample
	start := time.Now()
	for i, f := range files {
		validation := isValidation(f, *val)
		if validation {
			d.SetTrainingJitter(0, 0, 0) // validation cells are read as found
		} else {
			d.SetTrainingJitter(*jitter, *pipTurn, *seed)
		}
		cells, err := d.TrainingCells(f)
		if err != nil {
			fmt.Fprintf(os.Stderr, "skip %s: %v\n", f, err)
			continue
		}
		if *maxSlide > 0 {
			kept := cells[:0]
			for _, c := range cells {
				if c.Slide() < *maxSlide {
					kept = append(kept, c)
				}
			}
			cells = kept
		}
		if validation {
			test = append(test, cells...)
		} else {
			train = append(train, cells...)
		}
		if (i+1)%50 == 0 {
			fmt.Fprintf(os.Stderr, "features %d/%d images (%s)\n", i+1, len(files), time.Since(start).Round(time.Second))
		}
	}
	trainFound := asFound(train)
	fmt.Printf("%d images: %d training cells (%d of them read at a jittered pose), %d validation cells\n", len(files), len(train), len(train)-len(trainFound), len(test))

	report := func(name string) func(int, float64) {
		return func(ep int, loss float64) {
			if ep%5 == 4 {
				fmt.Fprintf(os.Stderr, "%s epoch %d loss %.4f (%s)\n", name, ep+1, loss, time.Since(start).Round(time.Second))
			}
		}
	}
	// What is not trained is read, to measure with.
	var (
		top        *mlp.Net
		pipPredict predictor
		height     []*mlp.Net
		heightCNNs []*cnn.Net
		pipCNNs    []*cnn.Net // trained pip CNNs (one or an ensemble)
		glassNets  []*cnn.Net // trained glass levels networks
		err        error
	)
	if !trainSet["top"] {
		if top, err = mlp.ReadFile(*outTop); err != nil {
			return err
		}
	}
	pipPredict = readPips
	if !trainSet["height"] && *outHeight != "" {
		if height, err = vision.LoadHeightMLPs(*outHeight); err != nil {
			return err
		}
	}
	if !trainSet["height-cnn"] {
		if b, err := os.ReadFile(*outHeightCNN); err == nil {
			if heightCNNs, err = cnn.UnmarshalAll(b); err != nil {
				return fmt.Errorf("%s: %w", *outHeightCNN, err)
			}
			if a := heightCNNs[0].Arch; a.InC != vision.HeightCNNChannels || a.Side != heightSide || a.Classes != vision.HeightClasses {
				return fmt.Errorf("%s: a CNN for %dx%dx%d inputs to %d classes, not a height CNN", *outHeightCNN, a.InC, a.Side, a.Side, a.Classes)
			}
		}
	}

	var materialCNN *cnn.Net
	if !trainSet["material-cnn"] {
		if b, err := os.ReadFile(*outMaterialCNN); err == nil {
			if materialCNN, err = cnn.Unmarshal(b); err != nil {
				return fmt.Errorf("%s: %w", *outMaterialCNN, err)
			}
			if a := materialCNN.Arch; a.InC != 3 || a.Side != vision.FaceSide || a.Classes != 4 {
				return fmt.Errorf("%s: a CNN for %dx%dx%d inputs to %d classes, not a material CNN", *outMaterialCNN, a.InC, a.Side, a.Side, a.Classes)
			}
		}
	}

	// The networks to train are independent (each has its own seeded
	// source and reads the samples only), so they train side by side, one
	// per core; the files do not depend on how many run at once.
	type model interface{ MarshalBinary() ([]byte, error) }
	type output struct {
		path string
		n    model
	}
	type job struct {
		out  output
		cost int // rough training time, to start the longest first
		run  func() (model, error)
	}
	var jobs []*job
	if trainSet["top"] {
		var topS []mlp.Sample
		for _, c := range train {
			for h := 1; h <= vision.MaxStack; h++ {
				if k := c.TopClass(h); k >= 0 {
					topS = append(topS, mlp.Sample{X: c.Top[h-1], Class: k})
				}
			}
		}
		jobs = append(jobs, &job{out: output{path: *outTop}, cost: 2, run: func() (model, error) {
			n, err := mlp.New([]int{vision.TopInputs, *hidden, vision.TopClasses}, *seed)
			if err != nil {
				return nil, err
			}
			top = n
			return n, n.Train(topS, mlp.TrainOptions{Epochs: *epochs, Batch: 32, LR: *lr, Decay: 1e-4, Seed: *seed, Augment: vision.AugmentTop, Epoch: report("top")})
		}})
	}
	if trainSet["pips"] {
		var pipS []mlp.Sample
		for _, c := range train {
			if c.Height > 0 && c.Hand == 0 && c.Hidden < vision.HiddenByDice {
				for range copies(c) {
					pipS = append(pipS, mlp.Sample{X: c.Pips[c.Height-1], Class: c.PipsTop - 1})
				}
			}
		}
		var convs []int
		if *pipConvs != "" {
			if convs, err = parseConvs(*pipConvs); err != nil {
				return err
			}
		} else if *pipSide != vision.PipSide || *pipPlanes != 1 {
			return fmt.Errorf("-pip-side %d, -pip-planes %d: the pip MLP reads one %dx%d patch; give -pip-convs for a CNN", *pipSide, *pipPlanes, vision.PipSide, vision.PipSide)
		}
		if convs != nil {
			if *pipCNNMembers < 1 || *pipCNNMembers > cnn.MaxMembers {
				return fmt.Errorf("-pip-cnn-members %d: want 1..%d", *pipCNNMembers, cnn.MaxMembers)
			}
			from, err := readFrom("-pip-from", *pipFrom, *pipCNNMembers, 0)
			if err != nil {
				return err
			}
			for k, f := range from {
				// a network of fewer planes starts from what it read,
				// blind to the added planes until it learns them
				if f.Arch.InC < *pipPlanes {
					if from[k], err = cnn.Widen(f, *pipPlanes); err != nil {
						return fmt.Errorf("-pip-from %s: %w", *pipFrom, err)
					}
				}
			}
			pipCNNs = make([]*cnn.Net, *pipCNNMembers)
			for k := range pipCNNs {
				// written together below, as one file; member 0 keeps the
				// single network's seed
				jobs = append(jobs, &job{cost: 1, run: func() (model, error) {
					var f *cnn.Net
					if from != nil {
						f = from[k]
					}
					n, err := trainCNNFrom(fmt.Sprintf("pip cnn %d", k+1), pipS, cnn.Arch{InC: *pipPlanes, Side: *pipSide, Convs: convs, Hidden: *pipCNNHidden, Classes: 6}, f, pipPrep(*pipShift, *pipNoise), *epochs, *lr, *seed+1+100*uint64(k), *pipDropout, start)
					pipCNNs[k] = n
					return n, err
				}})
			}
		} else {
			if *pipCNNMembers != 1 {
				return fmt.Errorf("-pip-cnn-members %d: give -pip-convs for CNNs", *pipCNNMembers)
			}
			jobs = append(jobs, &job{out: output{path: *outPips}, run: func() (model, error) {
				n, err := mlp.New([]int{vision.PipInputs, *pipHidden, *pipHidden / 2, 6}, *seed+1)
				if err != nil {
					return nil, err
				}
				pipPredict = mlpPredictor(n)
				return n, n.Train(pipS, mlp.TrainOptions{Epochs: *epochs, Batch: 32, LR: *lr, Decay: 1e-4, Seed: *seed + 1, Augment: vision.AugmentPips, Epoch: report("pips")})
			}})
		}
	}
	var cellS []mlp.Sample
	if trainSet["height"] || trainSet["height-cnn"] {
		for _, c := range train {
			k := c.HeightClass()
			if k < 0 {
				continue
			}
			if nadirInput {
				if c.Nadir != nil {
					cellS = append(cellS, mlp.Sample{X: c.Nadir, Class: k})
				}
				continue
			}
			x := make([]float32, 0, vision.CellInputs)
			for h := 0; h < vision.MaxStack; h++ {
				x = append(x, c.Top[h]...)
			}
			cellS = append(cellS, mlp.Sample{X: x, Class: k})
		}
	}
	if trainSet["height"] && *outHeight != "" {
		height = make([]*mlp.Net, *heightMembers)
		for k := 0; k < *heightMembers; k++ {
			jobs = append(jobs, &job{out: output{path: vision.HeightMemberPath(*outHeight, k)}, cost: 2, run: func() (model, error) {
				hs := *seed + 2 + 100*uint64(k) // member 0 keeps the single network's seed
				n, err := mlp.New([]int{vision.CellInputs, *heightHidden, vision.HeightClasses}, hs)
				if err != nil {
					return nil, err
				}
				height[k] = n
				return n, n.Train(cellS, mlp.TrainOptions{Epochs: *epochs, Batch: 32, LR: *lr, Decay: 1e-4, Seed: hs, Augment: vision.AugmentCell, Epoch: report(fmt.Sprintf("height %d", k+1))})
			}})
		}
		// a longer ensemble written before must not be taken for this one
		for k := *heightMembers; ; k++ {
			if err := os.Remove(vision.HeightMemberPath(*outHeight, k)); err != nil {
				break
			}
		}
	}
	if trainSet["height-cnn"] {
		convs, err := parseConvs(*heightConvs)
		if err != nil {
			return err
		}
		arch := cnn.Arch{InC: vision.HeightCNNChannels, Side: heightSide, Convs: convs, Hidden: *heightCNNHidden, Classes: vision.HeightClasses}
		prep := heightCNNPrep()
		if nadirInput {
			prep = nadirPrep(heightSide)
		}
		if *heightCNNMembers < 1 || *heightCNNMembers > cnn.MaxMembers {
			return fmt.Errorf("-height-cnn-members %d: want 1..%d", *heightCNNMembers, cnn.MaxMembers)
		}
		from, err := readFrom("-height-from", *heightFrom, *heightCNNMembers, heightSide)
		if err != nil {
			return err
		}
		heightCNNs = make([]*cnn.Net, *heightCNNMembers)
		for k := range heightCNNs {
			// written together below, as one file
			jobs = append(jobs, &job{cost: 3, run: func() (model, error) {
				var f *cnn.Net
				if from != nil {
					f = from[k]
				}
				n, err := trainCNNFrom(fmt.Sprintf("height cnn %d", k+1), cellS, arch, f, prep, *epochs, *lr, *seed+3+100*uint64(k), 0, start)
				heightCNNs[k] = n
				return n, err
			}})
		}
	}
	if trainSet["material-cnn"] {
		convs, err := parseConvs(*materialConvs)
		if err != nil {
			return err
		}
		var matS []mlp.Sample
		for _, c := range train {
			if c.Height > 0 && c.Hand == 0 && c.Hidden < vision.HiddenByDice {
				matS = append(matS, mlp.Sample{X: c.Top[c.Height-1], Class: strings.IndexByte("WRSG", c.Material)})
			}
		}
		arch := cnn.Arch{InC: 3, Side: vision.FaceSide, Convs: convs, Hidden: *materialCNNHidden, Classes: 4}
		from, err := readFrom("-material-from", *materialFrom, 1, 0)
		if err != nil {
			return err
		}
		jobs = append(jobs, &job{out: output{path: *outMaterialCNN}, run: func() (model, error) {
			var f *cnn.Net
			if from != nil {
				f = from[0]
			}
			n, err := trainCNNFrom("material cnn", matS, arch, f, materialCNNPrep(), *epochs, *lr, *seed+4, 0, start)
			materialCNN = n
			return n, err
		}})
	}
	if trainSet["glass-levels"] {
		convs, err := parseConvs(*glassLevelsConvs)
		if err != nil {
			return err
		}
		if *glassLevelsMembers < 1 || *glassLevelsMembers > cnn.MaxMembers {
			return fmt.Errorf("-glass-levels-members %d: want 1..%d", *glassLevelsMembers, cnn.MaxMembers)
		}
		glassS := glassLevelSamples(train)
		arch := cnn.Arch{InC: 3 * *pipPlanes, Side: *pipSide, Convs: convs, Hidden: *glassLevelsHidden, Classes: vision.GlassLevelsClasses}
		glassNets = make([]*cnn.Net, *glassLevelsMembers)
		for k := range glassNets {
			// written together below, as one file; member 0 keeps the
			// single network's seed
			jobs = append(jobs, &job{cost: 3, run: func() (model, error) {
				n, err := trainCNNFrom(fmt.Sprintf("glass levels %d", k+1), glassS, arch, nil, prepPips, *epochs, *lr, *seed+5+100*uint64(k), 0, start)
				glassNets[k] = n
				return n, err
			}})
		}
	}
	// The longest first (the CNNs of whole cells, then the MLPs of whole
	// cells), so that the short ones fill in beside it.
	order := make([]int, len(jobs))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return jobs[order[a]].cost > jobs[order[b]].cost })
	errs := make([]error, len(jobs))
	sem := make(chan struct{}, max(1, *parallel))
	var wg sync.WaitGroup
	for _, i := range order {
		j := jobs[i]
		sem <- struct{}{} // jobs start in this order
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			j.out.n, errs[i] = j.run()
		}()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return err
	}
	var outs []output
	for _, j := range jobs {
		if j.out.path != "" {
			outs = append(outs, j.out)
		}
	}
	if trainSet["height-cnn"] {
		outs = append(outs, output{*outHeightCNN, cnnEnsemble(heightCNNs)})
	}
	if glassNets != nil {
		outs = append(outs, output{*outGlassLevels, cnnEnsemble(glassNets)})
		reportGlassLevels(cnnMeanPredictor(glassNets), glassLevelSamples(test))
	}
	if pipCNNs != nil {
		outs = append(outs, output{*outPips, cnnEnsemble(pipCNNs)})
		pipPredict = cnnMeanPredictor(pipCNNs)
	}
	var heightPreds []predictor
	for _, n := range height {
		heightPreds = append(heightPreds, mlpPredictor(n))
	}
	for _, n := range heightCNNs {
		if nadirInput {
			heightPreds = append(heightPreds, cnnPredictor(n))
		} else {
			heightPreds = append(heightPreds, heightCNNPredictor(n))
		}
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
	if len(outs) > 0 {
		fmt.Printf("trained in %s; wrote", time.Since(start).Round(time.Second))
		for _, w := range outs {
			fmt.Printf(" %s", w.path)
		}
		fmt.Println()
	}
	for _, set := range []struct {
		name  string
		cells []vision.CellSample
	}{{"training", trainFound}, {"validation", test}} {
		fmt.Printf("%s: %s\n", set.name, measure(top, pipPredict, nil, nil, set.cells))
		if len(heightPreds) > 0 {
			fmt.Printf("%s, heights from the cell networks (%d): %s\n", set.name, len(heightPreds), measure(top, pipPredict, meanPredictor(heightPreds, vision.HeightClasses), nil, set.cells))
		}
		if materialCNN != nil && len(heightPreds) > 0 {
			fmt.Printf("%s, heights from the cell networks, material also from the material CNN: %s\n", set.name, measure(top, pipPredict, meanPredictor(heightPreds, vision.HeightClasses), materialCNNPredictor(materialCNN), set.cells))
		}
		if len(heightCNNs) > 0 && len(heightPreds) > len(heightCNNs) {
			var cnns []predictor
			for _, n := range heightCNNs {
				cnns = append(cnns, heightCNNPredictor(n))
			}
			fmt.Printf("%s, heights from the CNNs alone: %s\n", set.name, measure(top, pipPredict, meanPredictor(cnns, vision.HeightClasses), nil, set.cells))
		}
	}
	return nil
}

// isValidation says whether the truth file f is kept out of training and
// measured: a share val of the stills, by a hash of splitKey(f). Frames of
// a sequence are near copies of each other: they only train, so that the
// validation images are independent scenes.
func isValidation(f string, val float64) bool {
	h := fnv.New32a()
	h.Write([]byte(splitKey(f)))
	return !strings.Contains(filepath.ToSlash(f), "/sequences/") && float64(h.Sum32()%1000)/1000 < val
}

// asFound is cells without the copies read at jittered poses (what the
// training cells are measured on).
func asFound(cells []vision.CellSample) []vision.CellSample {
	var out []vision.CellSample
	for _, c := range cells {
		if !c.Jittered {
			out = append(out, c)
		}
	}
	return out
}

// showMisreads makes measure list the stacks whose height it misreads.
var showMisreads bool

// nadirInput says the height CNNs read a cell's CellSample.Nadir planes
// (-nadir-side), not its level inputs.
var nadirInput bool

// measure reads the cells as the detector does and tallies what is right.
func measure(top *mlp.Net, pips, height, material predictor, cells []vision.CellSample) string {
	mp := make([]float32, 4)
	ts := top.NewScratch()
	cellX := make([]float32, vision.CellInputs)
	hp := make([]float32, vision.HeightClasses)
	pp := make([]float32, 6)
	var occ, nocc, n, hOK, mOK, pOK, all, covered, flagged, clearCells, falseFlag int
	var mGivenH, pGivenH int
	var pipTrue int // pips right when read at the true height
	// per top material (W, R, S, G): stacks, whole stack right, pips right
	// at the true height
	var perN, perAll, perPip [4]int
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
			if nadirInput {
				if c.Nadir == nil {
					continue // a face sliding too far: not read by nadir CNNs
				}
				height(c.Nadir, hp)
			} else {
				height(cellX, hp)
			}
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
		case c.Hand > 0, c.Height > 0 && c.Hidden >= vision.HiddenByDice:
			continue
		case c.Hidden >= vision.HiddenByDice && isFlagged:
			continue // an empty cell other dice hide: "cannot see" is right
		}
		clearCells++
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
		if !okH && showMisreads {
			fmt.Fprintf(os.Stderr, "height misread: %s seat %d r%dc%d: %d high, top %c%d, read %d high\n", c.Image, c.Seat, c.Row+1, c.Col+1, c.Height, c.Material, c.PipsTop, bestH)
		}
		if bestH > 0 && material != nil {
			material(c.Top[bestH-1], mp)
			dec.Material = vision.MaterialMean(&probs[bestH-1], mp)
		}
		okM := bestH > 0 && dec.Material == c.Material
		okP := false
		if bestH > 0 {
			pips(c.Pips[bestH-1], pp)
			pi := 0
			for k := 1; k < 6; k++ {
				if pp[k] > pp[pi] {
					pi = k
				}
			}
			okP = pi+1 == c.PipsTop
		}
		pips(c.Pips[c.Height-1], pp)
		pt := 0
		for k := 1; k < 6; k++ {
			if pp[k] > pp[pt] {
				pt = k
			}
		}
		mi := max(strings.IndexByte("WRSG", c.Material), 0)
		perN[mi]++
		for _, t := range []struct {
			ok bool
			c  *int
		}{{okH, &hOK}, {okM, &mOK}, {okP, &pOK}, {okH && okM && okP, &all}, {okH && okM, &mGivenH}, {okH && okP, &pGivenH}, {pt+1 == c.PipsTop, &pipTrue},
			{okH && okM && okP, &perAll[mi]}, {pt+1 == c.PipsTop, &perPip[mi]}} {
			if t.ok {
				*t.c++
			}
		}
	}
	pct := func(a, b int) float64 { return 100 * float64(a) / float64(max(b, 1)) }
	var per strings.Builder
	for i, m := range "WRSG" {
		fmt.Fprintf(&per, " %c %.1f/%.1f", m, pct(perAll[i], perN[i]), pct(perPip[i], perN[i]))
	}
	return fmt.Sprintf("empty/occupied %.1f%% of %d cells; of %d stacks: height %.1f%%, material %.1f%%, pips %.1f%%, whole %.1f%%; where the height is right: material %.1f%%, pips %.1f%%; pips at the true height %.1f%%; by top material, whole/pips at the true height:%s; covered cells flagged %.1f%% of %d, clear cells flagged %.2f%% of %d",
		pct(occ, nocc), nocc, n, pct(hOK, n), pct(mOK, n), pct(pOK, n), pct(all, n), pct(mGivenH, hOK), pct(pGivenH, hOK), pct(pipTrue, n), per.String(), pct(flagged, covered), covered, pct(falseFlag, clearCells), clearCells)
}

// splitKey is what decides whether an image validates: vision.TrainingKey,
// its path as seen from the working directory. (The split hashed the path
// as given until 2026-11-24: a run given the absolute path measured the
// committed networks on images they had learned from.)
func splitKey(path string) string { return vision.TrainingKey(path) }
