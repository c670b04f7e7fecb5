package synth

import (
	"context"
	"testing"

	"github.com/blueprints-companion/blueprints/vision/cardmodel"
)

// BenchmarkGenerate: scene generation (layout, framing, truth) without
// rendering.
func BenchmarkGenerate(b *testing.B) {
	cat, err := LoadCatalogue("../../configs/blueprints.json")
	if err != nil {
		b.Fatal(err)
	}
	opt := Options{Model: cardmodel.Default(), Catalogue: cat, HandProb: 0.3, ScreenProb: 0.25, GlareProb: 0.2}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		sc, err := Generate(uint64(i), opt)
		if err != nil {
			b.Fatal(err)
		}
		_ = TruthOf(sc, "x.jpg")
	}
}

// BenchmarkRenderStill1280: one 1280x720 still with POV-Ray on one thread,
// camera simulation included (seconds per still, the corpus budget).
func BenchmarkRenderStill1280(b *testing.B) {
	cat, err := LoadCatalogue("../../configs/blueprints.json")
	if err != nil {
		b.Fatal(err)
	}
	opt := Options{Model: cardmodel.Default(), Catalogue: cat, Players: 3, Width: 1280, Height: 720, HandProb: 1}
	sc, err := Generate(12, opt)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Render(context.Background(), sc, RenderOptions{Threads: 1}); err != nil {
			b.Fatal(err)
		}
	}
}
