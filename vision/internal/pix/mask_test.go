package pix

import (
	"math/rand/v2"
	"testing"
)

// checkBlue compares BluePixels over n pixels of row with the formulas,
// and checks it writes nothing past them.
func checkBlue(t *testing.T, row []uint8, n int) {
	t.Helper()
	v, sum, bg := make([]int16, n+1), make([]int16, n+1), make([]int16, n+1)
	v[n], sum[n], bg[n] = 999, 999, 999
	BluePixels(row, v[:n], sum[:n], bg[:n])
	for i := 0; i < n; i++ {
		b, g, r := int16(row[6*i]), int16(row[6*i+1]), int16(row[6*i+2])
		if v[i] != b-max(g, r) || sum[i] != b+g+r || bg[i] != b-g {
			t.Fatalf("%d pixels: pixel %d (%d %d %d): %d %d %d", n, i, b, g, r, v[i], sum[i], bg[i])
		}
	}
	if v[n] != 999 || sum[n] != 999 || bg[n] != 999 {
		t.Fatalf("%d pixels: wrote past them", n)
	}
}

// extremeRow is n random bytes, a quarter of them 0 and a quarter 255.
func extremeRow(rng *rand.Rand, n int) []uint8 {
	row := make([]uint8, n)
	for i := range row {
		switch rng.IntN(4) {
		case 0:
			row[i] = 0
		case 1:
			row[i] = 255
		default:
			row[i] = uint8(rng.IntN(256))
		}
	}
	return row
}

// TestBluePixelsExact: BluePixels (the kernel where there is one) gives
// the formulas' values for every run length up to 100 and for pixels of
// every extreme.
func TestBluePixelsExact(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	for n := 1; n <= 100; n++ {
		row := extremeRow(rng, 6*n)
		checkBlue(t, row, n)
	}
	t.Logf("BluePixels ran the %s kernel (TestBlueYExact checks the AVX2 one)", MaskKernel())
}

// TestThresholdExact: Threshold gives the comparisons' marks for random
// values and every B+G+R, with tables reaching their last entry.
func TestThresholdExact(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 16))
	var ts, tw SumTable
	for i := range ts {
		ts[i], tw[i] = int16(rng.IntN(700)-350), int16(rng.IntN(700)-350)
	}
	ts[765], tw[765] = -32768, 32767
	for n := 0; n <= 200; n += 1 + n/4 {
		v, sum := make([]int16, n), make([]int16, n)
		for i := range v {
			v[i], sum[i] = int16(rng.IntN(511)-255), int16(rng.IntN(766))
			if i%7 == 0 {
				sum[i] = 765
			}
			if i%5 == 0 {
				v[i] = ts[sum[i]] - int16(rng.IntN(2)) // on the threshold or just below
			}
		}
		seed, half := make([]uint8, n+1), make([]uint8, n+1)
		seed[n], half[n] = 9, 9
		Threshold(v, sum, &ts, &tw, seed[:n], half[:n])
		for i := 0; i < n; i++ {
			ws, wh := uint8(0), uint8(0)
			if v[i] >= ts[sum[i]] {
				ws = 1
			}
			if v[i] >= tw[sum[i]] {
				wh = 255
			}
			if seed[i] != ws || half[i] != wh {
				t.Fatalf("%d pixels: pixel %d (v %d, sum %d): seed %d half %d, want %d %d", n, i, v[i], sum[i], seed[i], half[i], ws, wh)
			}
		}
		if seed[n] != 9 || half[n] != 9 {
			t.Fatalf("%d pixels: wrote past them", n)
		}
	}
}

