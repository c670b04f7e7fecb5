package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/blueprints-companion/blueprints/engine"
	"github.com/spf13/viper"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// run executes the command line in-process and returns stdout, the exit
// code main would use, and the message main would print on stderr.
func run(t *testing.T, stdin string, args ...string) (string, int, string) {
	t.Helper()
	root := newRootCmd()
	var out bytes.Buffer
	root.SetIn(strings.NewReader(stdin))
	root.SetOut(&out)
	root.SetErr(&out)
	root.SetArgs(args)
	err := root.Execute()
	if err == nil {
		return out.String(), 0, ""
	}
	var ee *exitError
	if errors.As(err, &ee) {
		return out.String(), ee.code, ee.msg
	}
	return out.String(), 2, err.Error()
}

const workedA = `{"name":"A","blueprint":"12/1X/2X","building":[["W4","R2 G2"],["R3",""],["R1 G1",""]]}`
const workedB = `{"name":"B","blueprint":"3./1./2.","building":[["R1","R5"],["W2 S3",""],["W1","R4"]]}`

func TestScoreCommand(t *testing.T) {
	out, code, _ := run(t, `{"blueprint":"X1/31/1X","building":[["","W1"],["S3 G4","R2"],["W1",""]]}`, "score")
	require.Equal(t, 0, code)
	var got map[string]any
	require.NoError(t, json.Unmarshal([]byte(out), &got))
	assert.Equal(t, map[string]any{"bonus": 0.0, "wood": 4.0, "recycled": 2.0, "stone": 2.0, "glass": 4.0, "total": 12.0, "prizes": []any{}}, got)

	out, code, _ = run(t, `{"blueprint":"6X/XX/XX","building":[["S1 S2 S3 S4 S5 S6",""],["",""],["",""]]}`, "score")
	require.Equal(t, 0, code)
	require.NoError(t, json.Unmarshal([]byte(out), &got))
	assert.Equal(t, []any{"skyscraper", "geometrist", "materials"}, got["prizes"])
	assert.Equal(t, 6+2+3+5+8+8+8.0, got["total"])
}

func TestScoreIllegalBuilding(t *testing.T) {
	cases := map[string]struct {
		in   string
		want string
	}{
		"hatched cell":    {`{"blueprint":"X1/31/1X","building":[["W1",""],["",""],["",""]]}`, `{"violations":[{"row":1,"col":1,"level":1,"rule":"hatched-cell","die":"W1"}]}`},
		"on a higher one": {`{"blueprint":"X1/31/1X","building":[["",""],["S3 G2",""],["",""]]}`, `{"violations":[{"row":2,"col":1,"level":2,"rule":"die-on-higher-value","die":"G2"}]}`},
		"over 6 dice":     {`{"blueprint":"11/11/11","building":[["W1","W1"],["W1","W1"],["W1","W1 W2"]]}`, `{"violations":[{"row":3,"col":2,"level":2,"rule":"building-over-6-dice","die":"W2"}]}`},
		"stack taller 6":  {`{"blueprint":"6X/XX/XX","building":[["S1 S1 S1 S1 S1 S1 S1",""],["",""],["",""]]}`, `{"violations":[{"row":1,"col":1,"level":7,"rule":"stack-over-6","die":"S1"},{"row":1,"col":1,"level":7,"rule":"building-over-6-dice","die":"S1"}]}`},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			out, code, _ := run(t, c.in, "score")
			assert.Equal(t, 1, code)
			assert.JSONEq(t, c.want, out)
		})
	}
}

