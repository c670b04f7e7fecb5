//go:build !amd64

package pix

var hasWhiteZ = false

func whiteZ(dst *int16, bgr *uint8, n int) { panic("pix: no whiteZ here") }