// TestKeepLabelled: KeepLabelled ANDs each pixel with its label's entry
// (a label past the table reads its last entry), and with a table
// without room past its end runs the Go loop to the same result.
func TestKeepLabelled(t *testing.T) {
	rng := rand.New(rand.NewPCG(17, 18))
	for n := 0; n <= 300; n += 1 + n/3 {
		labels := 1 + rng.IntN(400)
		keep := make([]uint8, labels, labels+3)
		for i := range keep {
			keep[i] = uint8(rng.IntN(2)) * 255
		}
		mask, lab := make([]uint8, n+1), make([]uint16, n)
		for i := range lab {
			lab[i] = uint16(rng.IntN(labels + 5))
			mask[i] = uint8(rng.IntN(256))
		}
		mask[n] = 7
		want := make([]uint8, n)
		for i := range want {
			want[i] = mask[i] & keep[min(int(lab[i]), labels-1)]
		}
		tight := append([]uint8(nil), mask...)
		KeepLabelled(mask[:n], lab, keep)
		KeepLabelled(tight[:n], lab, keep[:labels:labels])
		for i := 0; i < n; i++ {
			if mask[i] != want[i] || tight[i] != want[i] {
				t.Fatalf("%d pixels: pixel %d (label %d): %d (tight table %d), want %d", n, i, lab[i], mask[i], tight[i], want[i])
			}
		}
		if mask[n] != 7 {
			t.Fatalf("%d pixels: wrote past them", n)
		}
	}
}

// blueYRun, threshYRun and keepYRun run the AVX2 kernels, the Go loop
// finishing the run, as BluePixels, Threshold and KeepLabelled do where
// there is no AVX-512 (the tests call them directly, since those pick
// AVX-512 where it is).
func blueYRun(row []uint8, v, sum, bg []int16) {
	k := len(v) &^ 15
	if k > 0 {
		blueY(&row[0], &v[0], &sum[0], &bg[0], k)
	}
	blueGo(row, v, sum, bg, k)
}

// threshYRun is Threshold by threshY (see blueYRun).
func threshYRun(v, sum []int16, ts, tw *SumTable, seed, half []uint8) {
	k := len(v) &^ 15
	if k > 0 {
		threshY(&v[0], &sum[0], &ts[0], &tw[0], &seed[0], &half[0], k)
	}
	threshGo(v, sum, ts, tw, seed, half, k)
}

// keepYRun is KeepLabelled by keepY (see blueYRun).
func keepYRun(mask []uint8, lab []uint16, keep []uint8) {
	k := len(mask) &^ 15
	if k > 0 {
		keepY(&mask[0], &lab[0], &keep[0], int32(len(keep)-1), k)
	}
	keepGo(mask, lab, keep, k)
}

// TestBlueYExact: blueY gives the Go loop's values for every pair of
// bytes in every pair of channels (the third random), and over runs of
// every length up to 100 of random pixels, the bytes between them
// random too; it writes nothing past the run.
func TestBlueYExact(t *testing.T) {
	if !hasWhiteY {
		t.Skip("no AVX2 here")
	}
	rng := rand.New(rand.NewPCG(25, 26))
	check := func(row []uint8, n int, what string) {
		t.Helper()
		row = row[:6*(n-1)+3]
		v, sum, bg := make([]int16, n+1), make([]int16, n+1), make([]int16, n+1)
		v[n], sum[n], bg[n] = 999, 999, 999
		blueYRun(row, v[:n], sum[:n], bg[:n])
		wv, wsum, wbg := make([]int16, n), make([]int16, n), make([]int16, n)
		blueGo(row, wv, wsum, wbg, 0)
		for i := 0; i < n; i++ {
			if v[i] != wv[i] || sum[i] != wsum[i] || bg[i] != wbg[i] {
				t.Fatalf("%s, %d pixels: pixel %d (%v): %d %d %d, want %d %d %d", what, n, i, row[6*i:6*i+3], v[i], sum[i], bg[i], wv[i], wsum[i], wbg[i])
			}
		}
		if v[n] != 999 || sum[n] != 999 || bg[n] != 999 {
			t.Fatalf("%s, %d pixels: wrote past them", what, n)
		}
	}
	// channels a and c (B and G, G and R, R and B) through every pair of
	// bytes, the third random
	for a := 0; a < 3; a++ {
		c := (a + 1) % 3
		row := make([]uint8, 6*65536)
		for i := range row {
			row[i] = uint8(rng.IntN(256))
		}
		for i := 0; i < 65536; i++ {
			row[6*i+a], row[6*i+c] = uint8(i), uint8(i>>8)
		}
		check(row, 65536, "every pair")
	}
	for n := 1; n <= 100; n++ {
		row := extremeRow(rng, 6*n)
		check(row, n, "random run")
	}
}

