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

// TestBluePixelsExact: BluePixels (the kernel where there is one) gives
// the formulas' values for every run length up to 100 and for pixels of
// every extreme.
func TestBluePixelsExact(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	for n := 1; n <= 100; n++ {
		row := make([]uint8, 6*n)
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
		checkBlue(t, row, n)
	}
	if !FastMasks {
		t.Log("no AVX-512 VBMI here: only the Go loop was checked")
	}
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
