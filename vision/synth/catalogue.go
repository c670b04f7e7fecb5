package synth

import (
	"encoding/json"
	"fmt"
	"os"
)

// DefaultCataloguePath is the blueprint catalogue, relative to the
// repository root.
const DefaultCataloguePath = "configs/blueprints.json"

// LoadCatalogue reads the blueprint catalogue
// ({"cards":[{"id":1,"layout":"X1/31/1X"},...]}).
func LoadCatalogue(path string) ([]Blueprint, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("synth: catalogue: %w", err)
	}
	return ParseCatalogue(b)
}

// ParseCatalogue decodes a blueprint catalogue.
func ParseCatalogue(b []byte) ([]Blueprint, error) {
	var f struct {
		Cards []struct {
			ID     int    `json:"id"`
			Layout string `json:"layout"`
		} `json:"cards"`
	}
	if err := json.Unmarshal(b, &f); err != nil {
		return nil, fmt.Errorf("synth: catalogue: %w", err)
	}
	if len(f.Cards) == 0 {
		return nil, fmt.Errorf("synth: catalogue: %w: no cards", ErrNotation)
	}
	out := make([]Blueprint, 0, len(f.Cards))
	for _, c := range f.Cards {
		l, err := ParseLayout(c.Layout)
		if err != nil {
			return nil, fmt.Errorf("synth: catalogue card %d: %w", c.ID, err)
		}
		if c.ID < 0 || c.ID > 99 {
			return nil, fmt.Errorf("synth: catalogue: %w: card id %d not in 0-99", ErrNotation, c.ID)
		}
		out = append(out, Blueprint{ID: c.ID, Layout: l})
	}
	return out, nil
}
