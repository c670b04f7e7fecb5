// Command bprender renders synthetic overhead photographs of a Blueprints
// table — dice on blueprint cards, seen by a camera 35-90 cm above — with
// the exact truth of each image in a JSON file beside it (format:
// vision/synth/README.md). It writes POV-Ray scenes and runs Debian's
// povray.
//
//	bprender --seed 7 --out /tmp/r                  one still: still_7.jpg + still_7.json
//	bprender --seed 7 --count 20 --out /tmp/r       20 stills, seeds 7..26, with a progress bar
//	bprender corpus --seed 1 --out vision/testdata/synth      the fixed corpus (resumes)
//	bprender corpus --truth-only --out vision/testdata/synth  rewrite the truth files only
//	bprender contact-sheet --in vision/testdata/synth --out sheet.png
//	bprender overlay --truth vision/testdata/synth/stills/still_0007.json --out check.png
//	bprender twins --seed 1 --stills 300 --count 20   how far glass tops are from turned over
//	bprender variants --seed 1020 --stills 100 --glass-tops 1 --out DIR   each still with its glass tops' other values
//
// Run from the repository root (it reads configs/card.json and
// configs/blueprints.json unless told otherwise). Ctrl-C stops cleanly:
// the povray child is killed and no half-written file is left.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/blueprints-companion/blueprints/vision/cardmodel"
	"github.com/blueprints-companion/blueprints/vision/synth"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	if err != nil {
		if !errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(os.Stderr, "bprender:", err)
		}
		os.Exit(1)
	}
}

// common holds the flags every subcommand shares.
type common struct {
	cardModel, catalogue, pip, povray string
	threads                           int
	glassTops, mistakes, maxYaw       float64
	nadirOnCards                      float64
}

func (c *common) register(fs *flag.FlagSet) {
	fs.StringVar(&c.cardModel, "card-model", cardmodel.DefaultPath, "card model file (mm)")
	fs.StringVar(&c.catalogue, "catalogue", synth.DefaultCataloguePath, "blueprint catalogue")
	fs.StringVar(&c.pip, "pip-color", "white", "pip colour: white, black, red or #rrggbb")
	fs.StringVar(&c.povray, "povray", "povray", "POV-Ray binary")
	fs.IntVar(&c.threads, "threads", 1, "POV-Ray work threads")
	fs.Float64Var(&c.mistakes, "mistakes", 0, "chance (0-1) that a card's building in a still breaks a placement rule: a stack on a hatched cell, or a die on a higher value (0: every building legal; sequences are always legal)")
	fs.Float64Var(&c.maxYaw, "max-yaw", 5, "how far (degrees, either way) each die on a card may be turned from the card's axes (5: a careful hand; up to 45)")
	fs.Float64Var(&c.nadirOnCards, "nadir-on-cards", 0, "chance (0-1) that a still's camera stands over a card (the table point straight under it within 2 cm of a card's grid), where heights show only in how large a top face looks and glass pips overlay those of the bottom face (0: framed as usual)")
	fs.Float64Var(&c.glassTops, "glass-tops", 0, "chance (0-1) that a stack's top die is clear glass while the bag has glass left (training renders for the hardest top; 0: drawn like the others)")
}

