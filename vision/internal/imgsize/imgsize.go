package imgsize

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"image"
	_ "image/gif" // headers the vision code is given
	_ "image/jpeg"
	_ "image/png"
	"io"
)

// MaxPixels is the most pixels an image the vision code decodes may have:
// 64 Mpx, more than an 8000x8000 photo (a 4K camera frame is 8.3 Mpx).
const MaxPixels = 64 << 20

// Check reads the header of the image r holds and returns an error naming
// its size where that is more than MaxPixels. A header it cannot read
// (another format than PNG, JPEG or GIF, or a damaged file) is left to
// OpenCV: nil.
func Check(r io.Reader) error {
	c, _, err := image.DecodeConfig(r)
	if err != nil {
		return nil
	}
	if c.Width <= 0 || c.Height <= 0 || int64(c.Width)*int64(c.Height) > MaxPixels {
		return fmt.Errorf("the image is %dx%d pixels, more than the %d Mpx read", c.Width, c.Height, MaxPixels>>20)
	}
	return nil
}

// PNGHeader is the start of a PNG file that says it is w x h pixels, its
// pixel data left out: what Check reads, for tests of its callers (a file
// of it is refused by its header where OpenCV would abort).
func PNGHeader(w, h uint32) []byte {
	var b bytes.Buffer
	b.WriteString("\x89PNG\r\n\x1a\n")
	ihdr := make([]byte, 13)
	binary.BigEndian.PutUint32(ihdr[0:], w)
	binary.BigEndian.PutUint32(ihdr[4:], h)
	ihdr[8], ihdr[9] = 8, 2 // 8-bit RGB
	_ = binary.Write(&b, binary.BigEndian, uint32(len(ihdr)))
	chunk := append([]byte("IHDR"), ihdr...)
	b.Write(chunk)
	_ = binary.Write(&b, binary.BigEndian, crc32.ChecksumIEEE(chunk))
	return b.Bytes()
}
