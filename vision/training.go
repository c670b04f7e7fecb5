package vision

import (
	"encoding/json"
	"fmt"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"

	"github.com/blueprints-companion/blueprints/vision/cardmodel"
	"github.com/blueprints-companion/blueprints/vision/internal/cnn"
	"github.com/blueprints-companion/blueprints/vision/internal/mlp"
)

// CellSample is one cell of a rendered image as the learned reader sees
// it, with the truth: for every height 1..MaxStack the top network's input
// (Top[h-1]) and the pip network's input (Pips[h-1]). Height 0 is an empty
// cell. It is what vision/celltrain trains on.
type CellSample struct {
	Image           string
	Seat, Row, Col  int
	Height, PipsTop int
	Material        byte
	// Hand is the share of the cell's top a hand hides (0..1); Hidden the
	// share other dice hide.
	Hand, Hidden float64
	Top          [MaxStack][]float32
	Pips         [MaxStack][]float32
	// Nadir is the cell's face patches for a nadir height CNN of a finer
	// side (SetNadirTraining; nil if not asked or the face slides too far).
	Nadir []float32
	// Jittered is set on a copy read at a pose jittered around the one
	// found (SetTrainingJitter).
	Jittered bool
}

// Slide is how far the cell's top face slides in the image per die of
// height, in face sizes, from its level inputs (at the nadir, 0).
func (c CellSample) Slide() float64 { return topSlide(c.Top[0]) }

// topSlide is how far a face slides per die, in face sizes, from one
// level's top-network input x (0 if x is not one).
func topSlide(x []float32) float64 {
	if len(x) < TopInputs {
		return 0
	}
	o := faceLen + ctxLen + MaxStack + 1
	return math.Hypot(float64(x[o]), float64(x[o+1]))
}

// SetTrainingJitter makes TrainingCells return, beside each cell, copies
// read at poses jittered around the card's found one (jitterPose), so the
// networks learn to read cells whose card is found a little off; the
// jitter depends only on seed and the truth file's TrainingKey (the
// renders of different seeds share file names). 0 copies: none.
//
// pipTurnDeg > 0 also turns each pip patch about its cell's centre by up
// to that many degrees either way (uniformly, a new turn for every patch),
// so the pip network learns dice a hand left turned on their cells (the
// renders turn them by at most 5 degrees; bprender --max-yaw more).
func (d *Detector) SetTrainingJitter(copies int, pipTurnDeg float64, seed uint64) {
	d.jitterCopies, d.jitterSeed, d.pipTurnDeg = copies, seed, pipTurnDeg
	d.jitterSrc, d.jitterRng = nil, nil
	if copies > 0 || pipTurnDeg > 0 {
		d.jitterSrc = rand.NewPCG(seed, seed)
		d.jitterRng = rand.New(d.jitterSrc)
	}
}

// TrainingKey names a training file the same however its path is spelt:
// its path as seen from the working directory (as `make cell-model`, run
// from the repository's root, names it), so that
// "/abs/repo/build/synth-train/..." and "build/synth-train/..." are one
// key. vision/celltrain splits training from validation by it, and the
// training jitter is seeded by it. (Run from another folder, the keys
// differ: run celltrain from the repository's root.)
func TrainingKey(path string) string {
	abs, err := filepath.Abs(path)
	if err != nil {
		return filepath.ToSlash(path)
	}
	wd, err := os.Getwd()
	if err != nil {
		return filepath.ToSlash(path)
	}
	rel, err := filepath.Rel(wd, abs)
	if err != nil {
		return filepath.ToSlash(path)
	}
	return filepath.ToSlash(rel)
}

// The most a training jitter moves a card along each of its axes (mm)
// and turns it about its centre (degrees).
const jitterShiftMM, jitterTurnDeg = 1.5, 1.0

// jitterPose is p moved by up to jitterShiftMM along each axis and turned
// by up to jitterTurnDeg about the card's centre, uniformly.
func jitterPose(m cardmodel.Model, p cardPose, rng *rand.Rand) cardPose {
	du := (2*rng.Float64() - 1) * jitterShiftMM
	dv := (2*rng.Float64() - 1) * jitterShiftMM
	a := (2*rng.Float64() - 1) * jitterTurnDeg * math.Pi / 180
	c := p.at(m.CardWidth/2, m.CardHeight/2, p.origin.Z)
	cos, sin := math.Cos(a), math.Sin(a)
	q := cardPose{u: p.u.Scale(cos).Add(p.v.Scale(sin)), v: p.v.Scale(cos).Add(p.u.Scale(-sin))}
	c = c.Add(p.u.Scale(du)).Add(p.v.Scale(dv))
	q.origin = c.Add(q.u.Scale(-m.CardWidth / 2)).Add(q.v.Scale(-m.CardHeight / 2))
	q.origin.Z = p.origin.Z
	return q
}

