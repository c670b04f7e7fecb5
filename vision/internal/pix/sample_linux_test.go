package pix

import (
	"math/rand/v2"
	"syscall"
	"testing"
)

// TestColoursLastPixel reads a frame whose bytes end where a page the
// process may not read begins: reading the last pixel, whose bytes end
// the frame, must load none past it (the kernel's 4-byte loads stop at
// the frame's last 4 bytes), and give colour's bits.
func TestColoursLastPixel(t *testing.T) {
	const w, h = 11, 7
	img := guarded(t, w*h*3)
	copy(img, randomFrame(rand.New(rand.NewPCG(7, 8)), w, h))
	var s Sampler
	s.Frame(img, w, h, [3]float64{1, 1, 1})
	s.pixelCamera(1)
	u := []float64{w - 1, w - 1, w - 1.5, w - 1, 0, w - 1, w - 1, w - 1, w - 1}
	v := []float64{h - 1, h - 1.5, h - 1, h - 1, 0, h - 1, h - 1, h - 1, h - 1}
	checkColours(t, &s, u, v, "last pixel")
}

// TestDieLikeLastPixel: DieLike at a frame's last pixel, whose bytes end
// where a page the process may not read begins, loads nothing past them.
func TestDieLikeLastPixel(t *testing.T) {
	const w, h = 5, 3
	img := guarded(t, w*h*3)
	copy(img, dieFrame(rand.New(rand.NewPCG(21, 22)), w, h))
	var s Sampler
	s.Frame(img, w, h, [3]float64{1, 1, 1})
	s.pixelCamera(1)
	dt := DieTest{Card: [2]float64{0.2, 0.3}, Table: [2]float64{0.4, 0.35}, CardTol: 0.05, TableTol: 0.04, Dark: 120, Bright: 600}
	u := []float64{w - 1, w - 1, w - 1.2, w - 0.6, 0, w - 1, w - 1, w - 1}
	v := []float64{h - 1, h - 1, h - 1, h - 1, 0, h - 1.4, h - 1, h - 1}
	x, y, flags := make([]float64, 8), make([]float64, 8), make([]uint8, 8)
	s.DieLike(&dt, u, v, x, y, flags)
	for i := range u {
		want := uint8(1)
		if dt.die(&s, u[i], v[i]) {
			want |= 2
		}
		if flags[i] != want {
			t.Fatalf("point %d (%v, %v): flags %d, want %d", i, u[i], v[i], flags[i], want)
		}
	}
}

// TestBluePixelsLastByte reads rows whose last pixel's bytes end where a
// page the process may not read begins: BluePixels loads nothing past
// them, and gives the Go loop's values.
func TestBluePixelsLastByte(t *testing.T) {
	for _, n := range []int{16, 32, 33, 47, 640} {
		row := guarded(t, 6*(n-1)+3)
		rng := rand.New(rand.NewPCG(uint64(n), 1))
		for i := range row {
			row[i] = uint8(rng.IntN(256))
		}
		checkBlue(t, row, n)
	}
}

// guarded is n bytes that end where a page the process may not read
// begins (unmapped when the test ends).
func guarded(t *testing.T, n int) []byte {
	t.Helper()
	page := syscall.Getpagesize()
	size := (n + page - 1) / page * page
	mem, err := syscall.Mmap(-1, 0, size+page, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		t.Fatalf("mmap: %v", err)
	}
	t.Cleanup(func() { syscall.Munmap(mem) })
	if err := syscall.Mprotect(mem[size:], syscall.PROT_NONE); err != nil {
		t.Fatalf("mprotect: %v", err)
	}
	return mem[size-n : size]
}
