package main

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/blueprints-companion/blueprints/engine"
	"github.com/spf13/cobra"
	"github.com/spf13/viper"
)

func init() { subcommands = append(subcommands, newScoreCmd, newRoundCmd) }

func newScoreCmd(v *viper.Viper) *cobra.Command {
	return &cobra.Command{
		Use:   "score",
		Short: "Score one building read as JSON on stdin",
		Long: `Score one building read as JSON on standard input:

  {"blueprint":"X1/31/1X","building":[["","W1"],["S3 G4","R2"],["W1",""]]}

Rows top to bottom, columns left to right, each cell a stack bottom to top.
Prints the points per rule and the prizes the building qualifies for.
Exit 1 for an illegal building (with the violations as JSON on stdout),
exit 2 for malformed input (one line on stderr naming the field).`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			data, err := io.ReadAll(cmd.InOrStdin())
			if err != nil {
				return &exitError{code: 2, msg: fmt.Sprintf("blueprints score: reading stdin: %v", err)}
			}
			in, err := parseScoreInput(data)
			if err != nil {
				return &exitError{code: 2, msg: "blueprints score: " + err.Error()}
			}
			out := cmd.OutOrStdout()
			if vs := engine.Validate(&in.blueprint, in.grid); vs != nil {
				writeJSON(out, map[string]any{"violations": vs})
				return &exitError{code: 1}
			}
			b, err := in.grid.Building()
			if err != nil {
				return &exitError{code: 2, msg: "blueprints score: building: " + err.Error()}
			}
			writeJSON(out, scoreOut(&in.blueprint, &b))
			return nil
		},
	}
}

type scoreOutput struct {
	engine.Breakdown
	Prizes []string `json:"prizes"`
}

func scoreOut(bp *engine.Blueprint, b *engine.Building) scoreOutput {
	return scoreOutput{Breakdown: engine.Score(bp, b), Prizes: engine.Qualifies(b).Names()}
}

func writeJSON(w io.Writer, v any) {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v)
}