// TrainingCells detects the image of a renderer truth file and returns
// every cell of every card it found, matched to the truth by corners.
func (d *Detector) TrainingCells(truthPath string) ([]CellSample, error) {
	data, err := os.ReadFile(truthPath)
	if err != nil {
		return nil, err
	}
	var truth truthFile
	if err := json.Unmarshal(data, &truth); err != nil || truth.Image == "" {
		return nil, fmt.Errorf("%s: not a renderer truth file", truthPath)
	}
	cam, err := ParseTruthCamera(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", truthPath, err)
	}
	d.keepFeatures = true
	defer func() { d.keepFeatures = false }()
	if d.jitterSrc != nil {
		// an image jitters the same way whatever was read before it
		h := fnv.New64a()
		h.Write([]byte(TrainingKey(truthPath)))
		d.jitterSrc.Seed(h.Sum64(), d.jitterSeed)
	}
	res, err := d.DetectFile(filepath.Join(filepath.Dir(truthPath), truth.Image), cam)
	if err != nil {
		return nil, err
	}
	var out []CellSample
	used := make([]bool, len(res.Cards))
	for i, c := range res.Cards {
		used[i] = c.feats == nil // nothing to learn from
	}
	for _, tc := range truth.Cards {
		best, bestErr := nearestCard(res.Cards, used, tc.CornersPx)
		if best < 0 || bestErr >= 60 {
			continue
		}
		used[best] = true
		f := res.Cards[best].feats
		hand, hidden := map[[2]int]float64{}, map[[2]int]float64{}
		for _, tcell := range tc.Cells {
			hand[[2]int{tcell.Row, tcell.Col}] = tcell.Hand
			hidden[[2]int{tcell.Row, tcell.Col}] = tcell.Dice
		}
		for _, o := range tc.Occluded {
			hand[o] = max(hand[o], 1e-6)
		}
		for r := 0; r < 3 && r < len(tc.Building); r++ {
			for col := 0; col < 2 && col < len(tc.Building[r]); col++ {
				dice := strings.Fields(tc.Building[r][col])
				s := CellSample{Image: truth.Image, Seat: tc.Seat, Row: r, Col: col, Height: len(dice), Hand: hand[[2]int{r, col}], Hidden: hidden[[2]int{r, col}], Top: f.top[r][col], Pips: f.pips[r][col], Nadir: f.nadir[r][col]}
				if len(dice) > 0 {
					top := dice[len(dice)-1]
					if len(top) != 2 || !strings.ContainsRune(topMaterials, rune(top[0])) || top[1] < '1' || top[1] > '6' {
						return nil, fmt.Errorf("%s: seat %d: bad die %q", truthPath, tc.Seat, top)
					}
					s.Material, s.PipsTop = top[0], int(top[1]-'0')
				}
				if s.Height > MaxStack {
					return nil, fmt.Errorf("%s: seat %d: a stack of %d", truthPath, tc.Seat, s.Height)
				}
				out = append(out, s)
				for _, jf := range res.Cards[best].jittered {
					js := s
					js.Top, js.Pips, js.Nadir, js.Jittered = jf.top[r][col], jf.pips[r][col], jf.nadir[r][col], true
					out = append(out, js)
				}
			}
		}
	}
	return out, nil
}

// HiddenByDice is the share of a cell's top that other dice must hide (a
// taller neighbour seen from the side, in the renderer's truth) for the
// cell to count as hidden: the bench leaves such stacks out like covered
// cells, and the networks do not learn from them (their image shows the
// neighbour, not the stack).
const HiddenByDice = 0.5

// HandCovered is the share of a cell's top a hand must hide for the cell
// to count as covered: the top network learns to flag such cells, and the
// bench counts whether it does.
const HandCovered = 0.3

// TopClass is the top network's class for a sample at height h: 0 where
// no top face lies, 1 + the material's index where one does, HandClass
// where a hand covers the cell; -1 where a hand hides a little of it (too
// little to call covered, too much to learn from) or other dice hide its
// stack. (An empty cell other dice hide is learnt as empty: the image shows
// the neighbour's die there, and that must not read as a stack.)
func (s *CellSample) TopClass(h int) int {
	switch {
	case s.Height > 0 && s.Hidden >= HiddenByDice:
		return -1
	case s.Hand >= HandCovered:
		return HandClass
	case s.Hand > 0:
		return -1
	}
	if h != s.Height || s.Height == 0 {
		return 0
	}
	return 1 + strings.IndexByte(topMaterials, s.Material)
}

