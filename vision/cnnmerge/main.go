// Command cnnmerge writes one ensemble file holding every network of the
// CNN files it is given (pip, height or material CNNs of vision/celltrain,
// each one network or an ensemble already), in order. The detector
// averages an ensemble's probabilities. All must read the same input and
// give the same classes; with -mixed they may read inputs of other
// channels or sides (a nadir height CNN file of networks of several face
// sides: vision.useNadirHeights), and must give the same classes.
//
//	go run ./vision/cnnmerge -out vision/model/pips.cnn a/pips.cnn b/pips.cnn ...
//
// With -blend W and two files of as many networks, it writes instead each
// network of the first blended with the same network of the second,
// parameter by parameter: (1-W)·first + W·second (for a network and a
// fine-tuned copy of it).
//
//	go run ./vision/cnnmerge -blend 0.5 -out height.cnn vision/model/height.cnn tuned/height.cnn
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/blueprints-companion/blueprints/vision/internal/cnn"
)

func main() {
	if err := run(os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "cnnmerge:", err)
		os.Exit(1)
	}
}

func run(args []string, stdout io.Writer) error {
	fl := flag.NewFlagSet("cnnmerge", flag.ContinueOnError)
	out := fl.String("out", "", "ensemble file to write")
	mixed := fl.Bool("mixed", false, "let the networks read inputs of other channels or sides (the same classes)")
	blend := fl.Float64("blend", -1, "with two files of as many networks: write each network of the first blended with the second's at this weight (0-1) instead of merging them")
	if err := fl.Parse(args); err != nil {
		return err
	}
	if *out == "" {
		return errors.New("-out: want the file to write")
	}
	if fl.NArg() == 0 {
		return errors.New("no CNN files to merge")
	}
	if *blend != -1 {
		return runBlend(*out, *blend, fl.Args(), stdout)
	}
	var all []*cnn.Net
	for _, f := range fl.Args() {
		nets, err := readNets(f)
		if err != nil {
			return err
		}
		ref := nets[0]
		if len(all) > 0 {
			ref = all[0]
		}
		for _, n := range nets {
			if !sameIO(ref, n, *mixed) {
				return fmt.Errorf("%s: reads %dx%dx%d into %d classes, the first network %dx%dx%d into %d", f,
					n.Arch.InC, n.Arch.Side, n.Arch.Side, n.Arch.Classes,
					ref.Arch.InC, ref.Arch.Side, ref.Arch.Side, ref.Arch.Classes)
			}
		}
		fmt.Fprintf(stdout, "%s: %d network(s)\n", f, len(nets))
		all = append(all, nets...)
	}
	data, err := cnn.MarshalEnsemble(all)
	if err != nil {
		return err
	}
	if err := os.WriteFile(*out, data, 0o644); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%s: %d networks\n", *out, len(all))
	return nil
}

func sameIO(a, b *cnn.Net, mixed bool) bool {
	return (mixed || (a.Arch.InC == b.Arch.InC && a.Arch.Side == b.Arch.Side)) && a.Arch.Classes == b.Arch.Classes
}

func readNets(f string) ([]*cnn.Net, error) {
	data, err := os.ReadFile(f)
	if err != nil {
		return nil, err
	}
	nets, err := cnn.UnmarshalMixed(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", f, err)
	}
	return nets, nil
}

func runBlend(out string, w float64, files []string, stdout io.Writer) error {
	if !(w >= 0 && w <= 1) {
		return fmt.Errorf("-blend %v: want a weight in 0-1", w)
	}
	if len(files) != 2 {
		return fmt.Errorf("-blend: want two CNN files, got %d", len(files))
	}
	a, err := readNets(files[0])
	if err != nil {
		return err
	}
	b, err := readNets(files[1])
	if err != nil {
		return err
	}
	if len(a) != len(b) {
		return fmt.Errorf("-blend: %s holds %d networks, %s %d", files[0], len(a), files[1], len(b))
	}
	blended := make([]*cnn.Net, len(a))
	for i := range a {
		if blended[i], err = cnn.Blend(a[i], b[i], float32(w)); err != nil {
			return fmt.Errorf("network %d: %w", i+1, err)
		}
	}
	data, err := cnn.MarshalEnsemble(blended)
	if err != nil {
		return err
	}
	if err := os.WriteFile(out, data, 0o644); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%s: %d networks, each %.2f of %s and %.2f of %s\n", out, len(blended), 1-w, files[0], w, files[1])
	return nil
}