// TestThresholdYExact: threshY gives the Go loop's marks for values on,
// just below and just above each threshold, the extremes of int16 and
// random ones, for every B+G+R (0 and 765 often), with tables of random
// and extreme entries (those past 765 too, which the kernel loads and
// must drop); it writes nothing past the run.
func TestThresholdYExact(t *testing.T) {
	if !hasWhiteY {
		t.Skip("no AVX2 here")
	}
	rng := rand.New(rand.NewPCG(27, 28))
	var ts, tw SumTable
	for i := range ts {
		ts[i], tw[i] = int16(rng.IntN(700)-350), int16(rng.IntN(700)-350)
		if rng.IntN(8) == 0 {
			ts[i], tw[i] = int16(rng.Uint32()), int16(rng.Uint32())
		}
	}
	ts[0], tw[0] = 32767, -32768
	ts[765], tw[765] = -32768, 32767
	ts[766], tw[766], ts[767], tw[767] = -1, -1, 32767, -32768
	for n := 0; n <= 2000; n += 1 + n/8 {
		v, sum := make([]int16, n), make([]int16, n)
		for i := range v {
			sum[i] = int16(rng.IntN(766))
			switch rng.IntN(8) {
			case 0:
				sum[i] = 0
			case 1:
				sum[i] = 765
			}
			t := ts[sum[i]]
			if rng.IntN(2) == 0 {
				t = tw[sum[i]]
			}
			switch rng.IntN(6) {
			case 0:
				v[i] = int16(rng.IntN(511) - 255)
			case 1:
				v[i] = []int16{-32768, -32767, -1, 0, 1, 32766, 32767}[rng.IntN(7)]
			default:
				v[i] = t + int16(rng.IntN(3)-1) // on the threshold or beside it (wrapping at the ends)
			}
		}
		seed, half := make([]uint8, n+1), make([]uint8, n+1)
		seed[n], half[n] = 9, 9
		threshYRun(v, sum, &ts, &tw, seed[:n], half[:n])
		ws, wh := make([]uint8, n), make([]uint8, n)
		threshGo(v, sum, &ts, &tw, ws, wh, 0)
		for i := 0; i < n; i++ {
			if seed[i] != ws[i] || half[i] != wh[i] {
				t.Fatalf("%d pixels: pixel %d (v %d, sum %d, ts %d, tw %d): seed %d half %d, want %d %d", n, i, v[i], sum[i], ts[sum[i]], tw[sum[i]], seed[i], half[i], ws[i], wh[i])
			}
		}
		if seed[n] != 9 || half[n] != 9 {
			t.Fatalf("%d pixels: wrote past them", n)
		}
	}
}

// TestKeepYExact: keepY gives the Go loop's masks for tables of 1 to
// 65536 random bytes (random bytes in their room past the end too, which
// the kernel loads and must drop), labels inside and past the table (up
// to 65535) and random masks; it writes nothing past the run.
func TestKeepYExact(t *testing.T) {
	if !hasWhiteY {
		t.Skip("no AVX2 here")
	}
	rng := rand.New(rand.NewPCG(29, 30))
	for _, labels := range []int{1, 2, 3, 4, 17, 255, 256, 400, 4097, 65535, 65536} {
		room := make([]uint8, labels+3)
		for i := range room {
			room[i] = uint8(rng.IntN(256))
		}
		keep := room[:labels]
		for n := 0; n <= 300; n += 1 + n/3 {
			mask, lab := make([]uint8, n+1), make([]uint16, n)
			for i := range lab {
				switch rng.IntN(8) {
				case 0:
					lab[i] = uint16(labels - 1 + rng.IntN(3))
				case 1:
					lab[i] = 65535
				default:
					lab[i] = uint16(rng.IntN(labels))
				}
				mask[i] = uint8(rng.IntN(256))
			}
			mask[n] = 7
			want := append([]uint8(nil), mask[:n]...)
			keepGo(want, lab, keep, 0)
			keepYRun(mask[:n], lab, keep)
			for i := 0; i < n; i++ {
				if mask[i] != want[i] {
					t.Fatalf("%d labels, %d pixels: pixel %d (label %d): %d, want %d", labels, n, i, lab[i], mask[i], want[i])
				}
			}
			if mask[n] != 7 {
				t.Fatalf("%d labels, %d pixels: wrote past them", labels, n)
			}
		}
	}
}

