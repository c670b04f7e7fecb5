// Package imgsize reads an image file's width and height from its header
// before OpenCV decodes it. OpenCV aborts the whole process (an uncaught
// C++ exception) on an image of more than 2^30 pixels, and takes
// gigabytes and tens of seconds on one just under, so the vision code
// refuses such a file by its header first.
package imgsize