func (c *common) options() (synth.Options, synth.RenderOptions, error) {
	m, err := cardmodel.Load(c.cardModel)
	if err != nil {
		return synth.Options{}, synth.RenderOptions{}, err
	}
	cat, err := synth.LoadCatalogue(c.catalogue)
	if err != nil {
		return synth.Options{}, synth.RenderOptions{}, err
	}
	pc, err := parseColor(c.pip)
	if err != nil {
		return synth.Options{}, synth.RenderOptions{}, err
	}
	if c.threads < 1 || c.threads > 64 {
		return synth.Options{}, synth.RenderOptions{}, fmt.Errorf("--threads %d not in 1-64", c.threads)
	}
	if !(c.glassTops >= 0 && c.glassTops <= 1) {
		return synth.Options{}, synth.RenderOptions{}, fmt.Errorf("--glass-tops %v not in 0-1", c.glassTops)
	}
	if !(c.mistakes >= 0 && c.mistakes <= 1) {
		return synth.Options{}, synth.RenderOptions{}, fmt.Errorf("--mistakes %v not in 0-1", c.mistakes)
	}
	if !(c.nadirOnCards >= 0 && c.nadirOnCards <= 1) {
		return synth.Options{}, synth.RenderOptions{}, fmt.Errorf("--nadir-on-cards %v not in 0-1", c.nadirOnCards)
	}
	if !(c.maxYaw > 0 && c.maxYaw <= 45) {
		return synth.Options{}, synth.RenderOptions{}, fmt.Errorf("--max-yaw %v not in (0, 45]", c.maxYaw)
	}
	opt := synth.Options{Model: m, Catalogue: cat, PipColor: pc, PipName: c.pip, HandProb: 0.3, ScreenProb: 0.25, GlareProb: 0.2, GlassTops: c.glassTops, Mistakes: c.mistakes, NadirOnCards: c.nadirOnCards}
	if c.maxYaw != 5 {
		opt.MaxYaw = c.maxYaw // (0 is the default 5: manifests then stay as they were)
	}
	return opt, synth.RenderOptions{Povray: c.povray, Threads: c.threads}, nil
}

func parseColor(s string) ([3]float64, error) {
	switch s {
	case "white":
		return [3]float64{0.97, 0.97, 0.95}, nil
	case "black":
		return [3]float64{0.04, 0.04, 0.04}, nil
	case "red":
		return [3]float64{0.75, 0.08, 0.08}, nil
	}
	if len(s) == 7 && s[0] == '#' {
		v, err := strconv.ParseUint(s[1:], 16, 32)
		if err == nil {
			return [3]float64{float64(v>>16&255) / 255, float64(v>>8&255) / 255, float64(v&255) / 255}, nil
		}
	}
	return [3]float64{}, fmt.Errorf("bad --pip-color %q: want white, black, red or #rrggbb", s)
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) > 0 {
		switch args[0] {
		case "corpus":
			return runCorpus(ctx, args[1:], stdout, stderr)
		case "contact-sheet":
			return runContact(args[1:], stdout, stderr)
		case "overlay":
			return runOverlay(args[1:], stdout, stderr)
		case "twins":
			return runTwins(ctx, args[1:], stdout, stderr)
		case "variants":
			return runVariants(ctx, args[1:], stdout, stderr)
		}
	}
	return runStills(ctx, args, stdout, stderr)
}

