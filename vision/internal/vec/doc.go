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
//
// Subnormal numbers (below 2^-126) are flushed to zero: the assembly
// kernels here and in vision/internal/cnn set MXCSR's flush-to-zero and
// denormals-are-zero bits for the length of each call (and put the
// caller's MXCSR back), and FlushSubnormals zeroes a network's subnormal
// weights as it is loaded. On many Intel processors every multiply with a
// subnormal operand or result takes a microcode assist of a hundred
// cycles or more, and weight decay leaves a quarter to a third of the
// height CNNs' weights subnormal: without the flush the four-card frame's
// read took three times as long on such a machine. Where nothing is
// subnormal the bits are the same as the Go loops'; where something is,
// the difference is below 2^-126.
package vec
