// Package imgsize reads an image file's header before OpenCV decodes it,
// and refuses, with a message naming what is wrong, what OpenCV would
// mishandle: an image of more than 64 Mpx (OpenCV aborts the whole
// process, an uncaught C++ exception, on one over 2^30 pixels, and takes
// gigabytes and tens of seconds on one just under), a PNG or JPEG file
// cut short (OpenCV reads a truncated JPEG as far as it goes, greys the
// rest and says so only on stderr), and a file of a format whose header
// it does not read (it knows PNG, JPEG, BMP, TIFF, WebP and PNM, what a
// camera or a photo tool writes).
package imgsize
