package engine

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var seatNames = []string{"Ana", "Ben", "Cleo", "Dev"}

func newGame(t testing.TB, players int, seed uint64) *Game {
	t.Helper()
	g, err := NewGame(Options{Players: seatNames[:players], Seed: seed, Catalogue: loadCatalogue(t)})
	require.NoError(t, err)
	return g
}

func playOut(t testing.TB, g *Game, bot Bot, seed uint64) {
	t.Helper()
	bots := []Bot{bot, bot, bot, bot}
	require.NoError(t, PlayOut(g, bots[:g.N], rand.New(rand.NewPCG(seed, 7))))
}

func TestNewGameOptions(t *testing.T) {
	cat := loadCatalogue(t)
	cases := map[string]Options{
		"one player":    {Players: []string{"A"}, Catalogue: cat},
		"five players":  {Players: []string{"A", "B", "C", "D", "E"}, Catalogue: cat},
		"empty name":    {Players: []string{"A", ""}, Catalogue: cat},
		"same name":     {Players: []string{"A", "A"}, Catalogue: cat},
		"first too big": {Players: []string{"A", "B"}, First: 2, Catalogue: cat},
		"small deck":    {Players: []string{"A", "B", "C", "D"}, Catalogue: Catalogue{Cards: cat.Cards[:11]}},
	}
	for name, o := range cases {
		t.Run(name, func(t *testing.T) {
			_, err := NewGame(o)
			assert.ErrorIs(t, err, ErrBadOptions)
		})
	}
}

func TestSetupPerPlayerCount(t *testing.T) {
	for _, n := range []int{2, 3, 4} {
		t.Run(fmt.Sprintf("%d players", n), func(t *testing.T) {
			g := newGame(t, n, 11)
			want := map[int]int{2: 8, 3: 9, 4: 7}[n]
			assert.Equal(t, want, g.NOffer, "offer size")
			assert.Equal(t, TotalDice-2-want, g.BagCount())
			assert.Equal(t, TotalDice, g.DiceAccounted())
			assert.NotEqual(t, g.InDemand[0], g.InDemand[1], "in-demand colours differ")
			assert.Equal(t, PhaseTake, g.Phase)
			assert.Equal(t, 0, g.Current(), "round 1 starts with the chosen first player")
			for i := 1; i < g.NOffer; i++ {
				assert.LessOrEqual(t, g.Offer[i-1].Pips, g.Offer[i].Pips, "offer sorted by value")
			}
			cards := map[int]bool{}
			for p := 0; p < n; p++ {
				assert.NotZero(t, g.Seats[p].Card)
				cards[g.Seats[p].Card] = true
			}
			assert.Len(t, cards, n, "each player gets a different card")
		})
	}
	g, err := NewGame(Options{Players: seatNames[:3], First: 2, Seed: 3, Catalogue: loadCatalogue(t)})
	require.NoError(t, err)
	assert.Equal(t, [MaxPlayers]int8{2, 0, 1, 0}, g.Order, "clockwise from the chosen player")
}

// drawsOfRound returns the number of dice each dice-drawn event of round r drew.
func drawsOfRound(events []Event, r int) []int {
	var out []int
	for _, e := range events {
		if e.Kind == DiceDrawn && int(e.Round) == r {
			out = append(out, int(e.NDice))
		}
	}
	return out
}

