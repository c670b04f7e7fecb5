// Package mlp is a small fully connected classifier in pure Go: ReLU hidden
// layers, softmax output, trained with Adam on minibatches from a seeded
// source, stored as a checksummed little-endian model file. The table
// reader (package vision) uses it to read cells from patches of the image;
// it knows nothing of images itself.
//
// Predict does not allocate once a Scratch is made; a Net is safe for
// concurrent Predict calls with one Scratch per goroutine. Unmarshal
// rejects malformed files with an error wrapping ErrFormat, never a panic.
package mlp
