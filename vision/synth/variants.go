package synth

import (
	"context"
	"image"
	"image/draw"
	"math/rand/v2"
)

// Variant is a scene and its camera-simulated image.
type Variant struct {
	Scene *Scene
	Image *image.RGBA
}

// GlassVariants renders sc and n variants of it in which every clear glass
// top die on the cards shows another value (the k-th variant, k = 1..5,
// shows v+k where the die shows v, counting on from 6 to 1, so five
// variants show each die with every other value once; its quarter turn is
// drawn from rng), everything else the same. The scene is ray-traced once, whole; each variant only in
// the windows of its changed dice, pasted into that render (with the area
// lights' jitter off throughout, so the pieces match). Each image then
// gets the scene's camera simulation (blur, sensor noise seeded per
// variant). The first Variant is sc itself. These are the hardest
// training pairs for a reader of glass tops: the same place, light and
// stack, only the top value differs (see Twin).
func GlassVariants(ctx context.Context, sc *Scene, opt RenderOptions, n int, rng *rand.Rand) ([]Variant, error) {
	o := opt
	o.NoJitter, o.Raw = true, true
	o.Window = image.Rectangle{}
	raw, err := Render(ctx, sc, o)
	if err != nil {
		return nil, err
	}
	base := image.NewRGBA(image.Rect(0, 0, sc.Cam.Width, sc.Cam.Height))
	draw.Draw(base, base.Bounds(), raw, raw.Bounds().Min, draw.Src)
	out := []Variant{{Scene: sc, Image: PostProcess(base, sc.Post, sc.Seed)}}
	for j := 0; j < n; j++ {
		alt := *sc
		alt.Cards = append([]Card(nil), sc.Cards...)
		var wins []image.Rectangle
		for _, g := range GlassTops(sc) {
			d := g.die(sc)
			w, ok := dieWindow(sc.Cam, d, sc.Model.Die, 0)
			if !ok {
				continue // at the image's edge: left as it is
			}
			u := 1 + (d.Pips-1+j%5+1)%6
			rots := Showing(u, g.worldYaw(sc))
			g.set(&alt, u, rots[rng.IntN(len(rots))])
			wins = append(wins, w.outer)
		}
		img := image.NewRGBA(base.Bounds())
		copy(img.Pix, base.Pix)
		for _, w := range wins {
			o.Window = w
			part, err := Render(ctx, &alt, o)
			if err != nil {
				return nil, err
			}
			draw.Draw(img, w, part, w.Min, draw.Src)
		}
		out = append(out, Variant{Scene: &alt, Image: PostProcess(img, sc.Post, sc.Seed+uint64(j+1)*0x9e3779b97f4a7c15)})
	}
	return out, nil
}