func TestScoreMalformedInput(t *testing.T) {
	cases := map[string]struct{ in, want string }{
		"bad JSON":         {`{"blueprint":`, "bad JSON"},
		"not an object":    {`[1,2]`, "want an object"},
		"unknown material": {`{"blueprint":"X1/31/1X","building":[["","Q1"],["",""],["",""]]}`, `building[0][1]: unknown material: die "Q1"`},
		"pips outside":     {`{"blueprint":"X1/31/1X","building":[["","W7"],["",""],["",""]]}`, `building[0][1]: pips outside 1-6: die "W7"`},
		"pips zero":        {`{"blueprint":"X1/31/1X","building":[["","W0"],["",""],["",""]]}`, `building[0][1]: pips outside 1-6`},
		"ragged grid":      {`{"blueprint":"X1/31/1X","building":[["",""],[""],["",""]]}`, "building[1]: row 2 has 1 cells, want 2"},
		"too few rows":     {`{"blueprint":"X1/31/1X","building":[["",""],["",""]]}`, "building: 2 rows, want 3"},
		"no blueprint":     {`{"building":[["",""],["",""],["",""]]}`, "blueprint: missing"},
		"bad blueprint":    {`{"blueprint":"X1/3Z/1X","building":[["",""],["",""],["",""]]}`, "blueprint: bad blueprint"},
		"cell not string":  {`{"blueprint":"X1/31/1X","building":[["",3],["",""],["",""]]}`, "building"},
		"null cell":        {`{"blueprint":"X1/31/1X","building":[["",null],["",""],["",""]]}`, "building[0][1]: null"},
		"unknown field":    {`{"blueprint":"X1/31/1X","building":[["",""],["",""],["",""]],"colour":1}`, "colour: unknown field"},
		"two values":       {`{"blueprint":"X1/31/1X","building":[["",""],["",""],["",""]]} {}`, "more than one value"},
		"empty stdin":      {``, `nothing on stdin: want one building as JSON, like {"blueprint":`},
		"only whitespace":  {" \n\t", "nothing on stdin: want one building as JSON"},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			out, code, msg := run(t, c.in, "score")
			assert.Equal(t, 2, code)
			assert.Empty(t, out, "nothing on stdout")
			assert.Contains(t, msg, c.want)
			assert.True(t, strings.HasPrefix(msg, "blueprints score: "), msg)
			assert.NotContains(t, msg, "\n", "one line")
		})
	}
}

