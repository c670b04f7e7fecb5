// Package vec holds the two float32 kernels the vision networks are built
// on — the dot product and a*x+y — in portable Go, unrolled into four
// independent sums so that the additions overlap. Both the cell networks
// (vision/internal/mlp) and the die reader's CNN (vision/internal/cnn)
// call them; the CNN adds SIMD versions of its own where it can use them.
// The order of the additions is fixed: the same inputs give the same bits
// on every run, which keeps trained model files reproducible.
package vec
