package synth

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"strings"

	"github.com/blueprints-companion/blueprints/vision/cardmodel"
)

// TruthFormat names this version of the truth file format (see README.md).
const TruthFormat = "blueprints-truth/1"

// ErrTruth is wrapped by every truth file validation error.
var ErrTruth = errors.New("invalid truth file")

// Truth is what an image shows, exactly: one JSON file beside each image.
// World frame: millimetres, origin at the table centre, z up, the table top
// is z = 0 (right-handed). Pixels: (0,0) is the centre of the top-left pixel.
type Truth struct {
	Format    string          `json:"format"`
	Image     string          `json:"image"`
	Width     int             `json:"width"`
	Height    int             `json:"height"`
	Source    string          `json:"source"`
	Seed      uint64          `json:"seed"`
	Camera    TruthCamera     `json:"camera"`
	CardModel cardmodel.Model `json:"card_model"`
	Cards     []TruthCard     `json:"cards"`
	Offer     []TruthDie      `json:"offer"`
	Hands     []TruthHand     `json:"hands"`
	Screens   []TruthScreen   `json:"screens"`
	Render    *TruthRender    `json:"render,omitempty"`
	Sequence  *TruthSequence  `json:"sequence,omitempty"`
}

// TruthCamera is a pinhole camera: x_cam = R X_world + t; u = fx x/z + cx,
// v = fy y/z + cy (OpenCV convention: camera x right, y down, z forward).
type TruthCamera struct {
	Fx       float64       `json:"fx"`
	Fy       float64       `json:"fy"`
	Cx       float64       `json:"cx"`
	Cy       float64       `json:"cy"`
	R        [3][3]float64 `json:"R"`
	T        [3]float64    `json:"t"`
	Position [3]float64    `json:"position_mm"`
	HFOV     float64       `json:"hfov_deg"`
	Tilt     float64       `json:"tilt_deg"`
	Yaw      float64       `json:"yaw_deg"`
}

// TruthCard is one blueprint card and its building.
type TruthCard struct {
	Seat      int    `json:"seat"`
	ID        int    `json:"id"`
	Blueprint string `json:"blueprint"`
	// Building is rows (top to bottom as printed) x columns of stacks,
	// bottom to top: "S1 W3 G6"; "" is an empty cell.
	Building [][]string `json:"building"`
	// Corners clockwise from the printed top-left: TL, TR, BR, BL.
	CornersPx [4][2]float64 `json:"corners_px"`
	CornersMM [4][3]float64 `json:"corners_mm"` // on the printed face, z = card thickness
	Cells     []TruthCell   `json:"cells"`
	// Occluded lists the cells [row, col] that a hand hides (see README).
	Occluded [][2]int `json:"occluded"`
}

// TruthCell is one cell of a card: its stack and where its top is.
type TruthCell struct {
	Row    int        `json:"row"`
	Col    int        `json:"col"`
	Height int        `json:"height"`
	Top    string     `json:"top"`
	TopPx  [2]float64 `json:"top_px"`
	TopMM  [3]float64 `json:"top_mm"`
	Hand   float64    `json:"hand_occlusion"`
	Screen float64    `json:"screen_occlusion"`
	// Dice is the share of the top that other dice hide (a taller
	// neighbour seen from the side): see diceOcclusion.
	Dice float64 `json:"dice_occlusion"`
}

// TruthDie is a loose die of the offer.
type TruthDie struct {
	Die      string     `json:"die"`
	CenterMM [3]float64 `json:"center_mm"`
	TopPx    [2]float64 `json:"top_px"`
	Yaw      float64    `json:"yaw_deg"`
}

// TruthHand is a hand (and forearm) in the picture.
type TruthHand struct {
	Seat int `json:"seat"`
	Card int `json:"card"`
}

// TruthScreen is a player screen standing at a card.
type TruthScreen struct {
	Seat int `json:"seat"`
	Card int `json:"card"`
}

// TruthRender records how the image was made (informative).
type TruthRender struct {
	Table       string       `json:"table"`
	Lights      []TruthLight `json:"lights"`
	Glare       bool         `json:"glare"`
	PipColor    string       `json:"pip_color"`
	NoiseSigma  float64      `json:"noise_sigma"`
	BlurSigma   float64      `json:"blur_sigma"`
	JPEGQuality int          `json:"jpeg_quality"`
}

// TruthLight is one light.
type TruthLight struct {
	PositionMM [3]float64 `json:"position_mm"`
	Kelvin     float64    `json:"kelvin"`
	Intensity  float64    `json:"intensity"`
	SizeMM     float64    `json:"size_mm"`
	Glare      bool       `json:"glare,omitempty"`
}

// TruthSequence places a frame in a round sequence.
type TruthSequence struct {
	Name    string          `json:"name"`
	Players int             `json:"players"`
	Frame   int             `json:"frame"`
	Frames  int             `json:"frames"`
	Event   string          `json:"event"` // start, enter, place, leave
	Placing *TruthPlacement `json:"placement,omitempty"`
}