func TestBagAndDrawsPerPlayerCount(t *testing.T) {
	for _, n := range []int{2, 3, 4} {
		t.Run(fmt.Sprintf("%d players", n), func(t *testing.T) {
			g := newGame(t, n, 5)
			var bagAtScoring []int
			g.OnEvent = func(e Event) {
				if e.Kind == BuildingScored && e.Player == g.Order[0] {
					bagAtScoring = append(bagAtScoring, g.BagCount())
				}
			}
			playOut(t, g, RandomBot{}, 5)
			for r := 1; r <= Rounds; r++ {
				draws := drawsOfRound(g.Events(), r)
				require.Len(t, draws, 6*n, "one draw per turn")
				per := 1
				if n == 2 {
					per = 2
				}
				for i, d := range draws[:len(draws)-1] {
					assert.Equal(t, per, d, "round %d turn %d", r, i+1)
				}
				switch n {
				case 2, 4:
					assert.Equal(t, 0, draws[len(draws)-1], "the bag runs out exactly at the last turn: nothing is drawn")
					assert.Equal(t, 0, bagAtScoring[r-1])
				case 3:
					assert.Equal(t, 1, draws[len(draws)-1])
					assert.Equal(t, 3, bagAtScoring[r-1], "3 players leave 3 dice in the bag")
				}
			}
		})
	}
}

func TestEmptyBagDrawsWhatIsLeft(t *testing.T) {
	g := newGame(t, 2, 1)
	g.Bag = [NumMaterials]int8{0, 1, 0, 0}
	g.Phase = PhaseDraw
	assert.Equal(t, 1, g.drawCount(), "two players draw two, but only one is left")
	g.Bag = [NumMaterials]int8{}
	assert.Equal(t, 0, g.drawCount(), "draw nothing from an empty bag")
}

func TestTwoPlayerDiscard(t *testing.T) {
	g := newGame(t, 2, 9)
	offer := g.OfferDice()
	var m Move
	moves := g.LegalMoves(nil)
	require.NotEmpty(t, moves)
	m = moves[0]
	assert.ErrorIs(t, g.Check(0, m), ErrNeedDiscard)
	m.Discard = Die{Mat: Wood, Pips: 6}
	if g.offerIndex(m.Discard) >= 0 {
		m.Discard = Die{Mat: Glass, Pips: 6}
	}
	if g.offerIndex(m.Discard) < 0 {
		assert.ErrorIs(t, g.Check(0, m), ErrNotInOffer)
	}
	// Discard the first die of the offer other than the one taken.
	for _, d := range offer {
		if d != m.Die {
			m.Discard = d
			break
		}
	}
	require.NoError(t, g.Play(0, m))
	evs := g.Events()
	n := len(evs)
	assert.Equal(t, DiePlaced, evs[n-3].Kind)
	assert.Equal(t, DieDiscarded, evs[n-2].Kind)
	assert.Equal(t, m.Discard, evs[n-2].Die)
	assert.Equal(t, DiceDrawn, evs[n-1].Kind)
	assert.Equal(t, 2, int(evs[n-1].NDice), "two players draw two")
	assert.Equal(t, 8, g.NOffer, "the offer stays at 8")
	assert.Equal(t, 1, g.Discarded)
	assert.Equal(t, TotalDice, g.DiceAccounted())

	g3 := newGame(t, 3, 9)
	m3 := g3.LegalMoves(nil)[0]
	m3.Discard = g3.Offer[g3.NOffer-1]
	assert.ErrorIs(t, g3.Check(0, m3), ErrNoDiscard, "only a 2-player game discards")
}

