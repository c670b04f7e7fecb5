package main

import (
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/blueprints-companion/blueprints/engine"
	"github.com/spf13/cobra"
	"github.com/spf13/viper"
)

func init() { subcommands = append(subcommands, newSimulateCmd, newReplayCmd) }

func newSimulateCmd(v *viper.Viper) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "simulate",
		Short: "Play whole games with bots; print speed, win shares and score distributions",
		Long: `Play --games whole games of --players players with bots that only make
legal moves (random: any legal move; greedy: the move that adds most to its
round score now). Game i uses seed --seed + i, so a run is repeatable.
Prints games per second (one core), win shares per seat and the
distributions of victory points and round scores. --log FILE writes every
game's event log as JSON lines; with one game, the game's results are printed
too, exactly as 'blueprints replay FILE' prints them.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := bindFlags(v, cmd); err != nil {
				return err
			}
			players, games := v.GetInt("players"), v.GetInt("games")
			if players < engine.MinPlayers || players > engine.MaxPlayers {
				return &exitError{code: 2, msg: fmt.Sprintf("blueprints simulate: --players %d: want 2 to 4", players)}
			}
			if games < 1 {
				return &exitError{code: 2, msg: fmt.Sprintf("blueprints simulate: --games %d: want at least 1", games)}
			}
			_, cat, vp, err := gameSettings(v, "simulate")
			if err != nil {
				return err
			}
			opts := engine.SimOptions{Players: players, Games: games, Seed: uint64(v.GetInt64("seed")), Bot: v.GetString("bot"), Catalogue: cat, VP: vp}
			log, err := createLog(v.GetString("log"), "simulate", false)
			if err != nil {
				return err
			}
			var lastGame gameOutput
			if log != nil || games == 1 {
				opts.OnGame = func(i int, g *engine.Game) {
					if games == 1 {
						lastGame = gameJSON(&g.State, len(g.Events()))
					}
					log.write(g.Events())
				}
			}
			start := time.Now()
			st, err := engine.Simulate(opts)
			elapsed := time.Since(start)
			if lerr := log.close("simulate"); lerr != nil {
				return lerr
			}
			if err != nil {
				return &exitError{code: 1, msg: "blueprints simulate: " + err.Error()}
			}
			rate := float64(games) / elapsed.Seconds()
			out := cmd.OutOrStdout()
			if v.GetBool("json") {
				res := map[string]any{"stats": st, "seconds": elapsed.Seconds(), "games_per_second": rate}
				if games == 1 {
					res["game"] = lastGame
				}
				writeJSON(out, res)
				return nil
			}
			writeSimText(out, st, elapsed, rate, opts.Seed)
			if games == 1 {
				writeGameText(out, lastGame)
			}
			return nil
		},
	}
	f := cmd.Flags()
	f.Int("players", 4, "players per game (2-4)")
	f.Int("games", 1000, "number of games")
	f.Int64("seed", 1, "seed of the first game (game i uses seed+i)")
	f.String("bot", "random", "bot for every seat: random or greedy")
	f.String("log", "", "write every game's event log (JSON lines) to this file")
	f.Bool("json", false, "print JSON instead of text")
	return cmd
}

func writeSimText(w io.Writer, st engine.SimStats, elapsed time.Duration, rate float64, seed uint64) {
	fmt.Fprintf(w, "simulated %d games, %d players, %s bots, seeds %d..%d: %.3f s, %.0f games/s on one core\n",
		st.Games, st.Players, st.Bot, seed, seed+uint64(st.Games)-1, elapsed.Seconds(), rate)
	var shares []string
	for p, s := range st.WinShare {
		shares = append(shares, fmt.Sprintf("seat %d %.1f%%", p+1, 100*s))
	}
	fmt.Fprintf(w, "win share: %s (shared wins: %d)\n", strings.Join(shares, ", "), st.SharedWins)
	dist := func(d engine.Dist) string {
		return fmt.Sprintf("mean %.2f, min %d, p10 %d, median %d, p90 %d, max %d", d.Mean, d.Min, d.P10, d.P50, d.P90, d.Max)
	}
	for p, d := range st.VP {
		fmt.Fprintf(w, "victory points, seat %d: %s\n", p+1, dist(d))
	}
	fmt.Fprintf(w, "round score, every building: %s\n", dist(st.RoundScore))
	fmt.Fprintf(w, "forced removals (no die could be placed): %d, %.2f per game\n", st.Forced, float64(st.Forced)/float64(st.Games))
}

func newReplayCmd(v *viper.Viper) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "replay FILE",
		Short: "Replay an event log, checking every event against the rules, and print the results",
		Long: `Replay an event log (JSON lines, as written by simulate --log or play --log),
checking every event against the rules, and print each game's results, the
same as when it was played. A file may hold several games. A line that is
not an event exits 2, an event that breaks the rules exits 1; either way the
games (and rounds) replayed before it are printed first.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := bindFlags(v, cmd); err != nil {
				return err
			}
			data, err := os.ReadFile(args[0])
			if err != nil {
				return &exitError{code: 2, msg: fmt.Sprintf("blueprints replay: %v", err)}
			}
			games, perr := engine.ParseLog(data)
			out := cmd.OutOrStdout()
			asJSON := v.GetBool("json")
			var results []gameOutput
			for i, evs := range games {
				s, err := engine.Replay(evs)
				res := gameJSON(s, len(evs))
				if err != nil {
					emitReplay(out, asJSON, append(results, res))
					return &exitError{code: 1, msg: fmt.Sprintf("blueprints replay: %s: game %d: %v", args[0], i+1, err)}
				}
				results = append(results, res)
			}
			emitReplay(out, asJSON, results)
			if perr != nil {
				return &exitError{code: 2, msg: fmt.Sprintf("blueprints replay: %s: %v", args[0], perr)}
			}
			if len(games) == 0 {
				return &exitError{code: 2, msg: fmt.Sprintf("blueprints replay: %s: no game in the file", args[0])}
			}
			return nil
		},
	}
	cmd.Flags().Bool("json", false, "print JSON instead of text")
	return cmd
}

func emitReplay(w io.Writer, asJSON bool, results []gameOutput) {
	if asJSON {
		if len(results) == 1 {
			writeJSON(w, results[0])
		} else {
			writeJSON(w, results)
		}
		return
	}
	for i, r := range results {
		if len(results) > 1 {
			fmt.Fprintf(w, "\n=== game %d (seed %d) ===\n", i+1, r.Seed)
		}
		writeGameText(w, r)
	}
}
