// Package aug holds the patch transforms shared by the dice reader and its
// trainer: the eight symmetries of a square (a die's pip count does not
// change under any of them).
package aug

// Dihedral writes to dst the side×side planes of src (any number of them)
// transformed by symmetry k of the square, 0..7: k&3 quarter turns
// clockwise, then a left-right mirror if k&4 != 0. k = 0 copies.
func Dihedral(dst, src []float32, side, k int) {
	n := side * side
	for c := 0; c+n <= len(src) && c+n <= len(dst); c += n {
		d, s := dst[c:c+n], src[c:c+n]
		for y := 0; y < side; y++ {
			for x := 0; x < side; x++ {
				// (x, y) in dst comes from (sx, sy) in src.
				xx := x
				if k&4 != 0 {
					xx = side - 1 - x
				}
				sx, sy := xx, y
				switch k & 3 {
				case 1: // clockwise: dst(x,y) = src(y, side-1-x)
					sx, sy = y, side-1-xx
				case 2:
					sx, sy = side-1-xx, side-1-y
				case 3:
					sx, sy = side-1-y, xx
				}
				d[y*side+x] = s[sy*side+sx]
			}
		}
	}
}