func TestIllegalMovesLeaveTheGameUntouched(t *testing.T) {
	g := newGame(t, 3, 21)
	// Build up a little so there is a stack to misplace on.
	playTurns(t, g, 7)
	p := g.Current()
	seat := &g.Seats[p]
	type tc struct {
		name   string
		player int
		move   Move
		want   error
	}
	var cases []tc
	cases = append(cases, tc{"not your turn", (p + 1) % g.N, g.LegalMoves(nil)[0], ErrNotYourTurn})
	cases = append(cases, tc{"die not in the offer", p, Move{Die: missingDie(&g.State), Row: 0, Col: 0}, ErrNotInOffer})
	for r := 0; r < Rows; r++ {
		for c := 0; c < Cols; c++ {
			if seat.Blueprint[r][c] == Hatched {
				cases = append(cases, tc{"hatched cell", p, Move{Die: g.Offer[0], Row: r, Col: c}, ErrHatched})
			} else if top, ok := seat.Building[r][c].Top(); ok && top.Pips > g.Offer[0].Pips {
				cases = append(cases, tc{"on a higher value", p, Move{Die: g.Offer[0], Row: r, Col: c}, ErrHigherBelow})
			}
		}
	}
	cases = append(cases, tc{"off the card", p, Move{Die: g.Offer[0], Row: 3, Col: 0}, ErrOffCard})
	if g.CanPlaceAny(p) {
		cases = append(cases, tc{"removal while a die fits", p, Move{Die: g.Offer[0], Remove: true}, ErrCanPlace})
	}
	require.GreaterOrEqual(t, len(cases), 4)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			before := g.State
			n := len(g.Events())
			err := g.Play(c.player, c.move)
			require.Error(t, err)
			assert.ErrorIs(t, err, c.want)
			assert.Equal(t, before, g.State, "state untouched")
			assert.Len(t, g.Events(), n, "no event recorded")
		})
	}
	playOut(t, g, RandomBot{}, 1)
	assert.ErrorIs(t, g.Play(0, Move{}), ErrGameOver)
}

// missingDie returns a die that is not in the offer.
func missingDie(s *State) Die {
	for _, m := range Materials {
		for p := 1; p <= 6; p++ {
			if d := D(m, p); s.offerIndex(d) < 0 {
				return d
			}
		}
	}
	return Die{}
}

func playTurns(t testing.TB, g *Game, n int) {
	t.Helper()
	rng := rand.New(rand.NewPCG(3, 3))
	for i := 0; i < n; i++ {
		m, _ := RandomBot{}.Choose(&g.State, rng, nil)
		require.NoError(t, g.Play(g.Current(), m))
	}
}

func TestForcedRemoval(t *testing.T) {
	// Find a game where a player could place nothing, then check that
	// moment: no legal placement, the removal is accepted, and it counts as
	// one of the player's 6 dice.
	for seed := uint64(1); seed < 200; seed++ {
		g := newGame(t, 4, seed)
		var at int = -1
		playOut(t, g, RandomBot{}, seed)
		for i, e := range g.Events() {
			if e.Kind == DieRemoved {
				at = i
				break
			}
		}
		if at < 0 {
			continue
		}
		s, err := Replay(g.Events()[:at])
		require.NoError(t, err)
		p := int(g.Events()[at].Player)
		assert.Equal(t, p, s.Current())
		assert.False(t, s.CanPlaceAny(p), "no die of the offer fits")
		moves := s.LegalMoves(nil)
		require.NotEmpty(t, moves)
		for _, m := range moves {
			assert.True(t, m.Remove, "only removals are legal")
		}
		taken := s.Seats[p].Taken
		require.NoError(t, s.Apply(g.Events()[at]))
		assert.Equal(t, taken+1, s.Seats[p].Taken, "a removed die counts as one of the 6")
		assert.Equal(t, 1, s.Seats[p].Removed)
		assert.Equal(t, TotalDice, s.DiceAccounted())
		return
	}
	t.Fatal("no forced removal in 200 random games")
}

func TestTurnOrderNextRounds(t *testing.T) {
	cases := []struct {
		name   string
		order  [MaxPlayers]int8
		scores [MaxPlayers]int
		want   [MaxPlayers]int8
	}{
		{"fewest points starts", [MaxPlayers]int8{0, 1, 2, 3}, [MaxPlayers]int{20, 25, 12, 30}, [MaxPlayers]int8{2, 3, 0, 1}},
		{"tie: who played earliest last round", [MaxPlayers]int8{1, 2, 3, 0}, [MaxPlayers]int{12, 20, 30, 12}, [MaxPlayers]int8{3, 0, 1, 2}},
		{"tie: earliest even if seat is higher", [MaxPlayers]int8{3, 0, 1, 2}, [MaxPlayers]int{12, 20, 30, 12}, [MaxPlayers]int8{3, 0, 1, 2}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := State{N: 4}
			s.History[0].Order = c.order
			for i, sc := range c.scores {
				s.History[0].Scores[i].Total = sc
			}
			assert.Equal(t, c.want, s.turnOrderFor(2))
		})
	}
}

