package main

import (
	"errors"
	"fmt"
	"image"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/viper"

	"github.com/blueprints-companion/blueprints/vision/dice"
)

func init() { visionSubcommands = append(visionSubcommands, newVisionDiceCmd) }

// newVisionDiceCmd is `blueprints vision dice`: read the pips of boxed dice
// in a photo, or measure the reader over a labelled data set.
func newVisionDiceCmd(v *viper.Viper) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "dice",
		Short: "Read the value (1-6) of each boxed die in a photo, or measure accuracy over a data set",
		Long: `dice reads the pips on top of dice in an ordinary photo.

  blueprints vision dice --image IMG --yolo LABELS [--json]
      reads one die per line of the YOLO label file (class cx cy w h,
      normalised; the class column is ignored) and prints, in order, the
      value and confidence of each ({"pips":P,"confidence":C} with --json).

  blueprints vision dice --dataset DIR [--folds heldout|all|N,M] [--json]
      reads every labelled box of a YOLO data set (DIR/images, DIR/labels or
      DIR/train/...) and prints overall and per-value accuracy, the confusion
      matrix and milliseconds per die. --folds heldout (the default) uses
      only the source photos the model never saw in training.

--method classic uses the classical blob-counting baseline instead of the
trained model; --model FILE loads another model file (one network or an
ensemble); --passes N averages the model over N views of each box (1, the
default, or 2: the die and its mirror image, a little better and twice as
slow); --boxes N reads N placements of each box (1: as given, or 3: also
moved up and down a little, the default).`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := bindFlags(v, cmd); err != nil {
				return err
			}
			return runVisionDice(cmd.OutOrStdout(), v)
		},
	}
	f := cmd.Flags()
	f.String("image", "", "photo to read (any format OpenCV decodes)")
	f.String("yolo", "", "YOLO label file with one box per die")
	f.String("dataset", "", "YOLO data set folder to measure accuracy over")
	f.String("folds", "heldout", "with --dataset: heldout, all, or fold numbers 0-4 separated by commas")
	f.String("method", "cnn", "cnn (the trained reader) or classic (blob-counting baseline)")
	f.String("model", "", "model file for --method cnn (default: the one built in)")
	f.Int("passes", 0, "views averaged per box for --method cnn: 1 or 2 (0: the reader's default)")
	f.Int("boxes", 0, "box placements read per die for --method cnn: 1 or 3 (0: the reader's default)")
	f.Bool("json", false, "print JSON")
	return cmd
}

// dieReader is a reader and how to free it.
type dieReader struct {
	read  dice.ReadFunc
	close func() error
}

func newDieReader(v *viper.Viper) (*dieReader, error) {
	switch m := v.GetString("method"); m {
	case "cnn", "":
		var opt dice.Options
		switch p := v.GetInt("passes"); p {
		case 0, 1, 2:
			opt.Passes = p
		default:
			return nil, &exitError{code: 2, msg: fmt.Sprintf("blueprints vision dice: --passes %d: want 1 or 2", p)}
		}
		switch b := v.GetInt("boxes"); b {
		case 0, 1, 3:
			opt.Boxes = b
		default:
			return nil, &exitError{code: 2, msg: fmt.Sprintf("blueprints vision dice: --boxes %d: want 1 or 3", b)}
		}
		if path := v.GetString("model"); path != "" {
			b, err := os.ReadFile(path)
			if err != nil {
				return nil, &exitError{code: 2, msg: fmt.Sprintf("blueprints vision dice: --model: %v", err)}
			}
			if len(b) == 0 { // (an empty Model means the built-in one)
				return nil, &exitError{code: 2, msg: fmt.Sprintf("blueprints vision dice: --model: %s is empty", path)}
			}
			opt.Model = b
		}
		r, err := dice.NewReader(opt)
		if err != nil {
			return nil, &exitError{code: 2, msg: "blueprints vision dice: " + err.Error()}
		}
		return &dieReader{read: func(img *dice.Image, b image.Rectangle) (dice.Reading, error) { return r.Read(img.Mat(), b) }, close: r.Close}, nil
	case "classic":
		c := dice.NewClassicReader()
		return &dieReader{read: func(img *dice.Image, b image.Rectangle) (dice.Reading, error) { return c.Read(img.Mat(), b) }, close: c.Close}, nil
	default:
		return nil, &exitError{code: 2, msg: fmt.Sprintf("blueprints vision dice: --method %q: want cnn or classic", m)}
	}
}

