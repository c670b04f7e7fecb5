package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/blueprints-companion/blueprints/engine"
)

// inputError is malformed input: it names the field (a JSON path) and what
// is wrong with it.
type inputError struct {
	field string
	msg   string
}

func (e *inputError) Error() string {
	if e.field == "" {
		return e.msg
	}
	return e.field + ": " + e.msg
}

func badField(field, format string, args ...any) error {
	return &inputError{field: field, msg: fmt.Sprintf(format, args...)}
}

// decodeStrict decodes one JSON value into v, rejecting unknown fields and
// trailing data, and turns decoder errors into inputErrors naming the field.
func decodeStrict(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		var te *json.UnmarshalTypeError
		var se *json.SyntaxError
		switch {
		case errors.As(err, &te):
			return badField(te.Field, "got JSON %s, want %s", te.Value, jsonKind(te.Type.String()))
		case errors.As(err, &se):
			return badField("", "bad JSON at byte %d: %v", se.Offset, err)
		case strings.HasPrefix(err.Error(), "json: unknown field "):
			return badField(strings.Trim(strings.TrimPrefix(err.Error(), "json: unknown field "), `"`), "unknown field")
		default:
			return badField("", "bad JSON: %v", err)
		}
	}
	if dec.More() {
		return badField("", "bad JSON: more than one value")
	}
	return nil
}

func jsonKind(goType string) string {
	switch {
	case strings.HasPrefix(goType, "[]"):
		return "an array"
	case goType == "string" || goType == "*string":
		return "a string"
	case strings.HasPrefix(goType, "map") || strings.HasPrefix(goType, "main."):
		return "an object"
	}
	return goType
}

// buildingInput is a blueprint and a building as the score command reads
// them; round players add a name.
type buildingInput struct {
	Name      *string     `json:"name,omitempty"`
	Blueprint *string     `json:"blueprint"`
	Building  [][]*string `json:"building"`
}

// parsed is a checked building input.
type parsed struct {
	name      string
	blueprint engine.Blueprint
	grid      engine.Grid
}

// check parses the blueprint and the grid; prefix is the JSON path of the
// object ("" or "players[1]").
func (in *buildingInput) check(prefix string) (parsed, error) {
	var p parsed
	field := func(f string) string {
		if prefix == "" {
			return f
		}
		return prefix + "." + f
	}
	if in.Blueprint == nil {
		return p, badField(field("blueprint"), "missing (want notation like \"X1/31/1X\")")
	}
	bp, err := engine.ParseBlueprint(*in.Blueprint)
	if err != nil {
		return p, badField(field("blueprint"), "%s", strings.TrimPrefix(err.Error(), "engine: "))
	}
	p.blueprint = bp
	if in.Building == nil {
		return p, badField(field("building"), "missing (want %d rows of %d stacks)", engine.Rows, engine.Cols)
	}
	if len(in.Building) != engine.Rows {
		return p, badField(field("building"), "%d rows, want %d (top to bottom)", len(in.Building), engine.Rows)
	}
	p.grid = make(engine.Grid, engine.Rows)
	for r, row := range in.Building {
		if len(row) != engine.Cols {
			return p, badField(fmt.Sprintf("%s[%d]", field("building"), r), "row %d has %d cells, want %d", r+1, len(row), engine.Cols)
		}
		p.grid[r] = make([][]engine.Die, engine.Cols)
		for c, cell := range row {
			f := fmt.Sprintf("%s[%d][%d]", field("building"), r, c)
			if cell == nil {
				return p, badField(f, "null, want a stack like \"S1 W3\" or \"\" (row %d col %d)", r+1, c+1)
			}
			dice, err := engine.ParseDice(*cell)
			if err != nil {
				return p, badField(f, "%s (row %d col %d)", strings.TrimPrefix(err.Error(), "engine: "), r+1, c+1)
			}
			p.grid[r][c] = dice
		}
	}
	if in.Name != nil {
		p.name = *in.Name
	}
	return p, nil
}

// parseScoreInput reads the score command's input.
func parseScoreInput(data []byte) (parsed, error) {
	if len(bytes.TrimSpace(data)) == 0 {
		return parsed{}, badField("", `nothing on stdin: want one building as JSON, like {"blueprint":"X1/31/1X","building":[["","W1"],["S3 G4","R2"],["W1",""]]}`)
	}
	var in buildingInput
	if err := decodeStrict(data, &in); err != nil {
		return parsed{}, err
	}
	if in.Name != nil {
		return parsed{}, badField("name", "unknown field")
	}
	return in.check("")
}

// roundInput is the round command's input.
type roundInput struct {
	InDemand []string        `json:"in_demand"`
	Players  []buildingInput `json:"players"`
}

// parsedRound is a checked round input, players in turn order.
type parsedRound struct {
	inDemand [2]engine.Material
	players  []parsed
}

// parseRoundInput reads the round command's input.
func parseRoundInput(data []byte) (parsedRound, error) {
	var out parsedRound
	if len(bytes.TrimSpace(data)) == 0 {
		return out, badField("", `nothing on stdin: want one round as JSON, like {"in_demand":["R","S"],"players":[{"name":"A","blueprint":"12/1X/2X","building":[...]}, ...]}`)
	}
	var in roundInput
	if err := decodeStrict(data, &in); err != nil {
		return out, err
	}
	if len(in.InDemand) != 2 {
		return out, badField("in_demand", "%d materials, want 2 (first, second), like [\"R\",\"S\"]", len(in.InDemand))
	}
	for i, s := range in.InDemand {
		m, err := engine.ParseMaterial(s)
		if err != nil {
			return out, badField(fmt.Sprintf("in_demand[%d]", i), "%s", strings.TrimPrefix(err.Error(), "engine: "))
		}
		out.inDemand[i] = m
	}
	if out.inDemand[0] == out.inDemand[1] {
		return out, badField("in_demand", "both are %s; the two in-demand colours differ", out.inDemand[0].Colour())
	}
	if n := len(in.Players); n < engine.MinPlayers || n > engine.MaxPlayers {
		return out, badField("players", "%d players, want %d to %d", n, engine.MinPlayers, engine.MaxPlayers)
	}
	seen := map[string]bool{}
	for i := range in.Players {
		prefix := fmt.Sprintf("players[%d]", i)
		p, err := in.Players[i].check(prefix)
		if err != nil {
			return out, err
		}
		if in.Players[i].Name == nil || p.name == "" {
			return out, badField(prefix+".name", "missing or empty")
		}
		if seen[p.name] {
			return out, badField(prefix+".name", "%q is used twice", p.name)
		}
		seen[p.name] = true
		out.players = append(out.players, p)
	}
	return out, nil
}