func TestRoundWorkedExample(t *testing.T) {
	out, code, msg := run(t, `{"in_demand":["R","S"],"players":[`+workedA+`,`+workedB+`]}`, "round")
	require.Equal(t, 0, code, msg)
	var got struct {
		Players []struct {
			Name  string `json:"name"`
			Total int    `json:"total"`
		} `json:"players"`
		Awards  map[string]*string `json:"awards"`
		Prizes  map[string]*string `json:"prizes"`
		Reasons map[string]struct {
			DecidedBy string  `json:"decided_by"`
			Over      *string `json:"over"`
		} `json:"reasons"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &got))
	assert.Equal(t, 23, got.Players[0].Total)
	assert.Equal(t, 23, got.Players[1].Total)
	assert.Nil(t, got.Awards["gold"])
	require.NotNil(t, got.Awards["silver"])
	assert.Equal(t, "B", *got.Awards["silver"])
	assert.Nil(t, got.Awards["bronze"])
	assert.Equal(t, "in-demand-second", got.Reasons["silver"].DecidedBy)
	assert.Equal(t, "none", got.Reasons["gold"].DecidedBy)
	for _, p := range []string{"skyscraper", "structural-integrity", "geometrist", "materials"} {
		v, ok := got.Prizes[p]
		assert.True(t, ok, p)
		assert.Nil(t, v, p)
	}
	assert.Contains(t, out, `"awards":{"gold":null,"silver":"B","bronze":null}`)
}

func TestRoundPlayerCounts(t *testing.T) {
	p := func(name, glass string) string {
		return `{"name":"` + name + `","blueprint":"11/11/11","building":[["` + glass + `",""],["",""],["",""]]}`
	}
	out, code, msg := run(t, `{"in_demand":["W","S"],"players":[`+p("A", "G3")+`,`+p("B", "G6")+`,`+p("C", "G5")+`]}`, "round")
	require.Equal(t, 0, code, msg)
	assert.Contains(t, out, `"awards":{"gold":"B","silver":"C","bronze":null}`)
	out, code, msg = run(t, `{"in_demand":["W","S"],"players":[`+p("A", "G3")+`,`+p("B", "G6")+`,`+p("C", "G5")+`,`+p("D", "G1")+`]}`, "round")
	require.Equal(t, 0, code, msg)
	assert.Contains(t, out, `"awards":{"gold":"B","silver":"C","bronze":"A"}`)
	assert.Contains(t, out, `"ranking":["B","C","A","D"]`)
}

func TestRoundBadInput(t *testing.T) {
	a, b := workedA, workedB
	cases := map[string]struct {
		in   string
		code int
		want string
	}{
		"same in-demand colour": {`{"in_demand":["R","R"],"players":[` + a + `,` + b + `]}`, 2, "in_demand: both are green"},
		"one in-demand":         {`{"in_demand":["R"],"players":[` + a + `,` + b + `]}`, 2, "in_demand: 1 materials"},
		"bad in-demand":         {`{"in_demand":["R","Z"],"players":[` + a + `,` + b + `]}`, 2, "in_demand[1]"},
		"one player":            {`{"in_demand":["R","S"],"players":[` + a + `]}`, 2, "players: 1 players, want 2 to 4"},
		"five players":          {`{"in_demand":["R","S"],"players":[` + strings.Repeat(a+",", 4) + a + `]}`, 2, "players: 5 players"},
		"no name":               {`{"in_demand":["R","S"],"players":[{"blueprint":"11/11/11","building":[["",""],["",""],["",""]]},` + b + `]}`, 2, "players[0].name"},
		"same name":             {`{"in_demand":["R","S"],"players":[` + a + `,` + a + `]}`, 2, `players[1].name: "A" is used twice`},
		"bad die in a player":   {`{"in_demand":["R","S"],"players":[` + a + `,` + strings.Replace(b, "R5", "R9", 1) + `]}`, 2, "players[1].building[0][1]"},
		"empty stdin":           {``, 2, `nothing on stdin: want one round as JSON, like {"in_demand":`},
		"illegal building":      {`{"in_demand":["R","S"],"players":[` + a + `,` + strings.Replace(b, `"R5"`, `"R5 R4"`, 1) + `]}`, 1, ""},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			out, code, msg := run(t, c.in, "round")
			assert.Equal(t, c.code, code)
			if c.code == 2 {
				assert.Contains(t, msg, c.want)
			} else {
				// R4 on R5 breaks the order, and as B's 7th die it is one too many
				// (the 7th counted row by row is R4 at row 3 col 2).
				assert.JSONEq(t, `{"violations":[{"player":"B","row":1,"col":2,"level":2,"rule":"die-on-higher-value","die":"R4"},{"player":"B","row":3,"col":2,"level":1,"rule":"building-over-6-dice","die":"R4"}]}`, out)
			}
		})
	}
}

func TestSimulateThenReplayPrintsTheSameResults(t *testing.T) {
	dir := t.TempDir()
	log := filepath.Join(dir, "game.jsonl")
	simOut, code, msg := run(t, "", "simulate", "--players", "4", "--games", "1", "--seed", "9", "--bot", "greedy", "--log", log)
	require.Equal(t, 0, code, msg)
	assert.Contains(t, simOut, "games/s")
	repOut, code, msg := run(t, "", "replay", log)
	require.Equal(t, 0, code, msg)
	require.Contains(t, repOut, "Final (victory points")
	i := strings.Index(simOut, "\nRound 1")
	require.GreaterOrEqual(t, i, 0)
	assert.Equal(t, simOut[i:], repOut, "replay prints the same results")

	simJSON, code, _ := run(t, "", "simulate", "--players", "4", "--games", "1", "--seed", "9", "--bot", "greedy", "--json")
	require.Equal(t, 0, code)
	repJSON, code, _ := run(t, "", "replay", "--json", log)
	require.Equal(t, 0, code)
	var sim struct {
		Game json.RawMessage `json:"game"`
	}
	require.NoError(t, json.Unmarshal([]byte(simJSON), &sim))
	assert.JSONEq(t, string(sim.Game), repJSON)
}

func TestSimulateManyGames(t *testing.T) {
	dir := t.TempDir()
	log := filepath.Join(dir, "games.jsonl")
	out, code, msg := run(t, "", "simulate", "--players", "2", "--games", "25", "--seed", "3", "--log", log, "--json")
	require.Equal(t, 0, code, msg)
	var got struct {
		Stats struct {
			Games    int       `json:"games"`
			WinShare []float64 `json:"win_share"`
		} `json:"stats"`
		Rate float64 `json:"games_per_second"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &got))
	assert.Equal(t, 25, got.Stats.Games)
	assert.Len(t, got.Stats.WinShare, 2)
	assert.Greater(t, got.Rate, 0.0)
	rep, code, msg := run(t, "", "replay", log)
	require.Equal(t, 0, code, msg)
	assert.Equal(t, 25, strings.Count(rep, "=== game "), "every game of the log replays")
}

