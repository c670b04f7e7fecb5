package synth

import (
	"bytes"
	"encoding/json"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/blueprints-companion/blueprints/vision/cardmodel"
)

func sampleTruth(t testing.TB) []byte {
	t.Helper()
	cat, err := LoadCatalogue("../../configs/blueprints.json")
	require.NoError(t, err)
	sc, err := Generate(42, Options{Model: cardmodel.Default(), Catalogue: cat, Players: 2, HandProb: 1})
	require.NoError(t, err)
	b, err := json.Marshal(TruthOf(sc, "still.jpg"))
	require.NoError(t, err)
	return b
}

func TestTruthRoundTrip(t *testing.T) {
	b := sampleTruth(t)
	tr, err := ReadTruth(bytes.NewReader(b))
	require.NoError(t, err)
	again, err := json.Marshal(tr)
	require.NoError(t, err)
	assert.JSONEq(t, string(b), string(again))

	path := filepath.Join(t.TempDir(), "x.json")
	require.NoError(t, WriteTruth(path, tr))
	tr2, err := ReadTruthFile(path)
	require.NoError(t, err)
	assert.Equal(t, tr, tr2)
}

func TestReadTruthRejects(t *testing.T) {
	good := string(sampleTruth(t))
	var probe Truth
	require.NoError(t, json.Unmarshal([]byte(good), &probe))
	bp := probe.Cards[0].Blueprint
	cases := []struct {
		name, from, to, want string
	}{
		{"not json", good, "{", "decode"},
		{"unknown format", `"blueprints-truth/1"`, `"other/1"`, "format"},
		{"zero width", `"width":`, `"width":0,"x":`, "image size"},
		{"bad focal", `"fx":`, `"fx":-1,"x":`, "focal"},
		{"R not a rotation", `"R":[[`, `"R":[[2,0,0],[0,1,0],[0,0,1]],"x":[[`, "rotation"},
		{"bad blueprint", `"blueprint":"` + bp + `"`, `"blueprint":"X1/31"`, "blueprint"},
		{"illegal stack", `"building":[[`, `"building":[["W3 R2",""],["",""],["",""]],"ignored":[[`, "puts R2 on W3"},
		{"unknown die", `"building":[[`, `"building":[["Q3",""],["",""],["",""]],"ignored":[[`, "die"},
		{"two rows", `"building":[[`, `"building":[["",""]],"x":[[`, "rows"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			in := strings.Replace(c.from, c.from, c.to, 1)
			if c.from != good {
				require.Contains(t, good, c.from)
				in = strings.Replace(good, c.from, c.to, 1)
			}
			_, err := ReadTruth(strings.NewReader(in))
			require.Error(t, err)
			assert.True(t, errors.Is(err, ErrTruth), "%v", err)
			assert.Contains(t, err.Error(), c.want)
		})
	}
}

// A stack on a hatched cell is a mistake the renderer makes on purpose
// (Options.Mistakes), so the truth keeps it; a malformed stack there is
// still refused.
func TestReadTruthHatchedCell(t *testing.T) {
	tr := &Truth{Format: TruthFormat, Width: 10, Height: 10, Camera: TruthCamera{Fx: 1, Fy: 1, R: Identity3()},
		Cards: []TruthCard{{Blueprint: "X1/31/1X", Building: [][]string{{"W1", ""}, {"", ""}, {"", ""}}}}}
	require.NoError(t, tr.Validate())
	tr.Cards[0].Building[0][0] = "W9"
	err := tr.Validate()
	require.Error(t, err)
	assert.Contains(t, err.Error(), "row 0 col 0")
}

func TestReadTruthFileMissing(t *testing.T) {
	_, err := ReadTruthFile(filepath.Join(t.TempDir(), "nope.json"))
	require.Error(t, err)
}

func FuzzReadTruth(f *testing.F) {
	f.Add(sampleTruth(f))
	f.Add([]byte(`{"format":"blueprints-truth/1","width":1,"height":1,"camera":{"fx":1,"fy":1,"R":[[1,0,0],[0,1,0],[0,0,1]]},"cards":[{"blueprint":"X1/31/1X","building":[["","W1"],["",""],["",""]],"cells":[{"row":9}]}]}`))
	f.Add([]byte(`{"sequence":{"frame":3,"frames":2}}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		tr, err := ReadTruth(bytes.NewReader(b))
		if err != nil {
			if !errors.Is(err, ErrTruth) {
				t.Fatalf("error does not wrap ErrTruth: %v", err)
			}
			return
		}
		if err := tr.Validate(); err != nil {
			t.Fatalf("accepted truth fails validation: %v", err)
		}
	})
}