// TruthPlacement is the die being placed in this step of a sequence.
type TruthPlacement struct {
	Seat  int    `json:"seat"`
	Card  int    `json:"card"`
	Row   int    `json:"row"`
	Col   int    `json:"col"`
	Die   string `json:"die"`
	Level int    `json:"level"`
}

func v3(v Vec3) [3]float64 { return [3]float64{round4(v.X), round4(v.Y), round4(v.Z)} }

func round4(x float64) float64 { return math.Round(x*1e4) / 1e4 }

func px(cam Camera, p Vec3) [2]float64 {
	u, v, _ := cam.Project(p)
	return [2]float64{round4(u), round4(v)}
}

// TruthOf describes a scene rendered to image.
func TruthOf(sc *Scene, image string) *Truth {
	cam := sc.Cam
	t := &Truth{
		Format: TruthFormat, Image: image, Width: cam.Width, Height: cam.Height,
		Source: "vision/synth", Seed: sc.Seed, CardModel: sc.Model,
		Camera: TruthCamera{
			Fx: cam.Fx, Fy: cam.Fy, Cx: cam.Cx, Cy: cam.Cy, R: cam.R, T: [3]float64{cam.T.X, cam.T.Y, cam.T.Z},
			Position: v3(cam.Center()), HFOV: round4(sc.HFOV), Tilt: round4(sc.Tilt), Yaw: round4(sc.Yaw),
		},
		Cards: []TruthCard{}, Offer: []TruthDie{}, Hands: []TruthHand{}, Screens: []TruthScreen{},
	}
	m := sc.Model
	for ci, c := range sc.Cards {
		tc := TruthCard{Seat: c.Seat, ID: c.ID, Blueprint: c.Layout.String(), Occluded: [][2]int{}}
		for i, p := range c.Corners(m) {
			p.Z = m.CardThickness // the printed face
			tc.CornersPx[i] = px(cam, p)
			tc.CornersMM[i] = v3(p)
		}
		for r := 0; r < 3; r++ {
			row := make([]string, 2)
			for col := 0; col < 2; col++ {
				st := c.Building[r][col]
				row[col] = st.String()
				top := c.CellTop(m, r, col)
				hand, screen := cellOcclusion(sc, c, r, col)
				cell := TruthCell{Row: r, Col: col, Height: len(st), TopPx: px(cam, top), TopMM: v3(top), Hand: round4(hand), Screen: round4(screen), Dice: round4(diceOcclusion(sc, ci, r, col))}
				if len(st) > 0 {
					cell.Top = st[len(st)-1].String()
				}
				tc.Cells = append(tc.Cells, cell)
				if hand > 0 {
					tc.Occluded = append(tc.Occluded, [2]int{r, col})
				}
			}
			tc.Building = append(tc.Building, row)
		}
		t.Cards = append(t.Cards, tc)
	}
	for _, d := range sc.Offer {
		t.Offer = append(t.Offer, TruthDie{Die: d.String(), CenterMM: v3(d.Center), TopPx: px(cam, d.Center.Add(Vec3{0, 0, m.Die / 2})), Yaw: round4(math.Mod(d.Yaw+360, 360))})
	}
	for _, h := range sc.Hands {
		t.Hands = append(t.Hands, TruthHand{Seat: h.Seat, Card: h.Card})
	}
	for _, s := range sc.Screens {
		t.Screens = append(t.Screens, TruthScreen{Seat: s.Seat, Card: s.Card})
	}
	r := &TruthRender{Table: sc.Table.Kind, Glare: sc.Glare, PipColor: sc.PipName,
		NoiseSigma: round4(sc.Post.NoiseSigma), BlurSigma: round4(sc.Post.BlurSigma), JPEGQuality: sc.Post.JPEGQuality}
	for _, l := range sc.Lights {
		r.Lights = append(r.Lights, TruthLight{PositionMM: v3(l.Pos), Kelvin: math.Round(l.Kelvin), Intensity: round4(l.Intensity), SizeMM: round4(l.Size), Glare: l.Glare})
	}
	t.Render = r
	return t
}

// Project maps a world point (mm) to pixels with the stored camera.
func (c TruthCamera) Project(p [3]float64) (u, v float64, ok bool) {
	cam := Camera{Fx: c.Fx, Fy: c.Fy, Cx: c.Cx, Cy: c.Cy, R: c.R, T: Vec3{c.T[0], c.T[1], c.T[2]}}
	return cam.Project(Vec3{p[0], p[1], p[2]})
}

// WriteTruth writes t as indented JSON, atomically.
func WriteTruth(path string, t *Truth) error {
	b, err := json.Marshal(t)
	if err != nil {
		return fmt.Errorf("synth: encode truth: %w", err)
	}
	return writeAtomic(path, append(b, '\n'))
}

// ReadTruthFile reads and validates a truth file.
func ReadTruthFile(path string) (*Truth, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("synth: %w", err)
	}
	defer f.Close()
	t, err := ReadTruth(f)
	if err != nil {
		return nil, fmt.Errorf("%w (%s)", err, path)
	}
	return t, nil
}

