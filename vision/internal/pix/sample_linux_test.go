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
	id := [3][3]float64{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}
	s.Camera(id, [3]float64{0, 0, 1}, 1, 1, 0, 0)
	s.Plane(0, 0, 1, 0, 0, 1, 0, id)
	u := []float64{w - 1, w - 1, w - 1.5, w - 1, 0, w - 1, w - 1, w - 1, w - 1}
	v := []float64{h - 1, h - 1.5, h - 1, h - 1, 0, h - 1, h - 1, h - 1, h - 1}
	checkColours(t, &s, u, v, "last pixel")
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
