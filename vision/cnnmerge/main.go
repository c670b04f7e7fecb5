// Command cnnmerge writes one ensemble file holding every network of the
// CNN files it is given (pip, height or material CNNs of vision/celltrain,
// each one network or an ensemble already), in order. The detector
// averages an ensemble's probabilities. All must read the same input and
// give the same classes.
//
//	go run ./vision/cnnmerge -out vision/model/pips.cnn a/pips.cnn b/pips.cnn ...
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
	if err := fl.Parse(args); err != nil {
		return err
	}
	if *out == "" {
		return errors.New("-out: want the file to write")
	}
	if fl.NArg() == 0 {
		return errors.New("no CNN files to merge")
	}
	var all []*cnn.Net
	for _, f := range fl.Args() {
		data, err := os.ReadFile(f)
		if err != nil {
			return err
		}
		nets, err := cnn.UnmarshalAll(data)
		if err != nil {
			return fmt.Errorf("%s: %w", f, err)
		}
		if len(all) > 0 && !sameIO(all[0], nets[0]) {
			return fmt.Errorf("%s: reads %dx%dx%d into %d classes, the first file %dx%dx%d into %d", f,
				nets[0].Arch.InC, nets[0].Arch.Side, nets[0].Arch.Side, nets[0].Arch.Classes,
				all[0].Arch.InC, all[0].Arch.Side, all[0].Arch.Side, all[0].Arch.Classes)
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

func sameIO(a, b *cnn.Net) bool {
	return a.Arch.InC == b.Arch.InC && a.Arch.Side == b.Arch.Side && a.Arch.Classes == b.Arch.Classes
}