func newRoundCmd(v *viper.Viper) *cobra.Command {
	return &cobra.Command{
		Use:   "round",
		Short: "Score a whole round read as JSON on stdin: points, awards, prizes",
		Long: `Score a whole round read as JSON on standard input:

  {"in_demand":["R","S"],
   "players":[{"name":"A","blueprint":"12/1X/2X","building":[...]}, ...]}

Players are listed in this round's turn order, first to last; the player
count (2-4) is the length of the list. Prints each player's breakdown, the
ranking, the awards and prizes (null when nobody gets one), and the step of
the tie-break chain that decided each. Exit codes as for score.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			data, err := io.ReadAll(cmd.InOrStdin())
			if err != nil {
				return &exitError{code: 2, msg: fmt.Sprintf("blueprints round: reading stdin: %v", err)}
			}
			in, err := parseRoundInput(data)
			if err != nil {
				return &exitError{code: 2, msg: "blueprints round: " + err.Error()}
			}
			out := cmd.OutOrStdout()
			type playerViolation struct {
				Player string `json:"player"`
				engine.Violation
			}
			var all []playerViolation
			players := make([]engine.RoundPlayer, len(in.players))
			names := make([]string, len(in.players))
			for i, p := range in.players {
				names[i] = p.name
				for _, v := range engine.Validate(&p.blueprint, p.grid) {
					all = append(all, playerViolation{Player: p.name, Violation: v})
				}
				if b, err := p.grid.Building(); err == nil {
					players[i] = engine.RoundPlayer{Blueprint: p.blueprint, Building: b}
				}
			}
			if all != nil {
				writeJSON(out, map[string]any{"violations": all})
				return &exitError{code: 1}
			}
			res := engine.ScoreRound(in.inDemand, players)
			writeJSON(out, roundJSON(&res, names, players))
			return nil
		},
	}
}

// roundOutput is a scored round as JSON; the round and game commands share it.
type roundOutput struct {
	Round    int              `json:"round,omitempty"`
	InDemand []string         `json:"in_demand"`
	Players  []roundPlayerOut `json:"players"`
	Ranking  []string         `json:"ranking"`
	Awards   awardsOut        `json:"awards"`
	Prizes   prizesOut        `json:"prizes"`
	Reasons  reasonsOut       `json:"reasons"`
}

type roundPlayerOut struct {
	Name      string                           `json:"name"`
	Turn      int                              `json:"turn"`
	Blueprint string                           `json:"blueprint"`
	Building  [engine.Rows][engine.Cols]string `json:"building"`
	engine.Breakdown
	InDemand  [2]int   `json:"in_demand"`
	Qualifies []string `json:"qualifies"`
}

type awardsOut struct {
	Gold   *string `json:"gold"`
	Silver *string `json:"silver"`
	Bronze *string `json:"bronze"`
}

type prizesOut struct {
	Skyscraper          *string `json:"skyscraper"`
	StructuralIntegrity *string `json:"structural-integrity"`
	Geometrist          *string `json:"geometrist"`
	Materials           *string `json:"materials"`
}

type reasonOut struct {
	DecidedBy string  `json:"decided_by"`
	Over      *string `json:"over"`
	Detail    string  `json:"detail"`
}

type reasonsOut struct {
	Gold                reasonOut `json:"gold"`
	Silver              reasonOut `json:"silver"`
	Bronze              reasonOut `json:"bronze"`
	Skyscraper          reasonOut `json:"skyscraper"`
	StructuralIntegrity reasonOut `json:"structural-integrity"`
	Geometrist          reasonOut `json:"geometrist"`
	Materials           reasonOut `json:"materials"`
}

// roundJSON turns a scored round into its JSON form; names and players are
// in the round's turn order.
func roundJSON(res *engine.RoundResult, names []string, players []engine.RoundPlayer) roundOutput {
	out := roundOutput{InDemand: []string{string(res.InDemand[0].Letter()), string(res.InDemand[1].Letter())}}
	for i, s := range res.Scores[:res.N] {
		p := roundPlayerOut{Name: names[i], Turn: i + 1, Blueprint: players[i].Blueprint.String(), Breakdown: s.Breakdown, InDemand: s.InDemand, Qualifies: s.Qualifies.Names()}
		for r := range p.Building {
			for c := range p.Building[r] {
				p.Building[r][c] = players[i].Building[r][c].String()
			}
		}
		out.Players = append(out.Players, p)
	}
	for _, i := range res.Ranking[:res.N] {
		out.Ranking = append(out.Ranking, names[i])
	}
	who := func(d engine.Decision) *string {
		if d.Winner < 0 {
			return nil
		}
		return &names[d.Winner]
	}
	reason := func(d engine.Decision, none string) reasonOut {
		r := reasonOut{DecidedBy: d.By.String(), Over: nil, Detail: none}
		if d.Winner >= 0 {
			r.Detail = res.Explain(d, names)
		}
		if d.Over >= 0 {
			r.Over = &names[d.Over]
		}
		return r
	}
	n := len(names)
	noAward := func(a engine.Award) string {
		return fmt.Sprintf("no %s award with %d players", a, n)
	}
	out.Awards = awardsOut{Gold: who(res.Awards[engine.Gold]), Silver: who(res.Awards[engine.Silver]), Bronze: who(res.Awards[engine.Bronze])}
	out.Prizes = prizesOut{
		Skyscraper:          who(res.Prizes[engine.Skyscraper]),
		StructuralIntegrity: who(res.Prizes[engine.StructuralIntegrity]),
		Geometrist:          who(res.Prizes[engine.Geometrist]),
		Materials:           who(res.Prizes[engine.MaterialsPrize]),
	}
	const noPrize = "no building qualified"
	out.Reasons = reasonsOut{
		Gold:                reason(res.Awards[engine.Gold], noAward(engine.Gold)),
		Silver:              reason(res.Awards[engine.Silver], noAward(engine.Silver)),
		Bronze:              reason(res.Awards[engine.Bronze], noAward(engine.Bronze)),
		Skyscraper:          reason(res.Prizes[engine.Skyscraper], noPrize),
		StructuralIntegrity: reason(res.Prizes[engine.StructuralIntegrity], noPrize),
		Geometrist:          reason(res.Prizes[engine.Geometrist], noPrize),
		Materials:           reason(res.Prizes[engine.MaterialsPrize], noPrize),
	}
	return out
}
