//go:build !amd64

package pix

var hasSampleZ, hasSampleY = false, false

func sampleZ(s *Sampler, img *uint8, u, v *float64, ob, og, or *float32, n int) {
	panic("pix: no sampleZ here")
}

func sampleY(s *Sampler, img *uint8, u, v *float64, ob, og, or *float32, n int) {
	panic("pix: no sampleY here")
}

func alongZ(a *tileArgs, fr, out *float64, n int) int { panic("pix: no alongZ here") }

func nearestZ(s *Sampler, a *tileArgs, u, v, out *float64, idx *int32, n int) int {
	panic("pix: no nearestZ here")
}

func dieZ(s *Sampler, t *DieTest, img *uint8, u, v, x, y *float64, flags *uint8, n int) {
	panic("pix: no dieZ here")
}

func alongY(a *tileArgs, fr, out *float64, n int) int { panic("pix: no alongY here") }

func nearestY(s *Sampler, a *tileArgs, u, v, out *float64, idx *int32, n int) int {
	panic("pix: no nearestY here")
}

func dieY(s *Sampler, t *DieTest, img *uint8, u, v, x, y *float64, flags *uint8, n int) {
	panic("pix: no dieY here")
}
