package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/blueprints-companion/blueprints/engine"
)

// gameOutput is a game's results as JSON; simulate, replay and play share it.
type gameOutput struct {
	Seed      uint64        `json:"seed"`
	Players   []string      `json:"players"`
	Complete  bool          `json:"complete"`
	Events    int           `json:"events"`
	Rounds    []roundOutput `json:"rounds"`
	Final     []finalOut    `json:"final,omitempty"`
	Winners   []string      `json:"winners,omitempty"`
	DecidedBy string        `json:"decided_by,omitempty"`
}

type finalOut struct {
	Name   string `json:"name"`
	VP     int    `json:"vp"`
	Prizes int    `json:"prizes"`
	Gold   int    `json:"gold"`
	Silver int    `json:"silver"`
	Bronze int    `json:"bronze"`
}

// gameJSON collects the results of the rounds a state has finished and, when
// the game is over, the final standings.
func gameJSON(s *engine.State, events int) gameOutput {
	out := gameOutput{Seed: s.Setup.Seed, Players: s.Setup.Players, Complete: s.Phase == engine.PhaseGameOver, Events: events}
	done := s.Round
	if s.Phase != engine.PhaseSetup && s.Phase != engine.PhaseGameOver {
		done-- // the current round is still being played
	}
	for r := 0; r < done; r++ {
		rec := &s.History[r]
		res := rec.Result(s.N)
		names := make([]string, s.N)
		players := make([]engine.RoundPlayer, s.N)
		for pos := 0; pos < s.N; pos++ {
			seat := rec.Order[pos]
			names[pos] = s.Setup.Players[seat]
			players[pos] = engine.RoundPlayer{Blueprint: rec.Blueprint[seat], Building: rec.Building[seat]}
		}
		ro := roundJSON(&res, names, players)
		ro.Round = r + 1
		out.Rounds = append(out.Rounds, ro)
	}
	if !out.Complete {
		return out
	}
	st := s.Standings()
	for _, x := range st {
		out.Final = append(out.Final, finalOut{Name: s.Setup.Players[x.Seat], VP: x.VP, Prizes: x.Prizes, Gold: x.Awards[engine.Gold], Silver: x.Awards[engine.Silver], Bronze: x.Awards[engine.Bronze]})
	}
	for _, w := range s.Winners() {
		out.Winners = append(out.Winners, s.Setup.Players[w])
	}
	out.DecidedBy = "only player"
	if len(st) > len(s.Winners()) {
		out.DecidedBy = engine.EndStep(st[0], st[len(s.Winners())])
	}
	if len(s.Winners()) > 1 {
		out.DecidedBy = "shared: tied on vp, prizes, gold, silver and bronze"
	}
	return out
}

// writeGameText prints a game's results for people.
func writeGameText(w io.Writer, g gameOutput) {
	for _, r := range g.Rounds {
		fmt.Fprintf(w, "\nRound %d — in demand: %s first, %s second\n", r.Round, colourOf(r.InDemand[0]), colourOf(r.InDemand[1]))
		fmt.Fprintf(w, "  %-8s %-4s %-9s %5s %4s %4s %4s %4s %5s  %s\n", "player", "turn", "blueprint", "bonus", "wood", "rec", "ston", "glas", "total", "building (rows top to bottom)")
		for _, p := range r.Players {
			var rows []string
			for _, row := range p.Building {
				cells := make([]string, len(row))
				for i, c := range row {
					cells[i] = c
					if c == "" {
						cells[i] = "-"
					}
				}
				rows = append(rows, strings.Join(cells, " | "))
			}
			fmt.Fprintf(w, "  %-8s %-4d %-9s %5d %4d %4d %4d %4d %5d  %s\n", p.Name, p.Turn, p.Blueprint, p.Bonus, p.Wood, p.Recycled, p.Stone, p.Glass, p.Total, strings.Join(rows, " / "))
		}
		line := func(card string, who *string, why reasonOut) {
			if who == nil {
				return
			}
			fmt.Fprintf(w, "  %-21s %-8s (%s: %s)\n", card+":", *who, why.DecidedBy, why.Detail)
		}
		line("gold", r.Awards.Gold, r.Reasons.Gold)
		line("silver", r.Awards.Silver, r.Reasons.Silver)
		line("bronze", r.Awards.Bronze, r.Reasons.Bronze)
		line("skyscraper", r.Prizes.Skyscraper, r.Reasons.Skyscraper)
		line("structural-integrity", r.Prizes.StructuralIntegrity, r.Reasons.StructuralIntegrity)
		line("geometrist", r.Prizes.Geometrist, r.Reasons.Geometrist)
		line("materials", r.Prizes.Materials, r.Reasons.Materials)
	}
	if !g.Complete {
		fmt.Fprintf(w, "\nGame not finished: %d events, %d rounds scored.\n", g.Events, len(g.Rounds))
		return
	}
	fmt.Fprintf(w, "\nFinal (victory points from award and prize cards):\n")
	for i, f := range g.Final {
		fmt.Fprintf(w, "  %d. %-8s %2d VP  (prizes %d, gold %d, silver %d, bronze %d)\n", i+1, f.Name, f.VP, f.Prizes, f.Gold, f.Silver, f.Bronze)
	}
	verb := "wins"
	if len(g.Winners) > 1 {
		verb = "share the win"
	}
	fmt.Fprintf(w, "%s %s (decided by %s)\n", strings.Join(g.Winners, " and "), verb, g.DecidedBy)
}

