package main

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"time"

	"github.com/blueprints-companion/blueprints/engine"
	"github.com/blueprints-companion/blueprints/hardware"
	"github.com/spf13/cobra"
	"github.com/spf13/viper"
)

func init() { subcommands = append(subcommands, newPlayCmd) }

// display is what the game loop drives: the LED scoreboard or its virtual
// stand-in.
type display interface {
	SetScore(ctx context.Context, player int, score int) error
	SetText(ctx context.Context, player int, text string) error
	Alert(ctx context.Context, player int, d time.Duration) error
	Close() error
}

func newPlayCmd(v *viper.Viper) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "play",
		Short: "Play one seeded game with bots, printing every event and the results",
		Long: `Play one seeded game with bots and print every event as it happens, then
the results of each round and the end of the game. Until the camera drives
the game, this is what 'make run' shows: the engine judging every placement
(--mistakes makes the bots try an illegal placement now and then, which the
engine rejects with the rule it breaks, leaving the game untouched), scoring
the rounds, and handing out awards and prizes.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := bindFlags(v, cmd); err != nil {
				return err
			}
			return runPlay(cmd, v)
		},
	}
	f := cmd.Flags()
	f.Int("players", 4, "players (2-4)")
	f.Int64("seed", 1, "seed: the same seed plays the same game")
	f.String("bot", "greedy", "bot for every seat: random or greedy")
	f.String("names", "Ana,Ben,Cleo,Dev", "player names in seat order (the first --players are used)")
	f.Int("first", 1, "player (1-based, in name order) who starts round 1")
	f.Float64("mistakes", 0.1, "chance per turn that a bot first tries an illegal placement (0-1)")
	f.String("log", "", "write the event log (JSON lines) to this file")
	f.Bool("json", false, "print the events as JSON lines and the results as JSON")
	f.String("port", "", "drive the LED scoreboard on this serial port (default: the virtual scoreboard)")
	f.String("vid-pid", "", "drive the LED scoreboard found by USB id VID:PID")
	return cmd
}

func runPlay(cmd *cobra.Command, v *viper.Viper) error {
	players := v.GetInt("players")
	if players < engine.MinPlayers || players > engine.MaxPlayers {
		return &exitError{code: 2, msg: fmt.Sprintf("blueprints play: --players %d: want 2 to 4", players)}
	}
	names := strings.Split(v.GetString("names"), ",")
	for i := range names {
		names[i] = strings.TrimSpace(names[i])
	}
	for len(names) < players {
		names = append(names, fmt.Sprintf("P%d", len(names)+1))
	}
	names = names[:players]
	mistakes := v.GetFloat64("mistakes")
	if !(mistakes >= 0 && mistakes <= 1) { // (NaN too)
		return &exitError{code: 2, msg: fmt.Sprintf("blueprints play: --mistakes %v: want a chance from 0 to 1", mistakes)}
	}
	bot, cat, vp, err := gameSettings(v, "play")
	if err != nil {
		return err
	}
	out := cmd.OutOrStdout()
	asJSON := v.GetBool("json")
	seed := uint64(v.GetInt64("seed"))

	log, err := createLog(v.GetString("log"), "play", true)
	if err != nil {
		return err
	}
	// The log keeps every event recorded, even when a move fails.
	defer func() { _ = log.close("play") }()

	ctx := cmd.Context()
	if ctx == nil {
		ctx = context.Background()
	}
	last := &lastDrawing{}
	board, err := openPlayBoard(ctx, v, players, last)
	if err != nil {
		return err
	}
	defer board.Close()
	showBoard := func(why string) {
		if !asJSON && last.text != "" {
			fmt.Fprintf(out, "      -- %s --\n%s", why, indent(last.text, "      "))
		}
	}

	var g *engine.Game
	onEvent := func(e engine.Event) {
		log.write([]engine.Event{e})
		if asJSON {
			b, _ := e.MarshalJSON()
			fmt.Fprintf(out, "%s\n", b)
		} else {
			fmt.Fprintf(out, "%4d  %s\n", e.Seq, describe(&g.State, e))
		}
		showOnBoard(ctx, board, &g.State, e)
		switch e.Kind {
		case engine.RoundEnded:
			showBoard(fmt.Sprintf("scoreboard after round %d", e.Round))
		case engine.GameEnded:
			showBoard("scoreboard at the end of the game")
		}
	}
	first := v.GetInt("first")
	if first < 1 || first > players {
		return &exitError{code: 2, msg: fmt.Sprintf("blueprints play: --first %d: want 1 to %d", first, players)}
	}
	g, err = engine.NewGame(engine.Options{Players: names, Seed: seed, Catalogue: cat, VP: vp, First: first - 1})
	if err != nil {
		return &exitError{code: 2, msg: "blueprints play: " + err.Error()}
	}
	// The game's first events happened inside NewGame: show them, then
	// follow the rest as they happen.
	for _, e := range g.Events() {
		onEvent(e)
	}
	g.OnEvent = onEvent

	rng := rand.New(rand.NewPCG(seed, 0xb0b))
	var moves []engine.Move
	for !g.Over() {
		p := g.Current()
		if mistakes > 0 && rng.Float64() < mistakes {
			if bad, ok := illegalMove(&g.State, rng); ok {
				err := g.Play(p, bad)
				if err == nil {
					return &exitError{code: 1, msg: fmt.Sprintf("blueprints play: the engine accepted an illegal move %s", bad)}
				}
				if asJSON {
					writeJSON(out, map[string]any{"type": "rejected", "player": p, "move": bad.String(), "error": err.Error()})
				} else {
					fmt.Fprintf(out, "   ✗  %s tries %s — rejected: %v\n", names[p], bad, err)
				}
				_ = board.Alert(ctx, p, 1500*time.Millisecond)
				showBoard(fmt.Sprintf("scoreboard flashes %s's display", names[p]))
			}
		}
		var m engine.Move
		m, moves = bot.Choose(&g.State, rng, moves)
		if err := g.Play(p, m); err != nil {
			return &exitError{code: 1, msg: fmt.Sprintf("blueprints play: %s's move %s: %v", names[p], m, err)}
		}
	}
	if err := log.close("play"); err != nil {
		return err
	}
	log = nil
	res := gameJSON(&g.State, len(g.Events()))
	if asJSON {
		writeJSON(out, res)
	} else {
		writeGameText(out, res)
	}
	return nil
}

// illegalMove picks a placement the current player may not make (a die on
// a hatched cell or on a higher value), as a careless hand would.
func illegalMove(s *engine.State, rng *rand.Rand) (engine.Move, bool) {
	p := s.Current()
	seat := &s.Seats[p]
	offer := s.OfferDice()
	var bad []engine.Move
	for _, d := range offer {
		for r := 0; r < engine.Rows; r++ {
			for c := 0; c < engine.Cols; c++ {
				if engine.CheckPlacement(&seat.Blueprint, &seat.Building, d, r, c) != nil {
					bad = append(bad, engine.Move{Die: d, Row: r, Col: c})
				}
			}
		}
	}
	if len(bad) == 0 {
		return engine.Move{}, false
	}
	return bad[rng.IntN(len(bad))], true
}

// showOnBoard keeps the scoreboard in step with the game: each player's
// live round score while building, round results, then victory points.
func showOnBoard(ctx context.Context, b display, s *engine.State, e engine.Event) {
	switch e.Kind {
	case engine.RoundStarted:
		for p := 0; p < s.N; p++ {
			_ = b.SetText(ctx, p, fmt.Sprintf("r%d %s", e.Round, shortName(s.Setup.Players[p])))
		}
	case engine.DiePlaced:
		seat := &s.Seats[e.Player]
		_ = b.SetScore(ctx, int(e.Player), engine.Score(&seat.Blueprint, &seat.Building).Total)
	case engine.BuildingScored:
		_ = b.SetScore(ctx, int(e.Player), e.Score.Total)
	case engine.GameEnded:
		for p := 0; p < s.N; p++ {
			_ = b.SetText(ctx, p, fmt.Sprintf("%2d VP", s.Seats[p].VP(s.Setup.VP)))
		}
		for _, w := range s.Winners() {
			_ = b.SetText(ctx, w, fmt.Sprintf("%2dVP 1st", s.Seats[w].VP(s.Setup.VP)))
		}
	}
}

func indent(s, pre string) string {
	lines := strings.SplitAfter(s, "\n")
	for i, l := range lines {
		if l != "" {
			lines[i] = pre + l
		}
	}
	return strings.Join(lines, "")
}

func shortName(n string) string {
	if len(n) > 4 {
		return n[:4]
	}
	return n
}

// lastDrawing keeps only the virtual scoreboard's latest drawing, so that
// the game can show the board at the moments that matter (an alert, the end
// of a round, the end of the game) instead of after every die.
type lastDrawing struct{ text string }

func (l *lastDrawing) Write(p []byte) (int, error) {
	l.text = strings.ReplaceAll(string(p), "\a", "")
	return len(p), nil
}

// openPlayBoard opens the serial scoreboard named by --port or --vid-pid,
// or else the virtual one, which draws into last.
func openPlayBoard(ctx context.Context, v *viper.Viper, players int, last *lastDrawing) (display, error) {
	port, vidpid := v.GetString("port"), v.GetString("vid-pid")
	if port == "" && vidpid == "" {
		return hardware.NewVirtual(last, players), nil
	}
	octx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	s, err := hardware.OpenSerial(octx, hardware.SerialOptions{Port: port, VIDPID: vidpid})
	if err != nil {
		return nil, &exitError{code: 1, msg: fmt.Sprintf("blueprints play: scoreboard: %v", err)}
	}
	// A board with fewer displays than players would leave the last
	// players without a score: refuse to start, naming both counts.
	if n := s.Displays(); n < players {
		_ = s.Close()
		where := port
		if where == "" {
			where = "USB " + vidpid
		}
		fix := "leave out --port and --vid-pid to play on the virtual scoreboard"
		if n >= engine.MinPlayers {
			fix = fmt.Sprintf("play with --players %d, or %s", n, fix)
		}
		return nil, &exitError{code: 2, msg: fmt.Sprintf("blueprints play: scoreboard on %s has %d displays; %d players need %d (%s)", where, n, players, players, fix)}
	}
	return &patientBoard{display: s, wait: boardWait}, nil
}

// boardWait is how long play waits for the board to take one change.
const boardWait = 2 * time.Second

// stuckWait is how long play waits a call for a board that let a call
// run out of time, until it answers one in time again.
const stuckWait = 50 * time.Millisecond

// patientBoard waits for the board at most wait a call, and after a call
// that ran out of time only stuckWait: the serial driver keeps what the
// displays should show and pushes it once the board answers, so a board
// that stalls never stalls the game.
type patientBoard struct {
	display
	wait  time.Duration
	stuck bool
}

func (b *patientBoard) call(ctx context.Context, f func(context.Context) error) error {
	wait := b.wait
	if b.stuck {
		wait = stuckWait
	}
	cctx, cancel := context.WithTimeout(ctx, wait)
	defer cancel()
	err := f(cctx)
	if errors.Is(err, context.DeadlineExceeded) && ctx.Err() == nil {
		b.stuck = true
	} else if err == nil {
		b.stuck = false
	}
	return err
}

func (b *patientBoard) SetScore(ctx context.Context, player, score int) error {
	return b.call(ctx, func(ctx context.Context) error { return b.display.SetScore(ctx, player, score) })
}

func (b *patientBoard) SetText(ctx context.Context, player int, text string) error {
	return b.call(ctx, func(ctx context.Context) error { return b.display.SetText(ctx, player, text) })
}

func (b *patientBoard) Alert(ctx context.Context, player int, d time.Duration) error {
	return b.call(ctx, func(ctx context.Context) error { return b.display.Alert(ctx, player, d) })
}
