package dice

import (
	"errors"
	"image"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"gocv.io/x/gocv"

	"github.com/blueprints-companion/blueprints/vision/internal/cnn"
	"github.com/blueprints-companion/blueprints/vision/internal/imgsize"
)

// datasetDir is the real-photo data set, beside the repository clone
// (../shared/datasets/dice-real from the repository root).
var datasetDir = filepath.Join("..", "..", "..", "shared", "datasets", "dice-real")

// minHeldOutAccuracy is just below what the committed model reaches on the
// held-out source photos (fold 0, never trained on; the recipe was tuned
// on fold 1, and each of the last changes of members was decided by one
// look at fold 0 against a rule set before it); see README.md for the
// measured figure. A worse model fails here.
const minHeldOutAccuracy = 0.95

// minClassicAccuracy is the same for the classical baseline.
const minClassicAccuracy = 0.18

var (
	datasetOnce   sync.Once
	datasetPhotos []Photo
	datasetErr    error
)

// heldOut loads the data set, failing (not skipping) when it is missing:
// the accuracy figures are part of what the tests check.
func loadDataset(t testing.TB) []Photo {
	t.Helper()
	datasetOnce.Do(func() {
		if _, err := os.Stat(datasetDir); err != nil {
			datasetErr = err
			return
		}
		datasetPhotos, datasetErr = LoadDataset(datasetDir)
	})
	if datasetErr != nil {
		abs, _ := filepath.Abs(datasetDir)
		t.Fatalf("the dice data set is needed at %s (../shared/datasets/dice-real beside the repository): %v", abs, datasetErr)
	}
	return datasetPhotos
}