func colourOf(letter string) string {
	m, err := engine.ParseMaterial(letter)
	if err != nil {
		return letter
	}
	return m.Colour()
}

// describe is an event in words, with player names.
func describe(s *engine.State, e engine.Event) string {
	name := func(seat int8) string {
		if seat >= 0 && int(seat) < len(s.Setup.Players) {
			return s.Setup.Players[seat]
		}
		return fmt.Sprintf("seat %d", seat)
	}
	switch e.Kind {
	case engine.GameStarted:
		return fmt.Sprintf("game starts: %s (seed %d)", strings.Join(e.Setup.Players, ", "), e.Setup.Seed)
	case engine.RoundStarted:
		var names []string
		for _, p := range e.Order[:e.NOrder] {
			names = append(names, name(p))
		}
		return fmt.Sprintf("round %d: turn order %s", e.Round, strings.Join(names, ", "))
	case engine.InDemandDrawn:
		return fmt.Sprintf("in demand: %s first, %s second", e.Dice[0].Mat.Colour(), e.Dice[1].Mat.Colour())
	case engine.BlueprintDealt:
		return fmt.Sprintf("%s is dealt blueprint #%d %s", name(e.Player), e.Card, e.Layout)
	case engine.OfferDrawn:
		return fmt.Sprintf("offer: %s", engine.FormatDice(e.DiceList()))
	case engine.DiePlaced:
		return fmt.Sprintf("%s places %s at row %d col %d, level %d", name(e.Player), e.Die, e.Row, e.Col, e.Level)
	case engine.DieRemoved:
		return fmt.Sprintf("%s can place no die of the offer and removes %s from the round", name(e.Player), e.Die)
	case engine.DieDiscarded:
		return fmt.Sprintf("%s discards %s", name(e.Player), e.Die)
	case engine.DiceDrawn:
		if e.NDice == 0 {
			return "the bag is empty: nothing drawn"
		}
		return fmt.Sprintf("drawn into the offer: %s", engine.FormatDice(e.DiceList()))
	case engine.BuildingScored:
		sc := e.Score
		return fmt.Sprintf("%s scores %d (bonus %d, wood %d, recycled %d, stone %d, glass %d)", name(e.Player), sc.Total, sc.Bonus, sc.Wood, sc.Recycled, sc.Stone, sc.Glass)
	case engine.AwardGiven:
		return fmt.Sprintf("%s takes the %s award", name(e.Player), e.Award)
	case engine.PrizeGiven:
		return fmt.Sprintf("%s takes the %s prize", name(e.Player), e.Prize)
	case engine.RoundEnded:
		return fmt.Sprintf("round %d ends: dice back in the bag", e.Round)
	case engine.GameEnded:
		var names []string
		for _, p := range e.Order[:e.NOrder] {
			names = append(names, name(p))
		}
		return fmt.Sprintf("game over: %s", strings.Join(names, " and "))
	}
	return e.Kind.String()
}
