package synth

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"image"
	"image/draw"
	"io"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// CorpusOptions describe a seeded corpus of stills and round sequences.
type CorpusOptions struct {
	Dir     string
	Seed    uint64
	Stills  int
	Players []int // one round sequence per entry
	Options Options
	Render  RenderOptions
	// TruthOnly rewrites every truth file without rendering.
	TruthOnly bool
	// Only limits rendering to names starting with it ("stills/",
	// "sequences/"; "" renders all). The manifest always covers all.
	Only string
	// Progress receives the progress bar (nil: none).
	Progress io.Writer
	// Width, if not 0, renders every still this wide (1280 or 1920, at
	// 16:9) instead of one in ten at 1920 and the rest at 1280: the same
	// scenes, seen by a camera of another resolution.
	Width int
}

// CorpusItem is one image of the corpus.
type CorpusItem struct {
	Name  string // path relative to the corpus directory, without extension
	Scene *Scene
	Seq   *TruthSequence
}

// Manifest summarises a corpus (manifest.json).
type Manifest struct {
	Format string `json:"format"`
	Seed   uint64 `json:"seed"`
	// GlassTops, Mistakes, MaxYaw and NadirOnCards are the generator's
	// options of those names the corpus was made with (absent: 0, and for
	// MaxYaw the default 5 degrees).
	GlassTops    float64        `json:"glass_tops,omitempty"`
	Mistakes     float64        `json:"mistakes,omitempty"`
	MaxYaw       float64        `json:"max_yaw,omitempty"`
	NadirOnCards float64        `json:"nadir_on_cards,omitempty"`
	Stills       int            `json:"stills"`
	Sequences    []ManifestSeq  `json:"sequences"`
	Images       int            `json:"images"`
	Bytes        int64          `json:"bytes"`
	Counts       ManifestCounts `json:"counts"`
}

// ManifestSeq is one round sequence.
type ManifestSeq struct {
	Name    string `json:"name"`
	Players int    `json:"players"`
	Frames  int    `json:"frames"`
}

// ManifestCounts is the spread of the stills over the variations.
type ManifestCounts struct {
	Materials   map[string]int `json:"materials"`   // all dice on cards
	TopPips     map[string]int `json:"top_pips"`    // top die of each stack
	Pips        map[string]int `json:"pips"`        // all dice on cards
	Heights     map[string]int `json:"heights"`     // stacks by height
	Players     map[string]int `json:"players"`     // stills by card count
	Tables      map[string]int `json:"tables"`      // stills by table
	Resolutions map[string]int `json:"resolutions"` // stills by size
	Lights      map[string]int `json:"lights"`      // stills by area light count
	WithHand    int            `json:"with_hand"`   // stills
	WithScreen  int            `json:"with_screen"` // stills
	WithGlare   int            `json:"with_glare"`  // stills
	OffCardDice int            `json:"offer_dice"`  // loose dice in stills
	Occluded    int            `json:"occluded_cells"`
}

// CheckCorpusWidth says what is wrong with w as CorpusOptions.Width, if
// anything.
func CheckCorpusWidth(w int) error {
	if w != 0 && (w < 640 || w > 3840 || w%16 != 0) {
		return fmt.Errorf("%d: want 0 or a multiple of 16 from 640 to 3840", w)
	}
	return nil
}

// CorpusItems lists the corpus deterministically from its seed: the same
// options give the same scenes on every machine.
func CorpusItems(co CorpusOptions) ([]CorpusItem, error) {
	if err := CheckCorpusWidth(co.Width); err != nil {
		return nil, fmt.Errorf("synth: corpus width %w", err)
	}
	var items []CorpusItem
	bal := NewBalance()
	for i := 0; i < co.Stills; i++ {
		opt := co.Options
		opt.Balance = bal
		opt.Players = 1 + i%4
		if i%10 == 3 {
			opt.Width, opt.Height = 1920, 1080
		} else {
			opt.Width, opt.Height = 1280, 720
		}
		if co.Width != 0 {
			opt.Width, opt.Height = co.Width, co.Width*9/16
		}
		var sc *Scene
		var err error
		for k := uint64(0); k < 20; k++ {
			sc, err = Generate(co.Seed*1_000_000+uint64(i)+k*100_000, opt)
			if !errors.Is(err, ErrGenerate) {
				break
			}
		}
		if err != nil {
			return nil, fmt.Errorf("synth: corpus still %d: %w", i, err)
		}
		items = append(items, CorpusItem{Name: fmt.Sprintf("stills/still_%04d", i), Scene: sc})
	}
	for k, players := range co.Players {
		name := fmt.Sprintf("round%d_p%d", k+1, players)
		opt := co.Options
		opt.Width, opt.Height = 1280, 720
		var frames []Frame
		var err error
		for try := uint64(0); try < 20; try++ {
			frames, err = GenerateRound(co.Seed*1_000_000+900_000+uint64(k)*1000+try*10_000, opt, players, name)
			if !errors.Is(err, ErrGenerate) {
				break
			}
		}
		if err != nil {
			return nil, fmt.Errorf("synth: corpus sequence %s: %w", name, err)
		}
		for _, f := range frames {
			seq := f.Seq
			items = append(items, CorpusItem{Name: fmt.Sprintf("sequences/%s/frame_%03d", name, f.Seq.Frame), Scene: f.Scene, Seq: &seq})
		}
	}
	return items, nil
}

