//go:build !amd64

package vec

func dot32Blocks(acc *[32]float32, a, b []float32) { dot32BlocksGo(acc, a, b) }
