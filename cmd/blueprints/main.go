// Command blueprints is the Blueprints table companion's command line.
//
// It scores buildings and rounds given as JSON, simulates and replays whole
// games, and (as the other parts arrive) drives the scoreboard and the vision.
// Run `blueprints --help` for the list of commands; `make run` plays a seeded
// simulated game.
//
// Configuration comes from flags, then BLUEPRINTS_* environment variables,
// then a config file (--config, or ./blueprints.yaml, or
// $HOME/.config/blueprints/blueprints.yaml).
package main

import (
	"errors"
	"fmt"
	"os"
)

func main() {
	root := newRootCmd()
	if err := root.Execute(); err != nil {
		var ee *exitError
		if errors.As(err, &ee) {
			if ee.msg != "" {
				fmt.Fprintln(os.Stderr, ee.msg)
			}
			os.Exit(ee.code)
		}
		fmt.Fprintln(os.Stderr, "blueprints:", err)
		os.Exit(2)
	}
}

// exitError carries a specific exit code out of a command.
type exitError struct {
	code int
	msg  string
}

func (e *exitError) Error() string { return e.msg }