// RenderCorpus renders every corpus image that is not there yet (an image
// counts as there when its truth file exists: it is written last), so an
// interrupted run resumes where it stopped. It writes manifest.json.
func RenderCorpus(ctx context.Context, co CorpusOptions) (*Manifest, error) {
	items, err := CorpusItems(co)
	if err != nil {
		return nil, err
	}
	todo := items[:0:0]
	for _, it := range items {
		if !strings.HasPrefix(it.Name, co.Only) {
			continue
		}
		if co.TruthOnly || !exists(filepath.Join(co.Dir, it.Name+".json")) || !exists(filepath.Join(co.Dir, it.Name+".jpg")) {
			todo = append(todo, it)
		}
	}
	bar := NewProgress(co.Progress, len(todo), "render")
	if co.TruthOnly {
		bar = NewProgress(co.Progress, len(todo), "truth")
	}
	for _, it := range todo {
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("synth: corpus stopped: %w", err)
		}
		if err := os.MkdirAll(filepath.Dir(filepath.Join(co.Dir, it.Name)), 0o755); err != nil {
			return nil, fmt.Errorf("synth: %w", err)
		}
		start := time.Now()
		if !co.TruthOnly {
			img, err := Render(ctx, it.Scene, co.Render)
			if err != nil {
				return nil, fmt.Errorf("synth: corpus %s: %w", it.Name, err)
			}
			if err := WriteJPEG(filepath.Join(co.Dir, it.Name+".jpg"), img, it.Scene.Post.JPEGQuality); err != nil {
				return nil, err
			}
		}
		if err := writeItemTruth(co.Dir, it); err != nil {
			return nil, err
		}
		bar.Step(1, fmt.Sprintf("%s %.1fs", filepath.Base(it.Name), time.Since(start).Seconds()))
	}
	man, err := BuildManifest(co, items)
	if err != nil {
		return nil, err
	}
	b, _ := json.MarshalIndent(man, "", " ")
	if err := writeAtomic(filepath.Join(co.Dir, "manifest.json"), append(b, '\n')); err != nil {
		return nil, err
	}
	return man, nil
}

func writeItemTruth(dir string, it CorpusItem) error {
	t := TruthOf(it.Scene, filepath.Base(it.Name)+".jpg")
	t.Sequence = it.Seq
	return WriteTruth(filepath.Join(dir, it.Name+".json"), t)
}

func exists(p string) bool { _, err := os.Stat(p); return err == nil }

// BuildManifest counts the corpus.
func BuildManifest(co CorpusOptions, items []CorpusItem) (*Manifest, error) {
	cnt := ManifestCounts{
		Materials: map[string]int{}, TopPips: map[string]int{}, Pips: map[string]int{}, Heights: map[string]int{},
		Players: map[string]int{}, Tables: map[string]int{}, Resolutions: map[string]int{}, Lights: map[string]int{},
	}
	man := &Manifest{Format: "blueprints-synth-corpus/1", Seed: co.Seed, GlassTops: co.Options.GlassTops, Mistakes: co.Options.Mistakes, MaxYaw: co.Options.MaxYaw, NadirOnCards: co.Options.NadirOnCards}
	seqs := map[string]*ManifestSeq{}
	for _, it := range items {
		man.Images++
		for _, ext := range []string{".jpg", ".json"} {
			if st, err := os.Stat(filepath.Join(co.Dir, it.Name+ext)); err == nil {
				man.Bytes += st.Size()
			}
		}
		if it.Seq != nil {
			s, ok := seqs[it.Seq.Name]
			if !ok {
				s = &ManifestSeq{Name: it.Seq.Name, Players: it.Seq.Players}
				seqs[it.Seq.Name] = s
			}
			s.Frames++
			continue
		}
		man.Stills++
		sc := it.Scene
		t := TruthOf(sc, "")
		cnt.Players[fmt.Sprint(len(sc.Cards))]++
		cnt.Tables[sc.Table.Kind]++
		cnt.Resolutions[fmt.Sprintf("%dx%d", sc.Cam.Width, sc.Cam.Height)]++
		area := 0
		for _, l := range sc.Lights {
			if !l.Glare {
				area++
			}
		}
		cnt.Lights[fmt.Sprint(area)]++
		if len(sc.Hands) > 0 {
			cnt.WithHand++
		}
		if len(sc.Screens) > 0 {
			cnt.WithScreen++
		}
		if sc.Glare {
			cnt.WithGlare++
		}
		cnt.OffCardDice += len(sc.Offer)
		for _, c := range t.Cards {
			cnt.Occluded += len(c.Occluded)
		}
		for _, c := range sc.Cards {
			for r := 0; r < 3; r++ {
				for col := 0; col < 2; col++ {
					st := c.Building[r][col]
					if len(st) == 0 {
						continue
					}
					cnt.Heights[fmt.Sprint(len(st))]++
					cnt.TopPips[fmt.Sprint(st[len(st)-1].Pips)]++
					for _, d := range st {
						cnt.Materials[string(rune(d.Mat))]++
						cnt.Pips[fmt.Sprint(d.Pips)]++
					}
				}
			}
		}
	}
	for _, s := range seqs {
		man.Sequences = append(man.Sequences, *s)
	}
	sort.Slice(man.Sequences, func(i, j int) bool { return man.Sequences[i].Name < man.Sequences[j].Name })
	man.Counts = cnt
	return man, nil
}

