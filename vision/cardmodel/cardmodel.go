package cardmodel

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
)

// DefaultPath is the card model file, relative to the repository root.
const DefaultPath = "configs/card.json"

// ErrInvalid is wrapped by every validation error.
var ErrInvalid = errors.New("invalid card model")

// Model is the card and die geometry in millimetres.
type Model struct {
	CardWidth     float64    `json:"card_width_mm"`
	CardHeight    float64    `json:"card_height_mm"`
	CardThickness float64    `json:"card_thickness_mm"`
	Rows          int        `json:"grid_rows"`
	Cols          int        `json:"grid_cols"`
	GridOrigin    [2]float64 `json:"grid_origin_mm"`
	Cell          float64    `json:"cell_mm"`
	Die           float64    `json:"die_mm"`
	// FrameInset is how far inside the card's edge its printed frame line
	// runs; 0: the card has no printed frame (the detector then fits the
	// card's pose to its grid lines alone).
	FrameInset float64 `json:"frame_inset_mm"`
}

// Default is the model of configs/card.json as shipped.
func Default() Model {
	return Model{
		CardWidth: 110, CardHeight: 70, CardThickness: 0.4,
		Rows: 3, Cols: 2, GridOrigin: [2]float64{8, 8}, Cell: 18, Die: 16,
		FrameInset: 2.5,
	}
}

// Load reads and validates a card model file.
func Load(path string) (Model, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return Model{}, fmt.Errorf("cardmodel: %w", err)
	}
	return Parse(b)
}

// Parse decodes and validates a card model from JSON.
func Parse(b []byte) (Model, error) {
	var m Model
	if err := json.Unmarshal(b, &m); err != nil {
		return Model{}, fmt.Errorf("cardmodel: decode: %w", err)
	}
	if err := m.Validate(); err != nil {
		return Model{}, err
	}
	return m, nil
}

// The sizes Validate accepts (mm): a card the size of a playing card to a
// board; a die the size of a small one or larger. Beyond them the vision
// code's searches, which step in millimetres, would run for hours (a card
// 1e6 mm wide) or for ever (NaN, 1e300). (Fifty-third session.)
const (
	MinCardSide = 20
	MaxCardSide = 1000
	MinDie      = 5
)

// Validate checks that the card's and the die's sizes are in range, the
// grid fits on the card, a die fits in a cell and the printed frame, if
// any, runs between the card's edge and the grid.
func (m Model) Validate() error {
	bad := func(format string, a ...any) error {
		return fmt.Errorf("cardmodel: %w: %s", ErrInvalid, fmt.Sprintf(format, a...))
	}
	switch {
	case !(m.CardWidth >= MinCardSide && m.CardWidth <= MaxCardSide && m.CardHeight >= MinCardSide && m.CardHeight <= MaxCardSide):
		return bad("card size %gx%g mm out of range %g..%g", m.CardWidth, m.CardHeight, float64(MinCardSide), float64(MaxCardSide))
	case m.CardThickness < 0 || m.CardThickness > 5:
		return bad("card thickness %g mm out of range 0..5", m.CardThickness)
	case m.Rows != 3 || m.Cols != 2:
		return bad("grid %dx%d, want 3 rows x 2 columns", m.Rows, m.Cols)
	case !(m.Cell > 0 && m.Die >= MinDie):
		return bad("cell %g mm and die %g mm: want a die at least %g mm", m.Cell, m.Die, float64(MinDie))
	case m.Die > m.Cell:
		return bad("die %g mm larger than cell %g mm", m.Die, m.Cell)
	case m.GridOrigin[0] < 0 || m.GridOrigin[1] < 0 ||
		m.GridOrigin[0]+float64(m.Cols)*m.Cell > m.CardWidth/2+1e-9 ||
		m.GridOrigin[1]+float64(m.Rows)*m.Cell > m.CardHeight+1e-9:
		return bad("grid at %v does not fit on the left half of the card", m.GridOrigin)
	case m.FrameInset < 0 || (m.FrameInset > 0 && (m.FrameInset >= m.GridOrigin[0] || m.FrameInset >= m.GridOrigin[1])):
		return bad("frame %g mm inside the edge: want 0 (none) or a line between the edge and the grid (under %v)", m.FrameInset, m.GridOrigin)
	}
	return nil
}

// CellCenter is the centre of cell (row, col) in card coordinates (mm),
// rows counted from the top of the card as printed, columns from the left.
func (m Model) CellCenter(row, col int) (u, v float64) {
	return m.GridOrigin[0] + (float64(col)+0.5)*m.Cell, m.GridOrigin[1] + (float64(row)+0.5)*m.Cell
}