// maskRow is a row of the half-size grid of a 1280×720 frame.
const maskRow = 640

// maskWay is one of a mask pass's ways: by the function (the kernel it
// picks here), the AVX2 kernel itself (where there is AVX2) or Go.
type maskWay[F any] struct {
	name string
	f    F
}

// BenchmarkBluePixels: a row of maskRow pixels by BluePixels, blueY and
// the Go loop.
func BenchmarkBluePixels(b *testing.B) {
	rng := rand.New(rand.NewPCG(19, 20))
	row := make([]uint8, 6*maskRow)
	for i := range row {
		row[i] = uint8(rng.IntN(256))
	}
	v, sum, bg := make([]int16, maskRow), make([]int16, maskRow), make([]int16, maskRow)
	type f = func([]uint8, []int16, []int16, []int16)
	ways := []maskWay[f]{{"BluePixels", BluePixels}, {"Go", func(row []uint8, v, sum, bg []int16) { blueGo(row, v, sum, bg, 0) }}}
	if hasWhiteY {
		ways = append(ways, maskWay[f]{"blueY", blueYRun})
	}
	for _, way := range ways {
		b.Run(way.name, func(b *testing.B) {
			for b.Loop() {
				way.f(row, v, sum, bg)
			}
		})
	}
}

// BenchmarkThreshold: a row of maskRow pixels by Threshold, threshY and
// the Go loop.
func BenchmarkThreshold(b *testing.B) {
	rng := rand.New(rand.NewPCG(21, 22))
	var ts, tw SumTable
	for i := range ts {
		ts[i], tw[i] = int16(rng.IntN(511)-255), int16(rng.IntN(511)-255)
	}
	v, sum := make([]int16, maskRow), make([]int16, maskRow)
	for i := range v {
		v[i], sum[i] = int16(rng.IntN(511)-255), int16(rng.IntN(766))
	}
	seed, half := make([]uint8, maskRow), make([]uint8, maskRow)
	type f = func([]int16, []int16, *SumTable, *SumTable, []uint8, []uint8)
	ways := []maskWay[f]{{"Threshold", Threshold}, {"Go", func(v, sum []int16, ts, tw *SumTable, seed, half []uint8) {
		threshGo(v, sum, ts, tw, seed, half, 0)
	}}}
	if hasWhiteY {
		ways = append(ways, maskWay[f]{"threshY", threshYRun})
	}
	for _, way := range ways {
		b.Run(way.name, func(b *testing.B) {
			for b.Loop() {
				way.f(v, sum, &ts, &tw, seed, half)
			}
		})
	}
}

// BenchmarkKeepLabelled: a row of maskRow pixels of 300 labels by
// KeepLabelled, keepY and the Go loop.
func BenchmarkKeepLabelled(b *testing.B) {
	rng := rand.New(rand.NewPCG(23, 24))
	keep := make([]uint8, 300, 303)
	for i := range keep {
		keep[i] = uint8(rng.IntN(2)) * 255
	}
	mask, lab := make([]uint8, maskRow), make([]uint16, maskRow)
	for i := range lab {
		lab[i] = uint16(rng.IntN(310))
	}
	type f = func([]uint8, []uint16, []uint8)
	ways := []maskWay[f]{{"KeepLabelled", KeepLabelled}, {"Go", func(mask []uint8, lab []uint16, keep []uint8) { keepGo(mask, lab, keep, 0) }}}
	if hasWhiteY {
		ways = append(ways, maskWay[f]{"keepY", keepYRun})
	}
	for _, way := range ways {
		b.Run(way.name, func(b *testing.B) {
			for b.Loop() {
				way.f(mask, lab, keep)
			}
		})
	}
}
