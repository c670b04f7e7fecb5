//go:build !amd64

package vec

var hasAVX bool // lets the test switch "off" the SIMD it does not have