// ReadTruth decodes and validates a truth file: known format, sane image
// size and camera (R a rotation), legal buildings in the project notation
// that never use a hatched cell, cells and corners in range.
func ReadTruth(r io.Reader) (*Truth, error) {
	dec := json.NewDecoder(io.LimitReader(r, 16<<20))
	var t Truth
	if err := dec.Decode(&t); err != nil {
		return nil, fmt.Errorf("synth: %w: decode: %v", ErrTruth, err)
	}
	if err := t.Validate(); err != nil {
		return nil, err
	}
	return &t, nil
}

// Validate checks a decoded truth file.
// nearImage reports whether pixel p lies within ten image sizes of the
// image (a card partly out of view has corners outside it; a corner at
// 1e12 px made overlay draw for hours).
func (t *Truth) nearImage(p [2]float64) bool {
	w, h := float64(t.Width), float64(t.Height)
	return p[0] >= -10*w && p[0] <= 11*w && p[1] >= -10*h && p[1] <= 11*h
}

func (t *Truth) Validate() error {
	bad := func(format string, a ...any) error {
		return fmt.Errorf("synth: %w: %s", ErrTruth, fmt.Sprintf(format, a...))
	}
	if !strings.HasPrefix(t.Format, "blueprints-truth/") {
		return bad("format %q, want %q", t.Format, TruthFormat)
	}
	if t.Width <= 0 || t.Height <= 0 || t.Width > 20000 || t.Height > 20000 {
		return bad("image size %dx%d", t.Width, t.Height)
	}
	c := t.Camera
	if !(c.Fx > 0 && c.Fy > 0) {
		return bad("focal lengths fx=%g fy=%g must be positive", c.Fx, c.Fy)
	}
	R := Mat3(c.R)
	RRt := R.Mul(R.T())
	for i := 0; i < 3; i++ {
		for j := 0; j < 3; j++ {
			want := 0.0
			if i == j {
				want = 1
			}
			if math.Abs(RRt[i][j]-want) > 1e-3 {
				return bad("camera R is not a rotation")
			}
		}
	}
	for i, card := range t.Cards {
		if _, err := ParseLayout(card.Blueprint); err != nil {
			return bad("card %d: %v", i, err)
		}
		if card.Seat < 0 || card.Seat > 3 {
			return bad("card %d: seat %d not in 0-3", i, card.Seat)
		}
		if len(card.Building) != 3 {
			return bad("card %d: building has %d rows, want 3", i, len(card.Building))
		}
		for r, row := range card.Building {
			if len(row) != 2 {
				return bad("card %d: building row %d has %d cells, want 2", i, r, len(row))
			}
			for col, s := range row {
				// a stack may stand on a hatched cell: a mistake the
				// renderer makes on purpose (Options.Mistakes)
				if _, err := ParseStack(s); err != nil {
					return bad("card %d row %d col %d: %v", i, r, col, err)
				}
			}
		}
		for k, p := range card.CornersPx {
			if !t.nearImage(p) {
				return bad("card %d: corner %d at %v px, far outside the %dx%d image", i, k, p, t.Width, t.Height)
			}
		}
		for _, cell := range card.Cells {
			if !t.nearImage(cell.TopPx) {
				return bad("card %d: cell %d,%d top at %v px, far outside the %dx%d image", i, cell.Row, cell.Col, cell.TopPx, t.Width, t.Height)
			}
			if cell.Row < 0 || cell.Row > 2 || cell.Col < 0 || cell.Col > 1 {
				return bad("card %d: cell %d,%d out of the grid", i, cell.Row, cell.Col)
			}
			if cell.Height != len(strings.Fields(card.Building[cell.Row][cell.Col])) {
				return bad("card %d: cell %d,%d height %d disagrees with building", i, cell.Row, cell.Col, cell.Height)
			}
			for _, sh := range []float64{cell.Hand, cell.Screen, cell.Dice} {
				if !(sh >= 0 && sh <= 1) {
					return bad("card %d: cell %d,%d occlusion share %g outside 0..1", i, cell.Row, cell.Col, sh)
				}
			}
		}
		for _, o := range card.Occluded {
			if o[0] < 0 || o[0] > 2 || o[1] < 0 || o[1] > 1 {
				return bad("card %d: occluded cell %v out of the grid", i, o)
			}
		}
	}
	for i, d := range t.Offer {
		if _, err := ParseDie(d.Die); err != nil {
			return bad("offer die %d: %v", i, err)
		}
	}
	if s := t.Sequence; s != nil {
		if s.Frame < 0 || s.Frames <= 0 || s.Frame >= s.Frames {
			return bad("sequence frame %d of %d", s.Frame, s.Frames)
		}
		if p := s.Placing; p != nil {
			if _, err := ParseDie(p.Die); err != nil {
				return bad("sequence placement: %v", err)
			}
		}
	}
	return nil
}
