package synth

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/draw"
	"image/jpeg"
	"math"
)

// A clear glass die shows its top face's pips and, through the glass, its
// bottom face's: value v and 7-v, two patterns that overlap into one. The
// die turned over shows the same two patterns, 7-v on top. What tells the
// two apart in an image is only depth: the top's pips are nearer the camera,
// lit directly, and slide a little further from the image centre. Twins
// measures how much: it renders a glass top die as it stands and turned over
// (each of the four quarter turns that show 7-v, the die's footprint
// unchanged) and compares the images where the die shows, against the
// camera's own sensor noise. An ideal reader that knew everything of the
// scene but which of the two stands there could not tell them apart more
// often than the Gaussian discrimination bound Φ(-d′/2) allows, d′ being the
// whitened distance between the two noise-free images; any real reader, which
// knows far less, errs at least that often.

// TwinNoiseChroma is the share of the luminance noise that PostProcess adds
// to each channel on its own.
const TwinNoiseChroma = 0.35

// Twin is the comparison of one glass top die with its turned-over twins.
type Twin struct {
	Card, Seat, Row, Col int
	Stack                string
	// Hand and Dice are the cell's occlusion by a hand and by other dice
	// (the truth's hand_occlusion and dice_occlusion).
	Hand, Dice float64
	// Window is the image region compared (the die and its surroundings).
	Window image.Rectangle
	// DPrime is the whitened distance to each turned-over twin; Min the
	// least of them (the twin most like the die as it stands).
	DPrime []float64
	Min    float64
	// Values are the top values of the twins, in DPrime's order, and
	// Closest the closest twin's; RMS each twin's grey RMS difference
	// (see GreyRMS).
	Values  []int
	Closest int
	RMS     []float64
	// GreyRMS is the closest twin's root mean square difference from
	// the die as it stands, in grey levels over the window, and GreyMax
	// the largest.
	GreyRMS, GreyMax float64
	// JPEGRMS is, for scale, the root mean square grey error the still's
	// JPEG compression leaves in the die's window (the die as it stands,
	// noise free, encoded at the still's quality and decoded).
	JPEGRMS float64
	// PError is Φ(-Min/2): the least error rate of a reader telling the
	// die from its closest twin, both equally likely.
	PError float64
	// NoiseSigma and BlurSigma are the still's camera simulation.
	NoiseSigma, BlurSigma float64
	// Images are the noise-free renders compared: the die as it stands,
	// then each twin (Window's bounds, plus a margin).
	Images []*image.RGBA
}

// TurnedOver returns the rotations that show 7-v on top for a die placed
// like d (value v on top, turned yaw degrees in the world), one for each
// quarter turn of its side faces: d as the generator would have placed it
// with the other value.
func TurnedOver(d PlacedDie, worldYawDeg float64) []Mat3 {
	return Showing(7-d.Pips, worldYawDeg)
}

// Showing returns the rotations of a die turned yaw degrees in the world
// that show value u on top, one per quarter turn of its side faces.
func Showing(u int, worldYawDeg float64) []Mat3 {
	var out []Mat3
	for _, q := range rotationsShowing(u) {
		out = append(out, RotZ(worldYawDeg*math.Pi/180).Mul(q))
	}
	return out
}