func TestReplayBadFiles(t *testing.T) {
	dir := t.TempDir()
	_, code, msg := run(t, "", "replay", filepath.Join(dir, "missing.jsonl"))
	assert.Equal(t, 2, code)
	assert.Contains(t, msg, "missing.jsonl")

	good := filepath.Join(dir, "good.jsonl")
	_, code, _ = run(t, "", "simulate", "--players", "3", "--games", "1", "--seed", "4", "--log", good)
	require.Equal(t, 0, code)
	data, err := os.ReadFile(good)
	require.NoError(t, err)
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")

	garbled := filepath.Join(dir, "garbled.jsonl")
	mixed := append(append([]string{}, lines[:40]...), "this is not json")
	require.NoError(t, os.WriteFile(garbled, []byte(strings.Join(mixed, "\n")), 0o644))
	out, code, msg := run(t, "", "replay", garbled)
	assert.Equal(t, 2, code)
	assert.Contains(t, msg, "line 41")
	assert.Contains(t, out, "Game not finished: 40 events", "what was read before the bad line is still shown")

	tampered := filepath.Join(dir, "tampered.jsonl")
	bad := append([]string{}, lines...)
	for i, l := range bad {
		if strings.Contains(l, `"type":"building-scored"`) {
			bad[i] = strings.Replace(l, `"total":`, `"total":1`, 1)
			break
		}
	}
	require.NoError(t, os.WriteFile(tampered, []byte(strings.Join(bad, "\n")), 0o644))
	_, code, msg = run(t, "", "replay", tampered)
	assert.Equal(t, 1, code)
	assert.Contains(t, msg, "building-scored")

	empty := filepath.Join(dir, "empty.jsonl")
	require.NoError(t, os.WriteFile(empty, nil, 0o644))
	_, code, msg = run(t, "", "replay", empty)
	assert.Equal(t, 2, code)
	assert.Contains(t, msg, "no game")
}

func TestBadFlags(t *testing.T) {
	cases := map[string][]string{
		"five players":  {"simulate", "--players", "5"},
		"no games":      {"simulate", "--games", "0"},
		"unknown bot":   {"simulate", "--bot", "clever"},
		"not a number":  {"simulate", "--games", "many"},
		"bad mistakes":  {"play", "--mistakes", "2"},
		"NaN mistakes":  {"play", "--mistakes", "NaN"},
		"play 1 player": {"play", "--players", "1"},
		"replay 2 args": {"replay", "a", "b"},
		"unknown flag":  {"score", "--colour"},
	}
	for name, args := range cases {
		t.Run(name, func(t *testing.T) {
			_, code, msg := run(t, "", args...)
			assert.Equal(t, 2, code)
			assert.NotEmpty(t, msg)
		})
	}
}

func TestPlayIsSeededAndJudgesMistakes(t *testing.T) {
	a, code, msg := run(t, "", "play", "--players", "2", "--seed", "3", "--mistakes", "0.5")
	require.Equal(t, 0, code, msg)
	b, _, _ := run(t, "", "play", "--players", "2", "--seed", "3", "--mistakes", "0.5")
	assert.Equal(t, a, b, "the same seed plays the same game")
	assert.Contains(t, a, "game over:")
	assert.Contains(t, a, "Final (victory points")
	assert.Contains(t, a, "rejected: engine: die")
	assert.Contains(t, a, "Ana discards")
}

func TestConfigAndEnvironment(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "table.yaml")
	require.NoError(t, os.WriteFile(cfg, []byte("vp:\n  gold: 7\nnames: \"Zoe,Yan\"\n"), 0o644))
	out, code, msg := run(t, "", "--config", cfg, "play", "--players", "2", "--json", "--mistakes", "0")
	require.Equal(t, 0, code, msg)
	first := strings.SplitN(out, "\n", 2)[0]
	assert.Contains(t, first, `"vp":{"gold":7,"silver":2,"bronze":1,"prize":2}`)
	assert.Contains(t, first, `"players":["Zoe","Yan"]`)

	t.Setenv("BLUEPRINTS_SEED", "12345")
	out, code, _ = run(t, "", "play", "--players", "2", "--json", "--mistakes", "0")
	require.Equal(t, 0, code)
	assert.Contains(t, strings.SplitN(out, "\n", 2)[0], `"seed":12345`)

	require.NoError(t, os.WriteFile(cfg, []byte("vp:\n  gold: lots\n"), 0o644))
	_, code, msg = run(t, "", "--config", cfg, "play")
	assert.Equal(t, 2, code)
	assert.Contains(t, msg, "vp.gold")

	_, code, msg = run(t, "", "--config", filepath.Join(dir, "nope.yaml"), "play")
	assert.Equal(t, 2, code)
	assert.Contains(t, msg, "nope.yaml")

	bad := filepath.Join(dir, "deck.json")
	require.NoError(t, os.WriteFile(bad, []byte(`{"cards":[{"id":1,"layout":"X1/21/1X"}]}`), 0o644))
	t.Setenv("BLUEPRINTS_CATALOGUE", bad)
	_, code, msg = run(t, "", "play")
	assert.Equal(t, 2, code)
	assert.Contains(t, msg, "deck.json")
}