func runStills(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("bprender", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var c common
	c.register(fs)
	seed := fs.Uint64("seed", 1, "scene seed")
	count := fs.Int("count", 1, "number of stills (seeds seed, seed+1, ...)")
	out := fs.String("out", "", "output directory (required)")
	width := fs.Int("width", 0, "image width (0: 1280 or 1920 at random; with --height)")
	height := fs.Int("height", 0, "image height")
	players := fs.Int("players", 0, "cards on the table, 1-4 (0: random)")
	hand := fs.Float64("hand", 0.3, "probability of a hand over a card")
	screen := fs.Float64("screen", 0.25, "probability of player screens")
	glare := fs.Float64("glare", 0.2, "probability of a glare spot")
	noise := fs.Float64("noise", -1, "sensor noise sigma in 8-bit levels (negative: random 0.3-2.2)")
	blur := fs.Float64("blur", -1, "blur sigma in pixels (negative: random 0.4-1.1)")
	quality := fs.Int("jpeg-quality", 0, "JPEG quality 1-100 (0: random 76-84)")
	keep := fs.String("keep-work", "", "keep each POV-Ray scene (scene.pov, card faces, raw PNG) in DIR/still_N")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: bprender --seed N --out DIR [flags]\n       bprender corpus [flags]\n       bprender contact-sheet [flags]\n       bprender overlay --truth F.json --out F.png")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected argument %q (subcommands: corpus, contact-sheet, overlay)", fs.Arg(0))
	}
	if *out == "" {
		return errors.New("--out DIR is required")
	}
	if *count < 1 {
		return fmt.Errorf("--count %d must be at least 1", *count)
	}
	if (*width == 0) != (*height == 0) || *width < 0 || *height < 0 || *width > 8000 || *height > 8000 {
		return fmt.Errorf("--width %d --height %d: give both, positive, at most 8000", *width, *height)
	}
	if *players < 0 || *players > 4 {
		return fmt.Errorf("--players %d not in 0-4", *players)
	}
	if *quality < 0 || *quality > 100 || !(*noise <= 50) || !(*blur <= 20) {
		return fmt.Errorf("--jpeg-quality %d (0-100), --noise %g (at most 50), --blur %g (at most 20) out of range", *quality, *noise, *blur)
	}
	for name, p := range map[string]float64{"--hand": *hand, "--screen": *screen, "--glare": *glare} {
		if !(p >= 0 && p <= 1) { // (NaN too)
			return fmt.Errorf("%s %g: want a chance from 0 to 1", name, p)
		}
	}
	opt, ropt, err := c.options()
	if err != nil {
		return err
	}
	opt.Width, opt.Height, opt.Players = *width, *height, *players
	opt.HandProb, opt.ScreenProb, opt.GlareProb = *hand, *screen, *glare
	if err := synth.CheckPovray(ropt.Povray); err != nil {
		return err
	}
	if err := os.MkdirAll(*out, 0o755); err != nil {
		return err
	}
	var bar *synth.Progress
	if *count > 1 {
		bar = synth.NewProgress(stderr, *count, "render")
	}
	for i := 0; i < *count; i++ {
		s := *seed + uint64(i)
		sc, err := synth.Generate(s, opt)
		if err != nil {
			return fmt.Errorf("seed %d: %w", s, err)
		}
		if *noise >= 0 {
			sc.Post.NoiseSigma = *noise
		}
		if *blur >= 0 {
			sc.Post.BlurSigma = *blur
		}
		if *quality > 0 {
			sc.Post.JPEGQuality = *quality
		}
		name := fmt.Sprintf("still_%d", s)
		if *keep != "" {
			ropt.WorkDir = filepath.Join(*keep, name)
		}
		start := time.Now()
		img, err := synth.Render(ctx, sc, ropt)
		if err != nil {
			return fmt.Errorf("seed %d: %w", s, err)
		}
		if err := synth.WriteJPEG(filepath.Join(*out, name+".jpg"), img, sc.Post.JPEGQuality); err != nil {
			return err
		}
		if err := synth.WriteTruth(filepath.Join(*out, name+".json"), synth.TruthOf(sc, name+".jpg")); err != nil {
			return err
		}
		if bar != nil {
			bar.Step(1, fmt.Sprintf("%s %.1fs", name, time.Since(start).Seconds()))
		} else {
			fmt.Fprintf(stdout, "%s: %dx%d, %d cards, %.1fs\n", filepath.Join(*out, name+".jpg"), sc.Cam.Width, sc.Cam.Height, len(sc.Cards), time.Since(start).Seconds())
		}
	}
	return nil
}

