package main

import (
	"testing"

	"github.com/blueprints-companion/blueprints/engine"
)

// FuzzScoreInput: any bytes are either rejected with an inputError naming a
// field, or parse into a 3x2 grid that validates and scores.
func FuzzScoreInput(f *testing.F) {
	f.Add([]byte(`{"blueprint":"X1/31/1X","building":[["","W1"],["S3 G4","R2"],["W1",""]]}`))
	f.Add([]byte(`{"blueprint":"X1/31/1X","building":[["","W1"],["S3 G4"],["W1",""]]}`))
	f.Add([]byte(`{"blueprint":"6X/XX/XX","building":[["S1 S1 S1 S1 S1 S1 S1",""],["",""],["",""]]}`))
	f.Add([]byte(`{"blueprint":null,"building":[[null,"W1"]]}`))
	f.Add([]byte(`[]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := parseScoreInput(data)
		if err != nil {
			if _, ok := err.(*inputError); !ok {
				t.Fatalf("error %T is not an inputError: %v", err, err)
			}
			return
		}
		if len(p.grid) != engine.Rows || len(p.grid[0]) != engine.Cols {
			t.Fatalf("grid %dx%d", len(p.grid), len(p.grid[0]))
		}
		if engine.Validate(&p.blueprint, p.grid) == nil {
			b, err := p.grid.Building()
			if err != nil {
				t.Fatalf("legal grid: %v", err)
			}
			_ = scoreOut(&p.blueprint, &b)
		}
	})
}

// FuzzRoundInput: any bytes are either rejected naming a field, or give 2-4
// uniquely named players and two different in-demand colours.
func FuzzRoundInput(f *testing.F) {
	f.Add([]byte(`{"in_demand":["R","S"],"players":[` + workedA + `,` + workedB + `]}`))
	f.Add([]byte(`{"in_demand":["R","R"],"players":[]}`))
	f.Add([]byte(`{"in_demand":["W","G"],"players":[{"name":"A"}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := parseRoundInput(data)
		if err != nil {
			if _, ok := err.(*inputError); !ok {
				t.Fatalf("error %T is not an inputError: %v", err, err)
			}
			return
		}
		if n := len(r.players); n < 2 || n > 4 {
			t.Fatalf("%d players", n)
		}
		if r.inDemand[0] == r.inDemand[1] || !r.inDemand[0].Valid() || !r.inDemand[1].Valid() {
			t.Fatalf("in demand %v", r.inDemand)
		}
		seen := map[string]bool{}
		for _, p := range r.players {
			if p.name == "" || seen[p.name] {
				t.Fatalf("name %q", p.name)
			}
			seen[p.name] = true
		}
	})
}
