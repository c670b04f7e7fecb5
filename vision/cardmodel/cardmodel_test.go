package cardmodel

import (
	"errors"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestShippedFileMatchesDefault(t *testing.T) {
	m, err := Load(filepath.Join("..", "..", DefaultPath))
	require.NoError(t, err)
	assert.Equal(t, Default(), m)
}

func TestParseRejects(t *testing.T) {
	cases := []struct{ name, json string }{
		{"not json", `{`},
		{"zero card", `{"card_width_mm":0,"card_height_mm":70,"grid_rows":3,"grid_cols":2,"cell_mm":18,"die_mm":16}`},
		{"die bigger than cell", `{"card_width_mm":110,"card_height_mm":70,"grid_rows":3,"grid_cols":2,"grid_origin_mm":[8,8],"cell_mm":18,"die_mm":19}`},
		{"grid off the left half", `{"card_width_mm":110,"card_height_mm":70,"grid_rows":3,"grid_cols":2,"grid_origin_mm":[30,8],"cell_mm":18,"die_mm":16}`},
		{"wrong grid", `{"card_width_mm":110,"card_height_mm":70,"grid_rows":2,"grid_cols":2,"grid_origin_mm":[8,8],"cell_mm":18,"die_mm":16}`},
		{"frame over the grid", `{"card_width_mm":110,"card_height_mm":70,"grid_rows":3,"grid_cols":2,"grid_origin_mm":[8,8],"cell_mm":18,"die_mm":16,"frame_inset_mm":9}`},
		{"huge card (detect ran for hours)", `{"card_width_mm":1e6,"card_height_mm":1e6,"grid_rows":3,"grid_cols":2,"grid_origin_mm":[8,8],"cell_mm":18,"die_mm":16}`},
		{"card of 1e300 mm", `{"card_width_mm":1e300,"card_height_mm":70,"grid_rows":3,"grid_cols":2,"grid_origin_mm":[8,8],"cell_mm":18,"die_mm":16}`},
		{"tiny card", `{"card_width_mm":11,"card_height_mm":7,"grid_rows":3,"grid_cols":2,"grid_origin_mm":[0.8,0.8],"cell_mm":1.8,"die_mm":1.6}`},
		{"tiny die", `{"card_width_mm":110,"card_height_mm":70,"grid_rows":3,"grid_cols":2,"grid_origin_mm":[8,8],"cell_mm":18,"die_mm":1}`},
		{"frame outside the card", `{"card_width_mm":110,"card_height_mm":70,"grid_rows":3,"grid_cols":2,"grid_origin_mm":[8,8],"cell_mm":18,"die_mm":16,"frame_inset_mm":-1}`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Parse([]byte(c.json))
			require.Error(t, err)
			assert.Contains(t, err.Error(), "cardmodel:")
		})
	}
	_, err := Parse([]byte(cases[2].json))
	assert.True(t, errors.Is(err, ErrInvalid))
}

// A card model without a frame line parses: its frame inset is 0.
func TestParseNoFrame(t *testing.T) {
	m, err := Parse([]byte(`{"card_width_mm":110,"card_height_mm":70,"grid_rows":3,"grid_cols":2,"grid_origin_mm":[8,8],"cell_mm":18,"die_mm":16}`))
	require.NoError(t, err)
	assert.Zero(t, m.FrameInset)
}

func TestLoadMissingFile(t *testing.T) {
	_, err := Load(filepath.Join(t.TempDir(), "nope.json"))
	require.Error(t, err)
}

func ExampleModel_CellCenter() {
	m := Default()
	u, v := m.CellCenter(2, 1)
	fmt.Println(u, v)
	// Output: 35 53
}
