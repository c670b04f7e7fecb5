package engine

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// AppendLog appends events to dst as JSON lines, the log file format.
func AppendLog(dst []byte, events []Event) ([]byte, error) {
	for i := range events {
		b, err := json.Marshal(events[i])
		if err != nil {
			return dst, fmt.Errorf("engine: event %d: %w", events[i].Seq, err)
		}
		dst = append(dst, b...)
		dst = append(dst, '\n')
	}
	return dst, nil
}

// LogError is a log line that could not be read.
type LogError struct {
	Line int
	Err  error
}

func (e *LogError) Error() string { return fmt.Sprintf("line %d: %v", e.Line, e.Err) }
func (e *LogError) Unwrap() error { return e.Err }

// ParseLog reads a log of JSON lines (blank lines are skipped) and splits it
// into games, each starting with its game-started event. It checks the form
// of each line, not the rules: Replay does that. On a bad line it returns the
// games read before it, with the partial game last, and a *LogError.
func ParseLog(data []byte) ([][]Event, error) {
	var games [][]Event
	line := 0
	for len(data) > 0 {
		line++
		var l []byte
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			l, data = data[:i], data[i+1:]
		} else {
			l, data = data, nil
		}
		l = bytes.TrimSpace(l)
		if len(l) == 0 {
			continue
		}
		var e Event
		if err := json.Unmarshal(l, &e); err != nil {
			return games, &LogError{Line: line, Err: err}
		}
		if e.Kind == GameStarted {
			games = append(games, nil)
		} else if len(games) == 0 {
			return games, &LogError{Line: line, Err: fmt.Errorf("%w: %s before any game-started", ErrBadEvent, e.Kind)}
		}
		games[len(games)-1] = append(games[len(games)-1], e)
	}
	return games, nil
}