func runCorpus(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("bprender corpus", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var c common
	c.register(fs)
	seed := fs.Uint64("seed", 1, "corpus seed")
	out := fs.String("out", "vision/testdata/synth", "corpus directory")
	stills := fs.Int("stills", 300, "number of stills")
	width := fs.Int("width", 0, "render every still this wide, at 16:9 (a multiple of 16, 640-3840): the same scenes seen by a camera of that resolution (0: one still in ten 1920x1080, the rest 1280x720)")
	seqs := fs.String("sequences", "1,2,3,4", "round sequences: players per sequence, comma separated (\"\" for none)")
	truthOnly := fs.Bool("truth-only", false, "rewrite the truth files and manifest without rendering")
	only := fs.String("only", "", "render only this part: stills or sequences (default: all)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	if *stills < 0 || *stills > 100000 {
		return fmt.Errorf("--stills %d out of range", *stills)
	}
	if err := synth.CheckCorpusWidth(*width); err != nil {
		return fmt.Errorf("--width %w", err)
	}
	switch *only {
	case "":
	case "stills", "sequences":
		*only += "/"
	default:
		return fmt.Errorf("--only %q: want stills or sequences", *only)
	}
	var players []int
	for _, f := range strings.Split(*seqs, ",") {
		if f = strings.TrimSpace(f); f == "" {
			continue
		}
		n, err := strconv.Atoi(f)
		if err != nil || n < 1 || n > 4 {
			return fmt.Errorf("--sequences: %q is not a player count 1-4", f)
		}
		players = append(players, n)
	}
	opt, ropt, err := c.options()
	if err != nil {
		return err
	}
	if !*truthOnly {
		if err := synth.CheckPovray(ropt.Povray); err != nil {
			return err
		}
	}
	if err := outDir(*out); err != nil {
		return err
	}
	start := time.Now()
	man, err := synth.RenderCorpus(ctx, synth.CorpusOptions{
		Dir: *out, Seed: *seed, Stills: *stills, Players: players,
		Options: opt, Render: ropt, TruthOnly: *truthOnly, Only: *only, Progress: stderr,
		Width: *width,
	})
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "corpus %s: %d images (%d stills, %d sequences), %.1f MB, %s\n",
		*out, man.Images, man.Stills, len(man.Sequences), float64(man.Bytes)/1e6, time.Since(start).Round(time.Second))
	return nil
}

// outDir makes the --out directory (and its parents, as rendering makes
// the corpus's own directories) and checks that files can be written in
// it, so a bad --out is named as such rather than through the first file
// the corpus writes (such as the manifest's temporary file).
func outDir(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("--out %s: cannot make the directory: %w", dir, err)
	}
	f, err := os.CreateTemp(dir, ".bprender-*")
	if err != nil {
		return fmt.Errorf("--out %s: cannot write in the directory: %w", dir, err)
	}
	_ = f.Close()
	if err := os.Remove(f.Name()); err != nil {
		return fmt.Errorf("--out %s: %w", dir, err)
	}
	return nil
}

func runContact(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("bprender contact-sheet", flag.ContinueOnError)
	fs.SetOutput(stderr)
	in := fs.String("in", "vision/testdata/synth", "corpus directory")
	out := fs.String("out", "", "PNG to write (default IN/contact_sheet.png)")
	cols := fs.Int("cols", 16, "thumbnails per row")
	width := fs.Int("thumb", 200, "thumbnail width in pixels")
	sub := fs.String("glob", "stills/*.jpg", "images to include, relative to IN")
	crop := fs.Bool("crop", false, "show the card with the tallest stack of each image, not the whole frame")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *cols < 1 || *cols > 64 || *width < 16 || *width > 2000 {
		return fmt.Errorf("--cols %d (1-64), --thumb %d (16-2000 px) out of range", *cols, *width)
	}
	if *out == "" {
		*out = filepath.Join(*in, "contact_sheet.png")
	}
	paths, err := filepath.Glob(filepath.Join(*in, *sub))
	if err != nil {
		return fmt.Errorf("--glob: %w", err)
	}
	sort.Strings(paths)
	sheet, err := synth.ContactSheet(paths, *cols, *width, *crop)
	if err != nil {
		return err
	}
	if err := synth.WritePNGFile(*out, sheet); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%s: %d images\n", *out, len(paths))
	return nil
}

func runOverlay(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("bprender overlay", flag.ContinueOnError)
	fs.SetOutput(stderr)
	truth := fs.String("truth", "", "truth file (its image is read from beside it)")
	out := fs.String("out", "", "PNG to write")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *truth == "" || *out == "" {
		return errors.New("overlay needs --truth FILE.json and --out FILE.png")
	}
	img, err := synth.Overlay(*truth)
	if err != nil {
		return err
	}
	if err := synth.WritePNGFile(*out, img); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%s: truth drawn over %s\n", *out, *truth)
	return nil
}
