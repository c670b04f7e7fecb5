// Package cnn is a very small convolutional network in pure Go: a stack of
// 3x3 convolutions (same padding, ReLU, 2x2 max-pool), one hidden dense layer
// with ReLU, and a softmax output. It exists so the dice pip reader can carry
// a learned classifier without a machine-learning runtime: inference needs no
// allocation once a Workspace exists, training is plain mini-batch Adam,
// seeded and single-threaded, and a model is a few tens of kilobytes.
//
// It knows nothing about images or dice: the caller hands it a C×H×W tensor
// of float32 and gets class probabilities back.
//
// Speed: on amd64 the forward pass's convolutions and dense layers run in
// assembly — AVX2/FMA kernels (vec_amd64.s; rows_amd64.s, which
// gen_rows.go writes) and, where the processor has AVX-512F, kernels that
// do several output channels of 16-wide vectors a call (convz_amd64.s,
// also from gen_rows.go; densez_amd64.s, from weights laid out when a
// model file is read). The AVX-512 kernels give each output the AVX2
// kernels' operations in the same order, so the same bits (tests compare
// them bit for bit), and every kernel runs with MXCSR's
// flush-to-zero and denormals-are-zero bits set for the call
// (flush_amd64.h); model files' subnormal weights are read as zero and an
// Adam step zeroes those it makes. Subnormal operands cost a microcode
// assist per operation on many Intel processors: trained networks have
// many such weights, and without the flush a forward pass ran two to
// three times slower there. GODEBUG=cpu.avx512f=off leaves the AVX-512
// kernels out. Where there is AVX2 but no AVX-512 (a processor before
// Zen 4, or a virtual machine that hides it), the convolutions also do
// several output channels a call (convy_amd64.s, from gen_rows.go), the
// dense layer 16 rows a call (densey_amd64.s), and inference uses a
// compact layout that computes no padding columns (Forward; the input
// planes as three column-shifted copies, shiftPlanes): the same bits
// again (TestConvReluLayer, TestDotRowsWT, TestForwardCompact).
package cnn
