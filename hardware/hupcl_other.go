//go:build !linux

package hardware

// keepDTROnClose is only needed (and only done) on Linux.
func keepDTROnClose(string) {}