// UseNetworkFiles makes the detector read cells with the networks in two
// model files (vision/celltrain writes them), instead of its built-in ones.
// The pip network's file may hold an MLP or a CNN. Networks beside them are
// read too where they are: height.mlp (and height2.mlp...), height.cnn,
// height_nadir.cnn (heights of cells under the camera), height_fine.cnn
// (the plain cells' heights where the height CNNs are unsure), material.cnn,
// pips_glass.cnn (pips of tops read as glass), pips_nadir.cnn (pips of
// stacks under the camera) and glass_levels.cnn (clear glass tops' heights
// and pips together).
func (d *Detector) UseNetworkFiles(topPath, pipsPath string) error {
	top, err := mlp.ReadFile(topPath)
	if err != nil {
		return err
	}
	data, err := os.ReadFile(pipsPath)
	if err != nil {
		return err
	}
	pips, err := decodePipNet(data)
	if err != nil {
		return fmt.Errorf("%s: %w", pipsPath, err)
	}
	if err := d.useNetworks(top, pips); err != nil {
		return err
	}
	// height networks beside them (height.mlp, height2.mlp, ..., and
	// height.cnn) are used if there are any
	heights, err := LoadHeightMLPs(filepath.Join(filepath.Dir(topPath), "height.mlp"))
	if err != nil {
		return err
	}
	var mc *cnn.Net
	mcPath := filepath.Join(filepath.Dir(topPath), "material.cnn")
	if data, err := os.ReadFile(mcPath); err == nil {
		if mc, err = cnn.Unmarshal(data); err != nil {
			return fmt.Errorf("%s: %w", mcPath, err)
		}
	}
	if err := d.useMaterialCNN(mc); err != nil {
		return err
	}
	// pip networks for some stacks, beside the others, where there are any
	for _, sp := range []struct {
		name string
		use  func(pipNet) error
	}{{"pips_glass.cnn", d.useGlassPips}, {"pips_nadir.cnn", d.useNadirPips}} {
		var p pipNet
		path := filepath.Join(filepath.Dir(topPath), sp.name)
		if data, err := os.ReadFile(path); err == nil {
			if p, err = decodePipNet(data); err != nil {
				return fmt.Errorf("%s: %w", path, err)
			}
		}
		if err := sp.use(p); err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
	}
	dir := filepath.Dir(topPath)
	hcs, _, err := optionalCNNs(dir, "height.cnn", cnn.UnmarshalAll)
	if err != nil {
		return err
	}
	if len(heights) > 0 || len(hcs) > 0 {
		if err := d.useHeightNetworks(heights, hcs); err != nil {
			return err
		}
	} else {
		d.height, d.heightCNN = nil, nil
	}
	// networks for some cells or tops, where there are any (the nadir and
	// fine height CNNs of one face side or several)
	for _, sn := range []struct {
		name   string
		decode func([]byte) ([]*cnn.Net, error)
		use    func([]*cnn.Net) error
	}{
		{"height_nadir.cnn", cnn.UnmarshalMixed, d.useNadirHeights},
		{"height_fine.cnn", cnn.UnmarshalMixed, d.useFineHeights},
		{"glass_levels.cnn", cnn.UnmarshalAll, d.useGlassLevels},
	} {
		nets, path, err := optionalCNNs(dir, sn.name, sn.decode)
		if err != nil {
			return err
		}
		if err := sn.use(nets); err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
	}
	return nil
}

// optionalCNNs reads the CNN file name in dir with decode, if there is one
// (none: no networks, no error), and says its path.
func optionalCNNs(dir, name string, decode func([]byte) ([]*cnn.Net, error)) ([]*cnn.Net, string, error) {
	path := filepath.Join(dir, name)
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, path, nil
	}
	nets, err := decode(data)
	if err != nil {
		return nil, path, fmt.Errorf("%s: %w", path, err)
	}
	return nets, path, nil
}

// HeightClass is the height network's class for the sample: 0 empty, the
// height, HeightHand where a hand covers it; -1 where a hand hides a
// little or other dice hide its stack.
func (s *CellSample) HeightClass() int {
	switch {
	case s.Height > 0 && s.Hidden >= HiddenByDice:
		return -1
	case s.Hand >= HandCovered:
		return HeightHand
	case s.Hand > 0:
		return -1
	}
	return s.Height
}

// LoadHeightMLPs reads the height MLPs of an ensemble whose first file is
// base (height.mlp, height2.mlp, ...: see HeightMemberPath), up to the first
// missing one; none is no error.
func LoadHeightMLPs(base string) ([]*mlp.Net, error) {
	var nets []*mlp.Net
	for k := 0; ; k++ {
		p := HeightMemberPath(base, k)
		if _, err := os.Stat(p); err != nil {
			return nets, nil
		}
		n, err := mlp.ReadFile(p)
		if err != nil {
			return nil, err
		}
		nets = append(nets, n)
	}
}