func runVisionDice(w io.Writer, v *viper.Viper) error {
	imgPath, yolo, dataset := v.GetString("image"), v.GetString("yolo"), v.GetString("dataset")
	switch {
	case dataset != "" && (imgPath != "" || yolo != ""):
		return &exitError{code: 2, msg: "blueprints vision dice: give either --dataset or --image with --yolo, not both"}
	case dataset == "" && (imgPath == "" || yolo == ""):
		return &exitError{code: 2, msg: "blueprints vision dice: need --image and --yolo (or --dataset)"}
	}
	if dataset != "" {
		return runDiceDataset(w, v, dataset)
	}
	f, err := os.Open(yolo)
	if err != nil {
		return &exitError{code: 2, msg: fmt.Sprintf("blueprints vision dice: --yolo: %v", err)}
	}
	labels, err := dice.ParseYOLO(f)
	f.Close()
	if err != nil {
		return &exitError{code: 2, msg: fmt.Sprintf("blueprints vision dice: %s: %v", yolo, err)}
	}
	img, err := dice.LoadImage(imgPath)
	if err != nil {
		return &exitError{code: 2, msg: fmt.Sprintf("blueprints vision dice: --image: %v", err)}
	}
	defer img.Close()
	iw, ih := img.Size()
	boxes := make([]image.Rectangle, len(labels))
	for i, l := range labels {
		if boxes[i], err = l.Rect(iw, ih); err != nil {
			return &exitError{code: 2, msg: fmt.Sprintf("blueprints vision dice: %s: %v", yolo, err)}
		}
	}
	rd, err := newDieReader(v)
	if err != nil {
		return err
	}
	defer rd.close()
	out := make([]dice.Reading, len(labels))
	for i, b := range boxes {
		if out[i], err = rd.read(img, b); err != nil {
			code := 1
			if errors.Is(err, dice.ErrBox) || errors.Is(err, dice.ErrImage) {
				code = 2
			}
			return &exitError{code: code, msg: fmt.Sprintf("blueprints vision dice: %s line %d: %v", yolo, labels[i].Line, err)}
		}
	}
	if v.GetBool("json") {
		writeJSON(w, out)
		return nil
	}
	for i, r := range out {
		fmt.Fprintf(w, "line %d: %d pips (confidence %.3f)\n", labels[i].Line, r.Pips, r.Confidence)
	}
	return nil
}

func runDiceDataset(w io.Writer, v *viper.Viper, dir string) error {
	folds, err := parseFolds(v.GetString("folds"))
	if err != nil {
		return &exitError{code: 2, msg: "blueprints vision dice: --folds: " + err.Error()}
	}
	photos, err := dice.LoadDataset(dir)
	if err != nil {
		return &exitError{code: 2, msg: "blueprints vision dice: --dataset: " + err.Error()}
	}
	rd, err := newDieReader(v)
	if err != nil {
		return err
	}
	defer rd.close()
	rep, err := dice.Evaluate(photos, folds, rd.read)
	if err != nil {
		return &exitError{code: 1, msg: "blueprints vision dice: " + err.Error()}
	}
	if v.GetBool("json") {
		writeJSON(w, rep)
		return nil
	}
	_, err = io.WriteString(w, rep.String())
	return err
}

// parseFolds reads --folds: heldout, all, or a comma-separated list.
func parseFolds(s string) ([]int, error) {
	switch s {
	case "heldout", "":
		return []int{dice.HeldOutFold}, nil
	case "all":
		return nil, nil
	}
	var out []int
	for _, p := range strings.Split(s, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(p))
		if err != nil || n < 0 || n >= dice.Folds {
			return nil, fmt.Errorf("%q: want heldout, all, or fold numbers 0-%d", s, dice.Folds-1)
		}
		out = append(out, n)
	}
	return out, nil
}
