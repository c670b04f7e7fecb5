// Package vec holds the float32 kernels the vision networks are built on.
// Dot and Axpy are portable Go, unrolled into four independent sums so
// that the additions overlap; the die reader's CNN (vision/internal/cnn)
// calls them and adds SIMD versions of its own where it can. Dot32 is the
// dot product of the cell networks (vision/internal/mlp), whose rows run
// to thousands of inputs: 32 lanes, with an AVX version (dot32_amd64.s)
// that keeps the same order of additions and so gives the same bits.
// Every kernel's order is fixed: the same inputs give the same bits on
// every run and every machine, which keeps trained model files
// reproducible.
package vec