// TestBinaryExitCodes runs the real binary, as a shell or a script would.
func TestBinaryExitCodes(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "blueprints")
	build := exec.Command("go", "build", "-o", bin, ".")
	build.Stderr = os.Stderr
	require.NoError(t, build.Run())
	cases := []struct {
		stdin  string
		code   int
		stdout string
		stderr string
	}{
		{`{"blueprint":"X1/31/1X","building":[["","W1"],["S3 G4","R2"],["W1",""]]}`, 0, `"total":12`, ""},
		{`{"blueprint":"X1/31/1X","building":[["W1",""],["",""],["",""]]}`, 1, `"violations"`, ""},
		{`{"blueprint":"X1/31/1X","building":[["","X1"],["",""],["",""]]}`, 2, "", "building[0][1]"},
	}
	for _, c := range cases {
		cmd := exec.Command(bin, "score")
		cmd.Stdin = strings.NewReader(c.stdin)
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		err := cmd.Run()
		code := 0
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			code = ee.ExitCode()
		}
		assert.Equal(t, c.code, code, c.stdin)
		assert.Contains(t, stdout.String(), c.stdout)
		if c.stderr != "" {
			assert.Contains(t, stderr.String(), c.stderr)
			assert.Equal(t, 1, strings.Count(stderr.String(), "\n"), "one line on stderr")
		} else {
			assert.Empty(t, stderr.String())
		}
	}
}

// TestRefusedRunKeepsTheLog: a play or simulate run that a later check
// refuses (after --log was opened) leaves a log already there as it was,
// and leaves no empty file where there was none.
func TestRefusedRunKeepsTheLog(t *testing.T) {
	dir := t.TempDir()
	kept := filepath.Join(dir, "kept.jsonl")
	_, code, msg := run(t, "", "play", "--players", "2", "--seed", "1", "--log", kept, "--json")
	require.Equal(t, 0, code, msg)
	before, err := os.ReadFile(kept)
	require.NoError(t, err)
	require.NotEmpty(t, before)
	for _, args := range [][]string{
		{"play", "--players", "2", "--first", "9"},
		{"play", "--players", "2", "--names", "A,A"},
		{"simulate", "--players", "2", "--games", "1", "--bot", "nobody"},
	} {
		_, code, msg = run(t, "", append(args, "--log", kept)...)
		require.Equal(t, 2, code, "%v: %s", args, msg)
		after, err := os.ReadFile(kept)
		require.NoError(t, err)
		assert.Equal(t, before, after, "%v emptied the log", args)
		fresh := filepath.Join(dir, "fresh.jsonl")
		_, code, _ = run(t, "", append(args, "--log", fresh)...)
		require.Equal(t, 2, code)
		assert.NoFileExists(t, fresh, "%v left an empty log", args)
	}
}

// TestPlayLogReachesTheFileAtOnce: play's log writes each event through
// to the file (a game stopped half-way keeps what it recorded);
// simulate's buffers.
func TestPlayLogReachesTheFileAtOnce(t *testing.T) {
	cat, err := catalogue(viper.New())
	require.NoError(t, err)
	g, err := engine.NewGame(engine.Options{Players: []string{"A", "B"}, Seed: 1, Catalogue: cat})
	require.NoError(t, err)
	for _, each := range []bool{true, false} {
		path := filepath.Join(t.TempDir(), "log.jsonl")
		l, err := createLog(path, "play", each)
		require.NoError(t, err)
		l.write(g.Events()[:1])
		data, err := os.ReadFile(path)
		require.NoError(t, err)
		assert.Equal(t, each, len(data) > 0, "flushEach %v: %d bytes before close", each, len(data))
		require.NoError(t, l.close("play"))
		data, err = os.ReadFile(path)
		require.NoError(t, err)
		assert.Equal(t, 1, strings.Count(string(data), "\n"))
	}
}

