//go:build !amd64

package pix

var hasWhiteZ, hasWhiteY = false, false

func whiteY(dst *int16, bgr *uint8, n int) { panic("pix: no whiteY here") }

func whiteZ(dst *int16, bgr *uint8, n int) { panic("pix: no whiteZ here") }

func blueZ(row *uint8, v, sum, bg *int16, n int) { panic("pix: no blueZ here") }

func threshZ(v, sum, ts, tw *int16, seed, half *uint8, n int) { panic("pix: no threshZ here") }

func keepZ(mask *uint8, lab *uint16, keep *uint8, last int32, n int) {
	panic("pix: no keepZ here")
}

func blueY(row *uint8, v, sum, bg *int16, n int) { panic("pix: no blueY here") }

func threshY(v, sum, ts, tw *int16, seed, half *uint8, n int) { panic("pix: no threshY here") }

func keepY(mask *uint8, lab *uint16, keep *uint8, last int32, n int) {
	panic("pix: no keepY here")
}
