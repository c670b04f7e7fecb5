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
	page := syscall.Getpagesize()
	mem, err := syscall.Mmap(-1, 0, 2*page, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		t.Fatalf("mmap: %v", err)
	}
	defer syscall.Munmap(mem)
	if err := syscall.Mprotect(mem[page:], syscall.PROT_NONE); err != nil {
		t.Fatalf("mprotect: %v", err)
	}
	const w, h = 11, 7
	img := mem[page-w*h*3 : page]
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
