package pix

import (
	"math/rand/v2"
	"testing"
)

// TestValSatExact: the saturation by reciprocal is the integer division
// (v-lo)·255/v for every value and every lowest channel.
func TestValSatExact(t *testing.T) {
	for hi := 0; hi < 256; hi++ {
		for lo := 0; lo <= hi; lo++ {
			mid := (hi + lo) / 2
			v, s := ValSat(uint8(lo), uint8(mid), uint8(hi))
			want := 0
			if hi > 0 {
				want = (hi - lo) * 255 / hi
			}
			if v != hi || s != want {
				t.Fatalf("max %d, min %d: ValSat %d, %d; want %d, %d", hi, lo, v, s, hi, want)
			}
			// every channel may hold the largest value
			if v2, s2 := ValSat(uint8(hi), uint8(lo), uint8(mid)); v2 != v || s2 != s {
				t.Fatalf("max %d, min %d in another order: %d, %d", hi, lo, v2, s2)
			}
		}
	}
}

// TestWhitenessExact: Whiteness (the AVX-512 kernel where the processor
// has it) gives ValSat's value minus saturation for every pair of highest
// and lowest channel, with each channel in each place, and over runs of
// every length and alignment of random pixels.
func TestWhitenessExact(t *testing.T) {
	var bgr []uint8
	for hi := 0; hi < 256; hi++ {
		for lo := 0; lo <= hi; lo++ {
			mid := uint8((hi + lo) / 2)
			bgr = append(bgr, uint8(lo), mid, uint8(hi), uint8(hi), uint8(lo), mid, mid, uint8(hi), uint8(lo))
		}
	}
	// Whiteness (with the kernel it picks here), and the AVX2 kernel
	// itself where there is AVX2 (Whiteness picks AVX-512 where it can)
	ways := []struct {
		name string
		f    func([]int16, []uint8)
	}{{"Whiteness", Whiteness}}
	if hasWhiteY {
		ways = append(ways, struct {
			name string
			f    func([]int16, []uint8)
		}{"whiteY", func(dst []int16, bgr []uint8) {
			n := len(dst) &^ 15
			if n > 0 {
				whiteY(&dst[0], &bgr[0], n)
			}
			whitenessGo(dst[n:], bgr[3*n:3*len(dst)])
		}})
	}
	for _, way := range ways {
		check := func(bgr []uint8, what string) {
			t.Helper()
			dst := make([]int16, len(bgr)/3+1)
			dst[len(dst)-1] = 12345 // past the run: untouched
			way.f(dst[:len(dst)-1], bgr)
			for i := 0; i < len(dst)-1; i++ {
				v, s := ValSat(bgr[3*i], bgr[3*i+1], bgr[3*i+2])
				if int(dst[i]) != v-s {
					t.Fatalf("%s, %s: pixel %d (%v): %d, want %d", way.name, what, i, bgr[3*i:3*i+3], dst[i], v-s)
				}
			}
			if dst[len(dst)-1] != 12345 {
				t.Fatalf("%s, %s: wrote past the run", way.name, what)
			}
		}
		check(bgr, "every pair")
		rng := rand.New(rand.NewPCG(1, 2))
		buf := make([]uint8, 3*200+9)
		for i := range buf {
			buf[i] = uint8(rng.IntN(256))
		}
		for start := 0; start < 3; start++ {
			for n := 0; n <= 200; n++ {
				check(buf[3*start:3*start+3*n], "random run")
			}
		}
	}
	switch {
	case hasWhiteZ:
		t.Log("checked the AVX-512 kernel (by Whiteness), the AVX2 one and Go")
	case hasWhiteY:
		t.Log("no AVX-512 VBMI here: checked the AVX2 kernel and Go")
	default:
		t.Log("no AVX2 here: only the Go version was checked")
	}
}

// BenchmarkWhiteness: a 1280-pixel row by Whiteness (the kernel where
// there is one) and by the Go loop.
func BenchmarkWhiteness(b *testing.B) {
	bgr := make([]uint8, 3*1280)
	for i := range bgr {
		bgr[i] = uint8(i * 7)
	}
	dst := make([]int16, 1280)
	for _, way := range []struct {
		name string
		f    func([]int16, []uint8)
	}{{"Whiteness", Whiteness}, {"Go", whitenessGo}} {
		b.Run(way.name, func(b *testing.B) {
			b.SetBytes(int64(len(bgr)))
			for b.Loop() {
				way.f(dst, bgr)
			}
		})
	}
}
