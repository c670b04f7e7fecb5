package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"github.com/spf13/viper"
)

// subcommands lists constructors of top-level commands; each command's file
// appends itself in an init function, so areas of the project can add their
// commands without touching this file.
var subcommands []func(v *viper.Viper) *cobra.Command

func newRootCmd() *cobra.Command {
	v := viper.New()
	var cfgFile string
	root := &cobra.Command{
		Use:           "blueprints",
		Short:         "Blueprints table companion: score, simulate, replay, scoreboard",
		SilenceUsage:  true,
		SilenceErrors: true,
		PersistentPreRunE: func(cmd *cobra.Command, args []string) error {
			return loadConfig(v, cfgFile)
		},
	}
	root.PersistentFlags().StringVar(&cfgFile, "config", "", "config file (YAML, TOML or JSON)")
	for _, mk := range subcommands {
		root.AddCommand(mk(v))
	}
	return root
}

// loadConfig wires viper: BLUEPRINTS_* environment variables and an optional
// config file. Flags are bound by each command with bindFlags.
func loadConfig(v *viper.Viper, cfgFile string) error {
	v.SetEnvPrefix("BLUEPRINTS")
	v.SetEnvKeyReplacer(strings.NewReplacer("-", "_", ".", "_"))
	v.AutomaticEnv()
	if cfgFile != "" {
		v.SetConfigFile(cfgFile)
		if err := v.ReadInConfig(); err != nil {
			return &exitError{code: 2, msg: fmt.Sprintf("blueprints: config file %s: %v", cfgFile, err)}
		}
		return nil
	}
	v.SetConfigName("blueprints")
	v.AddConfigPath(".")
	if home, err := os.UserHomeDir(); err == nil {
		v.AddConfigPath(filepath.Join(home, ".config", "blueprints"))
	}
	if err := v.ReadInConfig(); err != nil {
		if _, ok := err.(viper.ConfigFileNotFoundError); !ok {
			return &exitError{code: 2, msg: fmt.Sprintf("blueprints: config file: %v", err)}
		}
	}
	return nil
}

// bindFlags binds every flag of cmd to viper under its own name, so the value
// can also come from BLUEPRINTS_<NAME> or the config file, and refuses such a
// value that is not of the flag's type (viper would read it as 0 or false:
// BLUEPRINTS_GAMES=abc used to say "--games 0").
func bindFlags(v *viper.Viper, cmd *cobra.Command) error {
	var bad error
	cmd.Flags().VisitAll(func(f *pflag.Flag) {
		_ = v.BindPFlag(f.Name, f)
		if bad != nil || f.Changed || !v.IsSet(f.Name) {
			return
		}
		raw := fmt.Sprint(v.Get(f.Name))
		var err error
		switch f.Value.Type() {
		case "int", "int64":
			_, err = strconv.ParseInt(strings.TrimSpace(raw), 10, 64)
		case "float64":
			_, err = strconv.ParseFloat(strings.TrimSpace(raw), 64)
		case "bool":
			_, err = strconv.ParseBool(strings.TrimSpace(raw))
		case "duration":
			_, err = time.ParseDuration(strings.TrimSpace(raw))
		}
		if err != nil {
			bad = &exitError{code: 2, msg: fmt.Sprintf("blueprints: setting %s (BLUEPRINTS_%s or the config file): %q is not a %s", f.Name, strings.ToUpper(strings.ReplaceAll(f.Name, "-", "_")), raw, typeName(f.Value.Type()))}
		}
	})
	return bad
}

// typeName says a flag type in words.
func typeName(t string) string {
	switch t {
	case "int", "int64":
		return "whole number"
	case "float64":
		return "number"
	case "bool":
		return "true or false"
	case "duration":
		return "duration such as 10s"
	}
	return t
}
