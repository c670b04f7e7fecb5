package engine

import (
	"encoding/json"
	"testing"
)

// FuzzParseBlueprint: any string either fails to parse or parses to a
// blueprint whose notation parses back to the same blueprint.
func FuzzParseBlueprint(f *testing.F) {
	for _, s := range []string{"X1/31/1X", "12/1X/2X", "3./.3/XX", "30/03/XX", "", "//", "X1/31/1X/", "xx/xx/xx"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		bp, err := ParseBlueprint(s)
		if err != nil {
			return
		}
		again, err := ParseBlueprint(bp.String())
		if err != nil {
			t.Fatalf("%q parsed, but its notation %q does not: %v", s, bp.String(), err)
		}
		if again != bp {
			t.Fatalf("%q: round trip changed %v to %v", s, bp, again)
		}
		for r := 0; r < Rows; r++ {
			for c := 0; c < Cols; c++ {
				if v := bp[r][c]; v < Hatched || v > 6 {
					t.Fatalf("%q: cell %d,%d = %d", s, r, c, v)
				}
			}
		}
	})
}

// FuzzParseStack: a parsed stack writes back to the same dice.
func FuzzParseStack(f *testing.F) {
	for _, s := range []string{"S1 W3 G6", "", "W1", "  R2   R3 ", "Q1", "W7", "W1 W1 W1 W1 W1 W1 W1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		st, err := ParseStack(s)
		if err != nil {
			return
		}
		if st.Height() > MaxHeight {
			t.Fatalf("%q: height %d", s, st.Height())
		}
		again, err := ParseStack(st.String())
		if err != nil || again != st {
			t.Fatalf("%q: round trip %q gave %v, %v", s, st.String(), again, err)
		}
	})
}

// FuzzBuildingJSON: any JSON building either is rejected, or is checked,
// and when legal scores without panicking, with a total equal to its parts.
func FuzzBuildingJSON(f *testing.F) {
	f.Add(`{"blueprint":"X1/31/1X","building":[["","W1"],["S3 G4","R2"],["W1",""]]}`)
	f.Add(`{"blueprint":"12/1X/2X","building":[["W4","R2 G2"],["R3",""],["R1 G1",""]]}`)
	f.Add(`{"blueprint":"6X/XX/XX","building":[["S1 S2 S3 S4 S5 S6",""],["",""],["",""]]}`)
	f.Add(`{"blueprint":"X1/31/1X","building":[["W1"],[],[]]}`)
	f.Fuzz(func(t *testing.T, data string) {
		var in struct {
			Blueprint string     `json:"blueprint"`
			Building  [][]string `json:"building"`
		}
		if json.Unmarshal([]byte(data), &in) != nil {
			return
		}
		bp, err := ParseBlueprint(in.Blueprint)
		if err != nil {
			return
		}
		g, err := ParseGrid(in.Building)
		if err != nil {
			return
		}
		if vs := Validate(&bp, g); vs != nil {
			for _, v := range vs {
				if v.Row < 1 || v.Row > Rows || v.Col < 1 || v.Col > Cols || v.Level < 1 || v.Rule == "" {
					t.Fatalf("bad violation %+v", v)
				}
			}
			return
		}
		b, err := g.Building()
		if err != nil {
			t.Fatalf("legal grid does not convert: %v", err)
		}
		s := Score(&bp, &b)
		if s.Total != s.Bonus+s.Wood+s.Recycled+s.Stone+s.Glass || s.Total < 0 {
			t.Fatalf("breakdown %+v", s)
		}
		_ = Qualifies(&b)
	})
}

// FuzzParseLog: any bytes either fail with a line number or parse into
// games whose events write back to JSON and replay without panicking.
func FuzzParseLog(f *testing.F) {
	g, err := NewGame(Options{Players: []string{"A", "B"}, Seed: 1, Catalogue: Catalogue{Cards: []Card{
		{ID: 1, Layout: Blueprint{{1, 1}, {1, 1}, {1, 1}}}, {ID: 2, Layout: Blueprint{{6, Hatched}, {Hatched, Hatched}, {Hatched, Hatched}}},
		{ID: 3, Layout: Blueprint{{3, 3}, {Hatched, Hatched}, {Hatched, Hatched}}}, {ID: 4, Layout: Blueprint{{2, 2}, {1, 1}, {Hatched, Hatched}}},
		{ID: 5, Layout: Blueprint{{Hatched, 2}, {Hatched, 2}, {Hatched, 2}}}, {ID: 6, Layout: Blueprint{{1, Hatched}, {4, Hatched}, {1, Hatched}}},
	}}})
	if err != nil {
		f.Fatal(err)
	}
	data, err := AppendLog(nil, g.Events())
	if err != nil {
		f.Fatal(err)
	}
	f.Add(data)
	f.Add([]byte("{\"seq\":1,\"type\":\"game-started\",\"setup\":{\"players\":[\"A\",\"B\"]}}\n"))
	f.Add([]byte("garbage\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		games, err := ParseLog(data)
		if err != nil {
			if _, ok := err.(*LogError); !ok {
				t.Fatalf("error %T is not a *LogError: %v", err, err)
			}
		}
		for _, evs := range games {
			for _, e := range evs {
				if e.Kind == GameStarted && e.Setup == nil {
					continue
				}
				if _, err := json.Marshal(e); err != nil && e.Kind != GameStarted {
					t.Fatalf("parsed event does not write back: %v", err)
				}
			}
			_, _ = Replay(evs)
		}
	})
}
