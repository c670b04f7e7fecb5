package dice

import (
	"errors"
	"fmt"
	"hash/fnv"
	"image"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// ErrDataset is wrapped by errors about a data set folder.
var ErrDataset = errors.New("dice: bad data set")

// Folds is the number of groups the source photos are split into; fold
// HeldOutFold is never used for training or tuning.
const (
	Folds       = 5
	HeldOutFold = 0
)

// Photo is one image of a YOLO data set and its labels.
type Photo struct {
	Image  string // path of the image file
	Source string // the source photo it was made from (name before ".rf.")
	Fold   int    // 0..Folds-1, from a hash of Source
	Labels []Label
}

// SourceOf is the source photo an augmented copy was made from: Roboflow
// names copies `<source>.rf.<hash>.jpg`, so copies of one photo share it.
func SourceOf(imagePath string) string {
	base := filepath.Base(imagePath)
	if i := strings.Index(base, ".rf."); i >= 0 {
		return base[:i]
	}
	return strings.TrimSuffix(base, filepath.Ext(base))
}

// FoldOf assigns a source photo to a fold by a hash of its name, so the
// split never depends on file order and copies never straddle folds.
func FoldOf(source string) int {
	h := fnv.New32a()
	h.Write([]byte(source))
	return int(h.Sum32() % Folds)
}

// LoadDataset lists a YOLO data set: dir holds images/ and labels/ (or
// train/images and train/labels), one label file per image with the same
// base name. Labels are parsed here; images are not opened.
func LoadDataset(dir string) ([]Photo, error) {
	imgDir := filepath.Join(dir, "images")
	if _, err := os.Stat(imgDir); err != nil {
		if _, err2 := os.Stat(filepath.Join(dir, "train", "images")); err2 == nil {
			dir = filepath.Join(dir, "train")
			imgDir = filepath.Join(dir, "images")
		} else {
			return nil, fmt.Errorf("%w: %s has no images/ folder: %v", ErrDataset, dir, err)
		}
	}
	entries, err := os.ReadDir(imgDir)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrDataset, err)
	}
	var photos []Photo
	for _, e := range entries {
		ext := strings.ToLower(filepath.Ext(e.Name()))
		if e.IsDir() || (ext != ".jpg" && ext != ".jpeg" && ext != ".png") {
			continue
		}
		lp := filepath.Join(dir, "labels", strings.TrimSuffix(e.Name(), filepath.Ext(e.Name()))+".txt")
		f, err := os.Open(lp)
		if err != nil {
			return nil, fmt.Errorf("%w: labels of %s: %v", ErrDataset, e.Name(), err)
		}
		labels, err := ParseYOLO(f)
		f.Close()
		if err != nil {
			return nil, fmt.Errorf("%w: %s: %w", ErrDataset, lp, err)
		}
		src := SourceOf(e.Name())
		photos = append(photos, Photo{Image: filepath.Join(imgDir, e.Name()), Source: src, Fold: FoldOf(src), Labels: labels})
	}
	if len(photos) == 0 {
		return nil, fmt.Errorf("%w: no images in %s", ErrDataset, imgDir)
	}
	sort.Slice(photos, func(i, j int) bool { return photos[i].Image < photos[j].Image })
	return photos, nil
}

// Report is the accuracy of a reader over labelled dice.
type Report struct {
	Photos    int        `json:"photos"`
	Sources   int        `json:"sources"`
	Dice      int        `json:"dice"`
	Correct   int        `json:"correct"`
	Accuracy  float64    `json:"accuracy"`
	PerValue  [6]float64 `json:"per_value_accuracy"` // index 0 is a true 1
	Count     [6]int     `json:"per_value_count"`
	Confusion [6][6]int  `json:"confusion"` // [true-1][read-1]
	MsPerDie  float64    `json:"ms_per_die"`
	Skipped   int        `json:"skipped_boxes"` // boxes too small or outside the image
	Failures  []string   `json:"-"`
	elapsed   time.Duration
}

// Add records one reading against the truth.
func (rp *Report) Add(truth, read int) {
	if truth < 1 || truth > 6 || read < 1 || read > 6 {
		return
	}
	rp.Dice++
	rp.Count[truth-1]++
	rp.Confusion[truth-1][read-1]++
	if truth == read {
		rp.Correct++
	}
}

func (rp *Report) finish() {
	if rp.Dice > 0 {
		rp.Accuracy = float64(rp.Correct) / float64(rp.Dice)
		rp.MsPerDie = float64(rp.elapsed.Microseconds()) / 1000 / float64(rp.Dice)
	}
	for v := range rp.Count {
		if rp.Count[v] > 0 {
			rp.PerValue[v] = float64(rp.Confusion[v][v]) / float64(rp.Count[v])
		}
	}
}

// ReadFunc reads one die; Evaluate takes one so the learned reader and the
// classical baseline are measured the same way.
type ReadFunc func(img *Image, box image.Rectangle) (Reading, error)

// Evaluate reads every labelled box of the photos whose fold is in folds
// (all photos if folds is empty) and compares with the labels. Boxes that
// are too small or outside the image are counted in Skipped, not read.
// Time per die covers reading only, not decoding the image.
func Evaluate(photos []Photo, folds []int, read ReadFunc) (Report, error) {
	var rp Report
	want := map[int]bool{}
	for _, f := range folds {
		want[f] = true
	}
	sources := map[string]bool{}
	for _, ph := range photos {
		if len(want) > 0 && !want[ph.Fold] {
			continue
		}
		img, err := LoadImage(ph.Image)
		if err != nil {
			return rp, err
		}
		rp.Photos++
		sources[ph.Source] = true
		w, h := img.Size()
		for _, l := range ph.Labels {
			box, err := l.Rect(w, h)
			if err != nil {
				rp.Skipped++
				continue
			}
			t0 := time.Now()
			rd, err := read(img, box)
			rp.elapsed += time.Since(t0)
			if err != nil {
				img.Close()
				return rp, fmt.Errorf("dice: %s line %d: %w", ph.Image, l.Line, err)
			}
			if rd.Pips != l.Pips() {
				rp.Failures = append(rp.Failures, fmt.Sprintf("%s line %d: %d read as %d (%.2f)", filepath.Base(ph.Image), l.Line, l.Pips(), rd.Pips, rd.Confidence))
			}
			rp.Add(l.Pips(), rd.Pips)
		}
		img.Close()
	}
	rp.Sources = len(sources)
	rp.finish()
	return rp, nil
}

// String prints the report as a small table.
func (rp Report) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d dice in %d photos (%d source photos): %d correct, accuracy %.2f%%, %.3f ms per die\n",
		rp.Dice, rp.Photos, rp.Sources, rp.Correct, 100*rp.Accuracy, rp.MsPerDie)
	b.WriteString("true\\read     1     2     3     4     5     6   accuracy\n")
	for t := 0; t < 6; t++ {
		fmt.Fprintf(&b, "%9d", t+1)
		for r := 0; r < 6; r++ {
			fmt.Fprintf(&b, " %5d", rp.Confusion[t][r])
		}
		fmt.Fprintf(&b, "   %6.2f%% of %d\n", 100*rp.PerValue[t], rp.Count[t])
	}
	if rp.Skipped > 0 {
		fmt.Fprintf(&b, "%d boxes skipped (too small or outside the image)\n", rp.Skipped)
	}
	return b.String()
}
