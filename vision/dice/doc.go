// Package dice reads the value of one die in a photo: given an image and a
// box around the die, Reader.Read says how many pips are on top (1-6) and
// how sure it is.
//
// Where it fits: a detector (a later part of vision/) finds the dice in a
// camera frame or an overhead render and hands each box here; the reading
// leaves vision/ as plain values (Reading: pips and confidence) and becomes
// the top die of an Observation. No gocv.Mat leaves the package: callers
// inside vision/ pass their own Mat (which they keep owning), and LoadImage /
// Reader.ReadFile load, read and free an image file for callers outside.
//
// How it reads: the box is shrunk (area averaging) to a small grey patch
// normalised to zero mean and unit variance, and a small convolutional
// network (pure Go, internal/cnn, model file model/pips.cnn embedded at build
// time; the file may hold an ensemble of several networks, which may read
// patches of different sides or grey and colour ones) gives the
// probability of each value. The answers are averaged over every network
// and over three placements of the box: as given and moved up and down by
// 5 % of its height (Options.Boxes); Options.Passes adds mirror images. The
// networks were trained by
// vision/dice/train (`make dice-model`, seeded, one core) on the real-photo
// data set ../shared/datasets/dice-real with fresh random views of every die
// each epoch: mirror images, small turns, loose and shifted boxes, gamma,
// blur, noise and polarity inversion (light pips on dark dice and dark pips
// on light dice are both read). Views are kept upright: at an angle, the top
// face of a die is the upper part of its box, and the network relies on
// that. ClassicReader, a blob-counting baseline with no training, is kept to
// measure against. README.md has the method and the figures, which are
// measured on source photos the training never saw (fold 0 of a split by
// source photo).
//
// Readers own their buffers (Mats included), are not safe for concurrent
// use, and must be closed. Errors wrap ErrImage, ErrBox, ErrLabel or
// ErrDataset; bad input never panics.
package dice