// ContactSheet lays the images out in a grid of cols columns, each scaled
// to thumbW pixels wide (16:9 cells). With crop, each cell shows instead
// the card with the tallest stack (from the truth file beside the image),
// close enough to see pips, glass and stacks.
func ContactSheet(paths []string, cols, thumbW int, crop bool) (*image.RGBA, error) {
	if cols <= 0 || thumbW <= 0 {
		return nil, fmt.Errorf("synth: contact sheet needs positive columns and width")
	}
	if len(paths) == 0 {
		return nil, fmt.Errorf("synth: contact sheet: no images")
	}
	thumbH := thumbW * 9 / 16
	gap := 2
	rows := (len(paths) + cols - 1) / cols
	sheet := image.NewRGBA(image.Rect(0, 0, cols*(thumbW+gap)+gap, rows*(thumbH+gap)+gap))
	for i := range sheet.Pix {
		sheet.Pix[i] = 24
		if i%4 == 3 {
			sheet.Pix[i] = 255
		}
	}
	for i, p := range paths {
		img, err := decodeFile(p)
		if err != nil {
			return nil, err
		}
		x0 := gap + (i%cols)*(thumbW+gap)
		y0 := gap + (i/cols)*(thumbH+gap)
		if crop {
			tr, err := ReadTruthFile(strings.TrimSuffix(p, filepath.Ext(p)) + ".json")
			if err != nil {
				return nil, err
			}
			img = cropToCard(img, tr, float64(thumbW)/float64(thumbH))
		}
		boxScale(sheet, image.Rect(x0, y0, x0+thumbW, y0+thumbH), img)
	}
	return sheet, nil
}

// cropToCard cuts out the card with the tallest stack, with its stacks,
// at the given aspect ratio.
func cropToCard(img image.Image, tr *Truth, aspect float64) image.Image {
	if len(tr.Cards) == 0 {
		return img
	}
	best, bh := 0, -1
	for i, c := range tr.Cards {
		for _, cell := range c.Cells {
			if cell.Height > bh {
				best, bh = i, cell.Height
			}
		}
	}
	c := tr.Cards[best]
	minX, minY, maxX, maxY := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	add := func(p [2]float64) {
		minX, maxX = math.Min(minX, p[0]), math.Max(maxX, p[0])
		minY, maxY = math.Min(minY, p[1]), math.Max(maxY, p[1])
	}
	for _, p := range c.CornersPx {
		add(p)
	}
	for _, cell := range c.Cells {
		add(cell.TopPx)
	}
	w, h := (maxX-minX)*1.15, (maxY-minY)*1.15
	if w/h < aspect {
		w = h * aspect
	} else {
		h = w / aspect
	}
	cx, cy := (minX+maxX)/2, (minY+maxY)/2
	r := image.Rect(int(cx-w/2), int(cy-h/2), int(cx+w/2), int(cy+h/2))
	b := img.Bounds()
	r = r.Add(image.Pt(max(0, b.Min.X-r.Min.X), max(0, b.Min.Y-r.Min.Y)))
	r = r.Sub(image.Pt(max(0, r.Max.X-b.Max.X), max(0, r.Max.Y-b.Max.Y)))
	r = r.Intersect(b)
	if r.Empty() {
		return img
	}
	sub := image.NewRGBA(image.Rect(0, 0, r.Dx(), r.Dy()))
	draw.Draw(sub, sub.Bounds(), img, r.Min, draw.Src)
	return sub
}