func TestEndOfGameTieBreak(t *testing.T) {
	type cards struct{ gold, silver, bronze, prizes int }
	noBronzeVP := VictoryPoints{Gold: 3, Silver: 2, Bronze: 0, Prize: 2}
	cases := []struct {
		name    string
		vp      VictoryPoints
		seats   []cards
		winners []int
		step    string
	}{
		{"most VP", DefaultVP, []cards{{1, 0, 0, 0}, {0, 2, 0, 0}, {0, 0, 1, 0}}, []int{1}, "vp"},
		{"tied VP: most prizes", DefaultVP, []cards{{0, 1, 0, 1}, {0, 2, 0, 0}, {0, 0, 0, 0}}, []int{0}, "prizes"},
		{"then most gold", DefaultVP, []cards{{2, 0, 0, 0}, {0, 3, 0, 0}, {0, 0, 0, 0}}, []int{0}, "gold"},
		{"then most silver", DefaultVP, []cards{{0, 0, 2, 0}, {0, 1, 0, 0}, {0, 0, 0, 0}}, []int{1}, "silver"},
		// With the default values equal VP, prizes, gold and silver mean
		// equal bronze; with bronze worth nothing (a table's choice in the
		// config) bronze can still decide.
		{"then most bronze", noBronzeVP, []cards{{1, 0, 0, 0}, {1, 0, 2, 0}, {0, 0, 0, 0}}, []int{1}, "bronze"},
		{"still tied: shared win", DefaultVP, []cards{{1, 0, 0, 1}, {0, 0, 0, 0}, {1, 0, 0, 1}}, []int{0, 2}, "vp"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := State{N: len(c.seats), Setup: Setup{VP: c.vp}}
			for i, k := range c.seats {
				s.Seats[i].Awards = [NumAwards]int{k.gold, k.silver, k.bronze}
				s.Seats[i].PrizeWins = k.prizes
			}
			w, n := s.computeWinners()
			got := make([]int, n)
			for i := range got {
				got[i] = int(w[i])
			}
			assert.Equal(t, c.winners, got)
			st := s.Standings()
			assert.Equal(t, c.step, EndStep(st[0], st[len(c.winners)]), "the step that separates the winners from the next")
		})
	}
}

func TestSameSeedSameGame(t *testing.T) {
	logOf := func(seed uint64, bot Bot) []byte {
		g := newGame(t, 4, seed)
		playOut(t, g, bot, seed)
		b, err := AppendLog(nil, g.Events())
		require.NoError(t, err)
		return b
	}
	assert.Equal(t, logOf(42, RandomBot{}), logOf(42, RandomBot{}))
	assert.Equal(t, logOf(42, GreedyBot{}), logOf(42, GreedyBot{}))
	assert.NotEqual(t, logOf(42, RandomBot{}), logOf(43, RandomBot{}))
}

func TestReplayEquality(t *testing.T) {
	for _, n := range []int{2, 3, 4} {
		for _, bot := range []Bot{RandomBot{}, GreedyBot{}} {
			t.Run(fmt.Sprintf("%d players %T", n, bot), func(t *testing.T) {
				g := newGame(t, n, uint64(100+n))
				playOut(t, g, bot, uint64(n))
				data, err := AppendLog(nil, g.Events())
				require.NoError(t, err)
				games, err := ParseLog(data)
				require.NoError(t, err)
				require.Len(t, games, 1)
				assert.Equal(t, g.Events(), games[0], "events survive the JSON log")
				s, err := Replay(games[0])
				require.NoError(t, err)
				assert.Equal(t, g.State, *s, "replay reaches the identical state")
				assert.Equal(t, g.Winners(), s.Winners())
				assert.Equal(t, g.Standings(), s.Standings())
			})
		}
	}
}

