package engine

import (
	"math/rand/v2"
	"os"
	"testing"
)

func loadCatalogue(tb testing.TB) Catalogue {
	tb.Helper()
	data, err := os.ReadFile("../configs/blueprints.json")
	if err != nil {
		tb.Fatalf("read catalogue: %v", err)
	}
	cat, err := ParseCatalogue(data)
	if err != nil {
		tb.Fatalf("parse catalogue: %v", err)
	}
	return cat
}

// BenchmarkScore scores one six-dice building with every rule in play.
func BenchmarkScore(b *testing.B) {
	bp, _ := ParseBlueprint("12/1X/2X")
	bld := MustBuilding([2]string{"W4", "R2 G2"}, [2]string{"R3", ""}, [2]string{"S1 G1", ""})
	b.ReportAllocs()
	var sink int
	for b.Loop() {
		sink += Score(&bp, &bld).Total
	}
	if sink == 0 {
		b.Fatal("no score")
	}
}

// BenchmarkGame4Random plays one whole 4-player game with random bots, event
// log and all; games per second per core is 1e9 / ns/op.
func BenchmarkGame4Random(b *testing.B) {
	cat := loadCatalogue(b)
	g := &Game{}
	bots := []Bot{RandomBot{}, RandomBot{}, RandomBot{}, RandomBot{}}
	pcg := rand.NewPCG(0, 0)
	rng := rand.New(pcg)
	names := []string{"A", "B", "C", "D"}
	b.ReportAllocs()
	seed := uint64(0)
	for b.Loop() {
		seed++
		if err := g.reset(Options{Players: names, Seed: seed, Catalogue: cat}); err != nil {
			b.Fatal(err)
		}
		pcg.Seed(seed, 1)
		if err := PlayOut(g, bots, rng); err != nil {
			b.Fatal(err)
		}
	}
}
