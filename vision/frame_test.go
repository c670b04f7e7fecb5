package vision

import "testing"

// TestValSatExact: the saturation by reciprocal is the integer division
// (v-lo)·255/v for every value and every lowest channel.
func TestValSatExact(t *testing.T) {
	for hi := 0; hi < 256; hi++ {
		for lo := 0; lo <= hi; lo++ {
			mid := (hi + lo) / 2
			v, s := valSat(uint8(lo), uint8(mid), uint8(hi))
			want := 0
			if hi > 0 {
				want = (hi - lo) * 255 / hi
			}
			if v != hi || s != want {
				t.Fatalf("max %d, min %d: valSat %d, %d; want %d, %d", hi, lo, v, s, hi, want)
			}
			// every channel may hold the largest value
			if v2, s2 := valSat(uint8(hi), uint8(lo), uint8(mid)); v2 != v || s2 != s {
				t.Fatalf("max %d, min %d in another order: %d, %d", hi, lo, v2, s2)
			}
		}
	}
}