func TestReplayRejectsTamperedLogs(t *testing.T) {
	g := newGame(t, 3, 77)
	playOut(t, g, RandomBot{}, 77)
	find := func(k Kind) int {
		for i, e := range g.Events() {
			if e.Kind == k {
				return i
			}
		}
		t.Fatalf("no %s", k)
		return -1
	}
	cases := map[string]func(evs []Event){
		"placed die not in the offer": func(evs []Event) {
			i := find(DiePlaced)
			evs[i].Die = missingDie(mustReplay(t, evs[:i]))
		},
		"wrong score": func(evs []Event) { evs[find(BuildingScored)].Score.Total++ },
		"award to the wrong seat": func(evs []Event) {
			i := find(AwardGiven)
			evs[i].Player = (evs[i].Player + 1) % 3
		},
		"a missing event": func(evs []Event) {
			i := find(DiceDrawn)
			copy(evs[i:], evs[i+1:])
			evs[len(evs)-1] = Event{}
		},
		"wrong winner": func(evs []Event) {
			i := len(evs) - 1
			evs[i].Order[0] = (evs[i].Order[0] + 1) % 3
		},
		"same in-demand colours": func(evs []Event) {
			i := find(InDemandDrawn)
			evs[i].Dice[1].Mat = evs[i].Dice[0].Mat
		},
		// (the setup copied: the game's own events share it)
		"gold worth 2^62 points": func(evs []Event) {
			su := *evs[0].Setup
			su.VP.Gold = 1 << 62
			evs[0].Setup = &su
		},
		"gold worth -5 points": func(evs []Event) {
			su := *evs[0].Setup
			su.VP.Gold = -5
			evs[0].Setup = &su
		},
		"two players of one name": func(evs []Event) {
			su := *evs[0].Setup
			su.Players = []string{su.Players[0], su.Players[0], su.Players[2]}
			evs[0].Setup = &su
		},
		"a player without a name": func(evs []Event) {
			su := *evs[0].Setup
			su.Players = []string{su.Players[0], "", su.Players[2]}
			evs[0].Setup = &su
		},
	}
	for name, tamper := range cases {
		t.Run(name, func(t *testing.T) {
			evs := append([]Event(nil), g.Events()...)
			tamper(evs)
			_, err := Replay(evs)
			assert.Error(t, err)
		})
	}
	_, err := Replay(g.Events())
	assert.NoError(t, err, "the untampered log")
}

func mustReplay(t testing.TB, evs []Event) *State {
	s, err := Replay(evs)
	require.NoError(t, err)
	return s
}

func TestParseLogErrors(t *testing.T) {
	_, err := ParseLog([]byte("{\"seq\":1,\"type\":\"die-placed\",\"round\":1}\n"))
	assert.ErrorIs(t, err, ErrBadEvent, "an event before game-started")
	games, err := ParseLog([]byte("{\"seq\":1,\"type\":\"game-started\",\"setup\":{\"players\":[\"A\",\"B\"]}}\n\nnot json\n"))
	var le *LogError
	require.ErrorAs(t, err, &le)
	assert.Equal(t, 3, le.Line)
	assert.Len(t, games, 1, "what was read before the bad line is kept")
	_, err = ParseLog([]byte(`{"seq":1,"type":"teleport"}`))
	assert.ErrorIs(t, err, ErrUnknownEvent)
}

