package main

import (
	"github.com/spf13/cobra"
	"github.com/spf13/viper"
)

// visionSubcommands lists constructors of the commands under `blueprints
// vision`; each vision_*.go file appends its own in an init function, so a
// new one (detect, bench, ...) needs no change here.
var visionSubcommands []func(v *viper.Viper) *cobra.Command

func init() { subcommands = append(subcommands, newVisionCmd) }

// newVisionCmd is the `vision` parent command.
func newVisionCmd(v *viper.Viper) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "vision",
		Short: "Camera and photo reading: dice pips, ...",
		Long: "vision groups the commands that read the table from images.\n" +
			"Run `blueprints vision <command> --help` for each one.",
	}
	for _, mk := range visionSubcommands {
		cmd.AddCommand(mk(v))
	}
	return cmd
}