func newReader(t testing.TB) *Reader {
	t.Helper()
	r, err := NewReader(Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	return r
}

func TestHeldOutAccuracy(t *testing.T) {
	photos := loadDataset(t)
	r := newReader(t)
	rep, err := Evaluate(photos, []int{HeldOutFold}, func(img *Image, b image.Rectangle) (Reading, error) {
		return r.Read(img.Mat(), b)
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("held-out fold %d, trained model:\n%s", HeldOutFold, rep)
	if rep.Dice < 500 {
		t.Fatalf("only %d held-out dice read; the data set looks incomplete", rep.Dice)
	}
	if rep.Accuracy < minHeldOutAccuracy {
		t.Errorf("held-out accuracy %.2f%%, want at least %.2f%%", 100*rep.Accuracy, 100*minHeldOutAccuracy)
	}
}

func TestClassicBaseline(t *testing.T) {
	photos := loadDataset(t)
	c := NewClassicReader()
	defer c.Close()
	rep, err := Evaluate(photos, []int{HeldOutFold}, func(img *Image, b image.Rectangle) (Reading, error) {
		return c.Read(img.Mat(), b)
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("held-out fold %d, classical baseline:\n%s", HeldOutFold, rep)
	if rep.Accuracy < minClassicAccuracy {
		t.Errorf("baseline accuracy %.2f%%, want at least %.2f%%", 100*rep.Accuracy, 100*minClassicAccuracy)
	}
}

// TestNoSourceInTwoFolds checks the split: the augmented copies of one
// source photo must all be in the same fold, or the held-out figure leaks.
func TestNoSourceInTwoFolds(t *testing.T) {
	photos := loadDataset(t)
	fold := map[string]int{}
	perFold := make([]int, Folds)
	for _, ph := range photos {
		if f, ok := fold[ph.Source]; ok && f != ph.Fold {
			t.Fatalf("source %s is in folds %d and %d", ph.Source, f, ph.Fold)
		}
		fold[ph.Source] = ph.Fold
		perFold[ph.Fold]++
	}
	for f, n := range perFold {
		if n < len(photos)/10 {
			t.Errorf("fold %d has %d of %d photos", f, n, len(photos))
		}
	}
}

func TestReadErrors(t *testing.T) {
	r := newReader(t)
	c := NewClassicReader()
	defer c.Close()
	img := gocv.NewMatWithSize(100, 120, gocv.MatTypeCV8UC3)
	defer img.Close()
	empty := gocv.NewMat()
	defer empty.Close()
	float := gocv.NewMatWithSize(100, 120, gocv.MatTypeCV32F)
	defer float.Close()
	cases := []struct {
		name string
		img  gocv.Mat
		box  image.Rectangle
		want error
	}{
		{"empty image", empty, image.Rect(0, 0, 10, 10), ErrImage},
		{"float image", float, image.Rect(0, 0, 10, 10), ErrImage},
		{"box outside", img, image.Rect(110, 90, 130, 110), ErrBox},
		{"negative box", img, image.Rect(-5, -5, 10, 10), ErrBox},
		{"empty box", img, image.Rect(10, 10, 10, 30), ErrBox},
		{"tiny box", img, image.Rect(10, 10, 12, 30), ErrBox},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := r.Read(tc.img, tc.box); !errors.Is(err, tc.want) {
				t.Errorf("Reader: err %v, want %v", err, tc.want)
			}
			if _, err := c.Read(tc.img, tc.box); !errors.Is(err, tc.want) {
				t.Errorf("ClassicReader: err %v, want %v", err, tc.want)
			}
		})
	}
	// A grey or BGRA image and a box on the image's edge are fine.
	for _, typ := range []gocv.MatType{gocv.MatTypeCV8UC1, gocv.MatTypeCV8UC4} {
		m := gocv.NewMatWithSize(50, 60, typ)
		rd, err := r.Read(m, image.Rect(30, 20, 60, 50))
		m.Close()
		if err != nil || rd.Pips < 1 || rd.Pips > 6 || rd.Confidence <= 0 || rd.Confidence > 1 {
			t.Errorf("type %v: %+v, %v", typ, rd, err)
		}
	}
}

func TestLoadErrors(t *testing.T) {
	dir := t.TempDir()
	notImage := filepath.Join(dir, "x.jpg")
	if err := os.WriteFile(notImage, []byte("not a jpeg"), 0o644); err != nil {
		t.Fatal(err)
	}
	huge := filepath.Join(dir, "huge.png") // OpenCV aborted on it
	if err := os.WriteFile(huge, imgsize.PNGHeader(65535, 65535), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{notImage, filepath.Join(dir, "missing.jpg"), dir, huge} {
		if im, err := LoadImage(p); !errors.Is(err, ErrImage) {
			if im != nil {
				im.Close()
			}
			t.Errorf("LoadImage(%s): err %v, want ErrImage", p, err)
		}
	}
	if _, err := LoadDataset(dir); !errors.Is(err, ErrDataset) {
		t.Errorf("LoadDataset of a folder without images/: %v", err)
	}
	if _, err := NewReader(Options{Model: []byte("junk")}); err == nil {
		t.Error("NewReader accepted a junk model")
	}
}

// BenchmarkRead reads one die (a 90x80 box of a 640x640 photo) with the
// default options: every network of the model, every box placement and
// DefaultPasses passes each.
func BenchmarkRead(b *testing.B) {
	photos := loadDataset(b)
	r := newReader(b)
	img, err := LoadImage(photos[0].Image)
	if err != nil {
		b.Fatal(err)
	}
	defer img.Close()
	box := image.Rect(250, 280, 340, 360)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := r.Read(img.Mat(), box); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkClassic reads the same die with the classical baseline.
func BenchmarkClassic(b *testing.B) {
	photos := loadDataset(b)
	c := NewClassicReader()
	defer c.Close()
	img, err := LoadImage(photos[0].Image)
	if err != nil {
		b.Fatal(err)
	}
	defer img.Close()
	box := image.Rect(250, 280, 340, 360)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := c.Read(img.Mat(), box); err != nil {
			b.Fatal(err)
		}
	}
}

// TestPasses checks the symmetry averaging: one pass is the same whether
// asked for as Passes 1 or NoFlipAverage, the default is DefaultPasses, and
// the passes are the ones Symmetries lists.
func TestPasses(t *testing.T) {
	for k, want := range map[int][]int{0: {0}, 1: {0}, 2: {0, 4}, 3: {0, 4}, 4: {0, 4, 2, 6}, 9: {0, 4, 2, 6, 1, 5, 3, 7}} {
		got := Symmetries(k)
		if len(got) != len(want) {
			t.Fatalf("Symmetries(%d) = %v, want %v", k, got, want)
		}
		for i := range got {
			if got[i] != want[i] {
				t.Fatalf("Symmetries(%d) = %v, want %v", k, got, want)
			}
		}
	}
	read := firstDieReader(t, func(r *Reader, opt Options) {
		if len(r.syms) != len(Symmetries(opt.Passes)) && !opt.NoFlipAverage && opt.Passes != 0 {
			t.Fatalf("%+v: %d passes", opt, len(r.syms))
		}
	})
	one, noFlip := read(Options{Passes: 1}), read(Options{NoFlipAverage: true, Passes: 8})
	if one != noFlip {
		t.Errorf("Passes 1 read %+v, NoFlipAverage %+v", one, noFlip)
	}
	def, two := read(Options{}), read(Options{Passes: DefaultPasses})
	if def != two {
		t.Errorf("default read %+v, Passes %d %+v", def, DefaultPasses, two)
	}
	if DefaultPasses != 1 && def == one {
		t.Errorf("averaging %d passes changed nothing (%+v)", DefaultPasses, def)
	}
	if mirror := read(Options{Passes: 2}); mirror == one {
		t.Errorf("averaging with the mirror image changed nothing (%+v)", one)
	}
}

// TestEnsembleModel checks that a model file of several networks is read as
// the average of its members: an ensemble of one network twice reads as
// that network alone, and a damaged ensemble file is refused.
func TestEnsembleModel(t *testing.T) {
	nets, err := cnn.UnmarshalMixed(defaultModel)
	if err != nil {
		t.Fatal(err)
	}
	first, err := nets[0].MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	twice, err := cnn.MarshalEnsemble([]*cnn.Net{nets[0], nets[0]})
	if err != nil {
		t.Fatal(err)
	}
	img, boxes := photoBoxes(t, 0)
	one, err := NewReader(Options{Model: first})
	if err != nil {
		t.Fatal(err)
	}
	defer one.Close()
	two, err := NewReader(Options{Model: twice})
	if err != nil {
		t.Fatal(err)
	}
	defer two.Close()
	if len(two.ws) != 2 {
		t.Fatalf("ensemble of two read with %d networks", len(two.ws))
	}
	for _, box := range boxes {
		a, err := one.Read(img.Mat(), box)
		if err != nil {
			t.Fatal(err)
		}
		b, err := two.Read(img.Mat(), box)
		if err != nil {
			t.Fatal(err)
		}
		if a.Pips != b.Pips || math.Abs(a.Confidence-b.Confidence) > 1e-6 {
			t.Errorf("box %v: one network %+v, the same twice %+v", box, a, b)
		}
	}
	twice[len(twice)/3] ^= 1
	if _, err := NewReader(Options{Model: twice}); err == nil {
		t.Error("NewReader accepted a damaged ensemble")
	}
}

// TestMixedModel checks a model averaging a grey network and a colour one
// reading a patch of another side: each die's probabilities are the mean
// of the two networks' own.
func TestMixedModel(t *testing.T) {
	grey, err := cnn.UnmarshalMixed(defaultModel)
	if err != nil {
		t.Fatal(err)
	}
	a := grey[0].Arch
	colour, err := cnn.New(cnn.Arch{InC: 3, Side: a.Side + 16, Convs: []int{4, 8}, Hidden: 8, Classes: 6}, rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		t.Fatal(err)
	}
	both, err := cnn.MarshalEnsemble([]*cnn.Net{grey[0], colour})
	if err != nil {
		t.Fatal(err)
	}
	files := make([][]byte, 2)
	for i, n := range []*cnn.Net{grey[0], colour} {
		if files[i], err = n.MarshalBinary(); err != nil {
			t.Fatal(err)
		}
	}
	img, boxes := photoBoxes(t, 1)
	var readers [3]*Reader
	for i, m := range [][]byte{files[0], files[1], both} {
		if readers[i], err = NewReader(Options{Model: m}); err != nil {
			t.Fatal(err)
		}
		defer readers[i].Close()
	}
	if len(readers[2].reads) != 2 {
		t.Fatalf("a grey and a colour network of another side read %d kinds of patch, want 2", len(readers[2].reads))
	}
	for _, box := range boxes {
		var probs [3][6]float64
		for i, r := range readers {
			if _, err := r.Read(img.Mat(), box); err != nil {
				t.Fatal(err)
			}
			probs[i] = r.prob
		}
		for j := range probs[2] {
			if want := (probs[0][j] + probs[1][j]) / 2; math.Abs(probs[2][j]-want) > 1e-6 {
				t.Errorf("box %v value %d: mixed %.6f, mean of grey and colour %.6f", box, j+1, probs[2][j], want)
			}
		}
	}
}

// photoBoxes loads photo k of the data set (closed when the test ends) and
// the boxes of its labels that lie in it; a photo with none fails the test.
func photoBoxes(t *testing.T, k int) (*Image, []image.Rectangle) {
	t.Helper()
	photo := loadDataset(t)[k]
	img, err := LoadImage(photo.Image)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { img.Close() })
	w, h := img.Size()
	var boxes []image.Rectangle
	for _, l := range photo.Labels {
		if box, err := l.Rect(w, h); err == nil {
			boxes = append(boxes, box)
		}
	}
	if len(boxes) == 0 {
		t.Fatalf("%s: no box to read", photo.Image)
	}
	return img, boxes
}

// TestViewBoxes checks the box placements: the box itself first, then moved
// up and down by BoxShift of its height, cut to the image, and none moved
// when the shift rounds to nothing or leaves too little of the box.
func TestViewBoxes(t *testing.T) {
	bounds := image.Rect(0, 0, 100, 80)
	box := image.Rect(10, 20, 50, 60) // 40 px high: moved by 2
	got := ViewBoxes(nil, box, bounds, 3)
	want := []image.Rectangle{box, image.Rect(10, 18, 50, 58), image.Rect(10, 22, 50, 62)}
	if len(got) != len(want) {
		t.Fatalf("ViewBoxes = %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("ViewBoxes = %v, want %v", got, want)
		}
	}
	if got := ViewBoxes(nil, box, bounds, 1); len(got) != 1 || got[0] != box {
		t.Errorf("one box: %v", got)
	}
	top := image.Rect(0, 0, 40, 40)
	if got := ViewBoxes(nil, top, bounds, 3); len(got) != 3 || got[1] != image.Rect(0, 0, 40, 38) {
		t.Errorf("box on the top edge: %v", got)
	}
	if got := ViewBoxes(nil, image.Rect(5, 5, 9, 9), bounds, 3); len(got) != 1 {
		t.Errorf("4 px box: %v, want it alone", got)
	}
	for _, k := range []int{0, 2} {
		if got := ViewBoxes(nil, box, bounds, k); len(got) != 1 {
			t.Errorf("Boxes %d: %v", k, got)
		}
	}
	// The reader reads the moved boxes too by default, and not with Boxes: 1.
	read := firstDieReader(t, nil)
	one, def, three := read(Options{Boxes: 1}), read(Options{}), read(Options{Boxes: DefaultBoxes})
	if def != three {
		t.Errorf("default read %+v, Boxes %d %+v", def, DefaultBoxes, three)
	}
	if DefaultBoxes != 1 && def == one {
		t.Errorf("reading %d boxes changed nothing (%+v)", DefaultBoxes, def)
	}
}

// firstDieReader returns a function that reads the first labelled die of
// the data set with a new reader made with the given options (check, when
// not nil, looks at the reader first). The image is closed with the test.
func firstDieReader(t *testing.T, check func(*Reader, Options)) func(Options) Reading {
	t.Helper()
	photos := loadDataset(t)
	img, err := LoadImage(photos[0].Image)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { img.Close() })
	w, h := img.Size()
	box, err := photos[0].Labels[0].Rect(w, h)
	if err != nil {
		t.Fatal(err)
	}
	return func(opt Options) Reading {
		r, err := NewReader(opt)
		if err != nil {
			t.Fatal(err)
		}
		defer r.Close()
		if check != nil {
			check(r, opt)
		}
		rd, err := r.Read(img.Mat(), box)
		if err != nil {
			t.Fatal(err)
		}
		return rd
	}
}