// TestRandomGamesKeepInvariants plays many random legal games of every
// player count and checks after every event that nothing breaks: 32 dice
// accounted for, legal buildings, 6 dice taken per player per round, the
// awards the player count gives, at most one of each prize per round.
func TestRandomGamesKeepInvariants(t *testing.T) {
	for _, n := range []int{2, 3, 4} {
		for _, bot := range []Bot{RandomBot{}, GreedyBot{}} {
			games := 150
			if _, greedy := bot.(GreedyBot); greedy {
				games = 40
			}
			for seed := uint64(1); seed <= uint64(games); seed++ {
				g := newGame(t, n, seed*31+uint64(n))
				var awards, prizes [Rounds + 1][]int
				var failed bool
				check := func(ok bool, format string, args ...any) {
					if !ok && !failed {
						failed = true
						t.Errorf("%d players, seed %d: "+format, append([]any{n, seed}, args...)...)
					}
				}
				g.OnEvent = func(e Event) {
					if g.Phase >= PhaseTake && g.Phase <= PhaseScoring {
						check(g.DiceAccounted() == TotalDice, "event %d: %d dice accounted for", e.Seq, g.DiceAccounted())
					}
					for p := 0; p < g.N; p++ {
						seat := &g.Seats[p]
						check(seat.Building.Dice()+seat.Removed == seat.Taken, "seat %d: %d dice + %d removed != %d taken", p, seat.Building.Dice(), seat.Removed, seat.Taken)
						check(seat.Taken <= DicePerRound, "seat %d took %d", p, seat.Taken)
					}
					switch e.Kind {
					case DiePlaced:
						seat := &g.Seats[e.Player]
						check(Validate(&seat.Blueprint, gridOf(&seat.Building)) == nil, "illegal building %s", seat.Building)
					case BuildingScored:
						check(g.Seats[e.Player].Taken == DicePerRound, "seat %d took %d dice this round", e.Player, g.Seats[e.Player].Taken)
					case AwardGiven:
						awards[e.Round] = append(awards[e.Round], int(e.Award))
					case PrizeGiven:
						prizes[e.Round] = append(prizes[e.Round], int(e.Prize))
					}
				}
				playOut(t, g, bot, seed)
				check(g.Over(), "game not over")
				for r := 1; r <= Rounds; r++ {
					want := []int{}
					for _, a := range AwardsFor(n) {
						want = append(want, int(a))
					}
					check(fmt.Sprint(awards[r]) == fmt.Sprint(want), "round %d awards %v, want %v", r, awards[r], want)
					seen := map[int]bool{}
					for _, p := range prizes[r] {
						check(!seen[p], "round %d: prize %d twice", r, p)
						seen[p] = true
					}
				}
				total := 0
				for p := 0; p < n; p++ {
					total += g.Seats[p].Awards[Gold] + g.Seats[p].Awards[Silver] + g.Seats[p].Awards[Bronze]
				}
				check(total == Rounds*(n-1), "%d awards handed out", total)
				if failed {
					return
				}
			}
		}
	}
}

func gridOf(b *Building) Grid {
	g := make(Grid, Rows)
	for r := range g {
		g[r] = make([][]Die, Cols)
		for c := range g[r] {
			g[r][c] = b[r][c].Dice()
		}
	}
	return g
}

func TestSimulate(t *testing.T) {
	st, err := Simulate(SimOptions{Players: 3, Games: 60, Seed: 5, Bot: "greedy", Catalogue: loadCatalogue(t)})
	require.NoError(t, err)
	sum := 0.0
	for _, s := range st.WinShare {
		sum += s
	}
	assert.InDelta(t, 1.0, sum, 1e-9, "win shares add up to 1")
	assert.Equal(t, 60*3*Rounds, st.RoundScore.Count)
	assert.LessOrEqual(t, st.RoundScore.Min, st.RoundScore.P10)
	assert.LessOrEqual(t, st.RoundScore.P10, st.RoundScore.P50)
	assert.LessOrEqual(t, st.RoundScore.P50, st.RoundScore.P90)
	assert.LessOrEqual(t, st.RoundScore.P90, st.RoundScore.Max)

	_, err = Simulate(SimOptions{Players: 3, Games: 1, Bot: "clever", Catalogue: loadCatalogue(t)})
	assert.ErrorIs(t, err, ErrBadOptions)
	_, err = Simulate(SimOptions{Players: 3, Games: 0, Bot: "random", Catalogue: loadCatalogue(t)})
	assert.ErrorIs(t, err, ErrBadOptions)
}