func TestPlayLogReplaysToTheSameResults(t *testing.T) {
	log := filepath.Join(t.TempDir(), "game.jsonl")
	playJSON, code, msg := run(t, "", "play", "--players", "3", "--seed", "8", "--log", log, "--json")
	require.Equal(t, 0, code, msg)
	lines := strings.Split(strings.TrimSpace(playJSON), "\n")
	results := lines[len(lines)-1]
	repJSON, code, msg := run(t, "", "replay", "--json", log)
	require.Equal(t, 0, code, msg)
	assert.JSONEq(t, results, repJSON)
}

// TestSettingOfTheWrongType: a setting from the environment or the config
// file that is not of its flag's type is named, not read as 0.
func TestSettingOfTheWrongType(t *testing.T) {
	t.Setenv("BLUEPRINTS_GAMES", "abc")
	_, code, msg := run(t, "", "simulate", "--players", "2")
	assert.Equal(t, 2, code)
	assert.Contains(t, msg, `setting games (BLUEPRINTS_GAMES or the config file): "abc" is not a whole number`)
	t.Setenv("BLUEPRINTS_GAMES", "3")
	_, code, msg = run(t, "", "simulate", "--players", "2", "--seed", "1")
	assert.Equal(t, 0, code, msg)
	t.Setenv("BLUEPRINTS_GAMES", "")
	cfg := filepath.Join(t.TempDir(), "b.yaml")
	require.NoError(t, os.WriteFile(cfg, []byte("players: [1]\nmistakes: lots\n"), 0o644))
	_, code, msg = run(t, "", "--config", cfg, "play")
	assert.Equal(t, 2, code)
	assert.Contains(t, msg, "is not a")
	// a flag given on the command line wins over a bad setting
	_, code, msg = run(t, "", "--config", cfg, "play", "--players", "2", "--mistakes", "0")
	assert.Equal(t, 0, code, msg)
}

// TestVPSettingOfTheWrongShape: a vp setting that is not a table of gold,
// silver, bronze and prize, or that has another key, is named, not ignored
// (`vp: 5` used to play with the default values).
func TestVPSettingOfTheWrongShape(t *testing.T) {
	cfg := filepath.Join(t.TempDir(), "table.yaml")
	for name, c := range map[string]struct{ yaml, want string }{
		"number":      {"vp: 5\n", `setting vp (BLUEPRINTS_VP or the config file): "5" is not a table of victory points: want gold, silver, bronze and prize under vp`},
		"list":        {"vp: [7, 2, 1, 2]\n", `setting vp (BLUEPRINTS_VP or the config file): "[7 2 1 2]" is not a table`},
		"word":        {"vp: lots\n", `"lots" is not a table`},
		"unknown key": {"vp:\n  gold: 7\n  platinum: 4\n", "setting vp.platinum: unknown: want gold, silver, bronze or prize"},
		"misspelt":    {"vp:\n  sliver: 3\n", "setting vp.sliver: unknown"},
	} {
		t.Run(name, func(t *testing.T) {
			require.NoError(t, os.WriteFile(cfg, []byte(c.yaml), 0o644))
			out, code, msg := run(t, "", "--config", cfg, "play", "--players", "2")
			assert.Equal(t, 2, code)
			assert.Contains(t, msg, c.want)
			assert.Empty(t, out)
		})
	}
	t.Run("environment", func(t *testing.T) {
		t.Setenv("BLUEPRINTS_VP", "5")
		_, code, msg := run(t, "", "simulate", "--players", "2", "--games", "1")
		assert.Equal(t, 2, code)
		assert.Contains(t, msg, `setting vp (BLUEPRINTS_VP or the config file): "5" is not a table`)
	})
	t.Run("empty table", func(t *testing.T) {
		require.NoError(t, os.WriteFile(cfg, []byte("vp: {}\n"), 0o644))
		out, code, msg := run(t, "", "--config", cfg, "play", "--players", "2", "--json", "--mistakes", "0")
		require.Equal(t, 0, code, msg)
		assert.Contains(t, strings.SplitN(out, "\n", 2)[0], `"vp":{"gold":3,"silver":2,"bronze":1,"prize":2}`)
	})
}