// GlassTwins compares every clear glass top die on sc's cards with its
// turned-over twins (see Twin), or with every other top value if every is
// set (20 twins a die). opt.Povray and opt.Threads are used; each
// render is a small window, with the area lights' jitter off so that the
// twins differ only by the die, however many threads POV-Ray runs.
func GlassTwins(ctx context.Context, sc *Scene, opt RenderOptions, every bool) ([]Twin, error) {
	tr := TruthOf(sc, "")
	var out []Twin
	for _, g := range GlassTops(sc) {
		c := sc.Cards[g.Card]
		d := g.die(sc)
		var cell TruthCell
		for _, tc := range tr.Cards[g.Card].Cells {
			if tc.Row == g.Row && tc.Col == g.Col {
				cell = tc
			}
		}
		win, ok := dieWindow(sc.Cam, d, sc.Model.Die, sc.Post.BlurSigma)
		if !ok {
			continue
		}
		tw := Twin{Card: g.Card, Seat: c.Seat, Row: g.Row, Col: g.Col, Stack: c.Building[g.Row][g.Col].String(),
			Hand: cell.Hand, Dice: cell.Dice, Window: win.inner,
			NoiseSigma: sc.Post.NoiseSigma, BlurSigma: sc.Post.BlurSigma}
		base, err := renderWindow(ctx, sc, opt, win)
		if err != nil {
			return nil, err
		}
		tw.Images = append(tw.Images, base)
		if tw.JPEGRMS, err = jpegError(base, win.inner, sc.Post.JPEGQuality); err != nil {
			return nil, err
		}
		tw.Min = math.Inf(1)
		values := []int{7 - d.Pips}
		if every {
			values = nil
			for u := 1; u <= 6; u++ {
				if u != d.Pips {
					values = append(values, u)
				}
			}
		}
		for _, u := range values {
			for _, rot := range Showing(u, g.worldYaw(sc)) {
				alt := *sc
				alt.Cards = append([]Card(nil), sc.Cards...)
				g.set(&alt, u, rot)
				img, err := renderWindow(ctx, &alt, opt, win)
				if err != nil {
					return nil, err
				}
				tw.Images = append(tw.Images, img)
				dp := WhitenedDistance(base, img, win.inner, sc.Post.NoiseSigma)
				tw.DPrime = append(tw.DPrime, dp)
				tw.Values = append(tw.Values, u)
				rms, most := GreyDifference(base, img, win.inner)
				tw.RMS = append(tw.RMS, rms)
				if dp < tw.Min {
					tw.Min, tw.Closest = dp, u
					tw.GreyRMS, tw.GreyMax = rms, most
				}
			}
		}
		tw.PError = 0.5 * math.Erfc(tw.Min/2/math.Sqrt2)
		out = append(out, tw)
	}
	return out, nil
}

// GlassTop is a cell of a scene's card whose top die is clear glass.
type GlassTop struct{ Card, Row, Col int }

// GlassTops lists sc's glass tops, card by card, row by row.
func GlassTops(sc *Scene) []GlassTop {
	var out []GlassTop
	for ci, c := range sc.Cards {
		for r := 0; r < 3; r++ {
			for col := 0; col < 2; col++ {
				if d := c.Dice[r][col]; len(d) > 0 && d[len(d)-1].Mat == Glass {
					out = append(out, GlassTop{ci, r, col})
				}
			}
		}
	}
	return out
}

// die is the glass top die itself.
func (g GlassTop) die(sc *Scene) PlacedDie {
	d := sc.Cards[g.Card].Dice[g.Row][g.Col]
	return d[len(d)-1]
}

// worldYaw is how far (degrees) the die is turned in the world.
func (g GlassTop) worldYaw(sc *Scene) float64 {
	return sc.Cards[g.Card].Angle*180/math.Pi + g.die(sc).Yaw
}

// set makes the die show u, turned by rot, in sc, whose Cards slice must
// be its own (the card's dice and building of that cell are copied, so a
// scene sc was copied from keeps its own).
func (g GlassTop) set(sc *Scene, u int, rot Mat3) {
	c := &sc.Cards[g.Card]
	nd := append([]PlacedDie(nil), c.Dice[g.Row][g.Col]...)
	k := len(nd) - 1
	nd[k].Pips, nd[k].Rot = u, rot
	c.Dice[g.Row][g.Col] = nd
	st := append(Stack(nil), c.Building[g.Row][g.Col]...)
	st[k].Pips = u
	c.Building[g.Row][g.Col] = st
}

// twinWindow is the region rendered (inner plus a margin for the blur) and
// the region compared.
type twinWindow struct{ outer, inner image.Rectangle }

// dieWindow is the image region of a die (its bounding cube, turned any
// way, seen by cam) with a margin: ok is false if it is not wholly inside
// the image.
func dieWindow(cam Camera, d PlacedDie, die, blur float64) (twinWindow, bool) {
	x0, y0, x1, y1 := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	h := 0.75 * die // half the diagonal of a die's footprint, with room
	for _, dx := range []float64{-h, h} {
		for _, dy := range []float64{-h, h} {
			for _, dz := range []float64{-die / 2, die / 2} {
				u, v, ok := cam.Project(d.Center.Add(Vec3{dx, dy, dz}))
				if !ok {
					return twinWindow{}, false
				}
				x0, y0, x1, y1 = math.Min(x0, u), math.Min(y0, v), math.Max(x1, u), math.Max(y1, v)
			}
		}
	}
	inner := image.Rect(int(math.Floor(x0))-2, int(math.Floor(y0))-2, int(math.Ceil(x1))+3, int(math.Ceil(y1))+3)
	mg := int(math.Ceil(3*blur)) + 1
	outer := inner.Inset(-mg)
	// (POV-Ray reads a window edge of 1 as a fraction: keep off the image's first row and column)
	if !outer.In(image.Rect(1, 1, cam.Width, cam.Height)) {
		return twinWindow{}, false
	}
	return twinWindow{outer: outer, inner: inner}, true
}

