package aug

import "testing"

// TestDihedral checks that the eight transforms are distinct, that four
// quarter turns come back to the start and that a mirror is its own inverse.
func TestDihedral(t *testing.T) {
	const side = 5
	src := make([]float32, 2*side*side)
	for i := range src {
		src[i] = float32(i)
	}
	seen := map[[2 * side * side]float32]int{}
	for k := 0; k < 8; k++ {
		var d [2 * side * side]float32
		Dihedral(d[:], src, side, k)
		if j, dup := seen[d]; dup {
			t.Fatalf("transforms %d and %d agree", j, k)
		}
		seen[d] = k
		// the second plane is transformed like the first
		for i := 0; i < side*side; i++ {
			if d[side*side+i] != d[i]+side*side {
				t.Fatalf("k=%d: planes transformed differently", k)
			}
		}
	}
	a, b := make([]float32, len(src)), make([]float32, len(src))
	copy(a, src)
	for i := 0; i < 4; i++ {
		Dihedral(b, a, side, 1)
		a, b = b, a
	}
	for i := range a {
		if a[i] != src[i] {
			t.Fatal("four quarter turns do not come back")
		}
	}
	Dihedral(a, src, side, 4)
	Dihedral(b, a, side, 4)
	for i := range b {
		if b[i] != src[i] {
			t.Fatal("mirroring twice does not come back")
		}
	}
	// k=1 is a clockwise quarter turn: the top-left corner goes top-right.
	Dihedral(a, src, side, 1)
	if a[side-1] != src[0] {
		t.Fatalf("k=1: top-right is %v, want the old top-left %v", a[side-1], src[0])
	}
}
