package main

import (
	"bufio"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"slices"

	"github.com/blueprints-companion/blueprints/configs"
	"github.com/blueprints-companion/blueprints/engine"
	"github.com/spf13/viper"
)

// catalogue loads the blueprint catalogue named by the "catalogue" setting,
// or the embedded default.
func catalogue(v *viper.Viper) (engine.Catalogue, error) {
	path := v.GetString("catalogue")
	data := configs.Blueprints
	if path != "" {
		var err error
		if data, err = os.ReadFile(path); err != nil {
			return engine.Catalogue{}, &exitError{code: 2, msg: fmt.Sprintf("blueprints: catalogue: %v", err)}
		}
	}
	cat, err := engine.ParseCatalogue(data)
	if err != nil {
		name := path
		if name == "" {
			name = "embedded configs/blueprints.json"
		}
		return cat, &exitError{code: 2, msg: fmt.Sprintf("blueprints: catalogue %s: %v", name, err)}
	}
	return cat, nil
}

// vpKeys are the settings under vp: a card's victory points each.
var vpKeys = []string{"gold", "silver", "bronze", "prize"}

// victoryPoints reads vp.gold, vp.silver, vp.bronze and vp.prize, and
// refuses a vp that is not a table of them (`vp: 5` was silently ignored)
// or that has other keys (a misspelt one would be).
func victoryPoints(v *viper.Viper) (engine.VictoryPoints, error) {
	vp := engine.DefaultVP
	if v.IsSet("vp") {
		m, ok := v.Get("vp").(map[string]any)
		if !ok {
			return vp, &exitError{code: 2, msg: fmt.Sprintf("blueprints: setting vp (BLUEPRINTS_VP or the config file): %q is not a table of victory points: want gold, silver, bronze and prize under vp, e.g. vp: {gold: 3, silver: 2, bronze: 1, prize: 2}", fmt.Sprint(v.Get("vp")))}
		}
		for _, k := range slices.Sorted(maps.Keys(m)) {
			if !slices.Contains(vpKeys, k) {
				return vp, &exitError{code: 2, msg: fmt.Sprintf("blueprints: setting vp.%s: unknown: want gold, silver, bronze or prize", k)}
			}
		}
	}
	for key, dst := range map[string]*int{"vp.gold": &vp.Gold, "vp.silver": &vp.Silver, "vp.bronze": &vp.Bronze, "vp.prize": &vp.Prize} {
		if !v.IsSet(key) {
			continue
		}
		n, err := castInt(v.Get(key))
		if err != nil || n < 0 || n > 99 {
			return vp, &exitError{code: 2, msg: fmt.Sprintf("blueprints: setting %s: %v is not a number of victory points (0-99)", key, v.Get(key))}
		}
		*dst = n
	}
	return vp, nil
}

func castInt(x any) (int, error) {
	switch t := x.(type) {
	case int:
		return t, nil
	case int64:
		return int(t), nil
	case float64:
		if t == float64(int(t)) {
			return int(t), nil
		}
	case string:
		var n int
		if _, err := fmt.Sscanf(t, "%d", &n); err == nil && fmt.Sprint(n) == t {
			return n, nil
		}
	}
	return 0, fmt.Errorf("not an integer: %v", x)
}

// gameSettings reads what every game-playing command needs: the bot named
// by --bot, the catalogue and the card values. name is the command, for
// messages.
func gameSettings(v *viper.Viper, name string) (engine.Bot, engine.Catalogue, engine.VictoryPoints, error) {
	bot, err := engine.NewBot(v.GetString("bot"))
	if err != nil {
		return nil, engine.Catalogue{}, engine.VictoryPoints{}, &exitError{code: 2, msg: fmt.Sprintf("blueprints %s: --bot %q: want random or greedy", name, v.GetString("bot"))}
	}
	cat, err := catalogue(v)
	if err != nil {
		return nil, cat, engine.VictoryPoints{}, err
	}
	vp, err := victoryPoints(v)
	return bot, cat, vp, err
}

// eventLog writes events to a file as JSON lines and keeps the first error,
// so a game goes on when the disk fails and the command reports it at the end.
// The file is opened at once (so a bad path fails before the game) but
// emptied only when the first event is written: a run refused by a later
// check leaves a log already there as it was.
type eventLog struct {
	f    *os.File
	w    *bufio.Writer
	buf  []byte
	err  error
	path string
	// created: the file did not exist before (removed again at close
	// if no event came); started: emptied, events written to it;
	// flushEach: each write reaches the file at once (play).
	created, started, flushEach bool
}

// createLog opens path for the event log; an empty path gives a nil log,
// whose methods do nothing. With flushEach every write reaches the file
// at once, so a game stopped half-way keeps what it recorded.
func createLog(path, name string, flushEach bool) (*eventLog, error) {
	if path == "" {
		return nil, nil
	}
	_, statErr := os.Stat(path)
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE, 0o644)
	if err != nil {
		return nil, &exitError{code: 2, msg: fmt.Sprintf("blueprints %s: --log: %v", name, err)}
	}
	return &eventLog{f: f, w: bufio.NewWriter(f), path: path, created: errors.Is(statErr, fs.ErrNotExist), flushEach: flushEach}, nil
}

func (l *eventLog) write(events []engine.Event) {
	if l == nil || l.err != nil {
		return
	}
	if !l.started {
		l.started = true
		if l.err = l.f.Truncate(0); l.err != nil {
			return
		}
	}
	l.buf, l.err = engine.AppendLog(l.buf[:0], events)
	if l.err == nil {
		_, l.err = l.w.Write(l.buf)
	}
	if l.err == nil && l.flushEach {
		l.err = l.w.Flush()
	}
}

// close flushes and closes the file and returns the first error, as an
// exitError for the command name.
func (l *eventLog) close(name string) error {
	if l == nil {
		return nil
	}
	if err := l.w.Flush(); l.err == nil {
		l.err = err
	}
	if err := l.f.Close(); l.err == nil {
		l.err = err
	}
	if !l.started && l.created {
		_ = os.Remove(l.path) // no event came: leave no empty file behind
	}
	if l.err != nil {
		return &exitError{code: 2, msg: fmt.Sprintf("blueprints %s: --log: %v", name, l.err)}
	}
	return nil
}