// renderWindow ray-traces sc's window w.outer, jitter off, and blurs it as
// the camera simulation does (no noise): the noise-free image the camera
// sees there.
func renderWindow(ctx context.Context, sc *Scene, opt RenderOptions, w twinWindow) (*image.RGBA, error) {
	o := opt
	o.Window = w.outer
	o.NoJitter = true
	o.Raw = true
	full, err := Render(ctx, sc, o)
	if err != nil {
		return nil, err
	}
	sub := image.NewRGBA(w.outer)
	draw.Draw(sub, w.outer, full, w.outer.Min, draw.Src)
	img := PostProcess(sub, Post{BlurSigma: sc.Post.BlurSigma}, 0)
	img.Rect = w.outer // PostProcess's image starts at (0, 0)
	return img, nil
}

// WhitenedDistance is d′ between two noise-free images a and b over rect:
// the length of their difference whitened by the camera's noise, which
// adds to each pixel one Gaussian of sigma levels to all three channels and
// one of TwinNoiseChroma*sigma to each (PostProcess). Both images must
// hold rect, in the same coordinates (a's bounds may start anywhere).
func WhitenedDistance(a, b *image.RGBA, rect image.Rectangle, sigma float64) float64 {
	if sigma <= 0 {
		sigma = 1e-3
	}
	// covariance sigma²(J + c²I); its inverse (I - J/(3+c²)) / (c²sigma²)
	c2 := TwinNoiseChroma * TwinNoiseChroma
	var s float64
	for y := rect.Min.Y; y < rect.Max.Y; y++ {
		for x := rect.Min.X; x < rect.Max.X; x++ {
			pa, pb := a.PixOffset(x, y), b.PixOffset(x, y)
			var sq, sum float64
			for ch := 0; ch < 3; ch++ {
				dv := float64(a.Pix[pa+ch]) - float64(b.Pix[pb+ch])
				sq += dv * dv
				sum += dv
			}
			s += sq - sum*sum/(3+c2)
		}
	}
	return math.Sqrt(math.Max(s, 0) / (c2 * sigma * sigma))
}

// jpegError is the root mean square grey difference over rect between img
// and img encoded as JPEG at quality q (0: 80) and decoded.
func jpegError(img *image.RGBA, rect image.Rectangle, q int) (float64, error) {
	if q <= 0 {
		q = 80
	}
	var b bytes.Buffer
	if err := jpeg.Encode(&b, img, &jpeg.Options{Quality: q}); err != nil {
		return 0, fmt.Errorf("synth: %w", err)
	}
	dec, err := jpeg.Decode(&b)
	if err != nil {
		return 0, fmt.Errorf("synth: %w", err)
	}
	back := image.NewRGBA(img.Bounds())
	draw.Draw(back, back.Bounds(), dec, dec.Bounds().Min, draw.Src)
	rms, _ := GreyDifference(img, back, rect)
	return rms, nil
}

// GreyDifference is the root mean square and the largest difference of
// the grey levels ((R+G+B)/3) of a and b over rect.
func GreyDifference(a, b *image.RGBA, rect image.Rectangle) (rms, most float64) {
	var s float64
	n := 0
	for y := rect.Min.Y; y < rect.Max.Y; y++ {
		for x := rect.Min.X; x < rect.Max.X; x++ {
			pa, pb := a.PixOffset(x, y), b.PixOffset(x, y)
			var dv float64
			for ch := 0; ch < 3; ch++ {
				dv += float64(a.Pix[pa+ch]) - float64(b.Pix[pb+ch])
			}
			dv /= 3
			s += dv * dv
			most = math.Max(most, math.Abs(dv))
			n++
		}
	}
	if n == 0 {
		return 0, 0
	}
	return math.Sqrt(s / float64(n)), most
}

func (t Twin) String() string {
	return fmt.Sprintf("seat %d r%dc%d %s: d′ %.2f (twins %.1f), P(error) ≥ %.3f", t.Seat, t.Row+1, t.Col+1, t.Stack, t.Min, t.DPrime, t.PError)
}
