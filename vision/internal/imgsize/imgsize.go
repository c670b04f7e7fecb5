package imgsize

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io/fs"
	"os"
)

// MaxPixels is the most pixels an image the vision code decodes may have:
// 64 Mpx, more than an 8000x8000 photo (a 4K camera frame is 8.3 Mpx).
const MaxPixels = 64 << 20

// MaxFileBytes is the largest image file the vision code reads: 1 GiB,
// more than an uncompressed 64 Mpx picture of 16-bit colour.
const MaxFileBytes = 1 << 30

// Formats names the formats Check knows, for messages.
const Formats = "PNG, JPEG, BMP, TIFF, WebP or PNM"

// Check reads the header of the image file data holds and returns an
// error naming what is wrong where OpenCV should not be given it: a
// format Check does not know (OpenCV's other decoders are left out, so
// that none of them gets a header nobody looked at), a size of more than
// MaxPixels or of no pixels, or a PNG or JPEG file that ends before its
// end (a truncated file, which OpenCV would read as far as it goes and
// fill with grey).
func Check(data []byte) error {
	if len(data) == 0 {
		return fmt.Errorf("the file is empty")
	}
	w, h, err := size(data)
	if err != nil {
		return err
	}
	if w <= 0 || h <= 0 {
		return fmt.Errorf("the image says it is %dx%d pixels", w, h)
	}
	if w > MaxPixels || h > MaxPixels || w*h > MaxPixels {
		return fmt.Errorf("the image is %dx%d pixels, more than the %d Mpx read", w, h, MaxPixels>>20)
	}
	return nil
}

// ReadFile reads the image file at path and Checks it: its bytes, or an
// error naming what is wrong with it (not the path, which the caller
// names).
func ReadFile(path string) ([]byte, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, bare(err)
	}
	if st.IsDir() {
		return nil, fmt.Errorf("a directory, not an image file")
	}
	if st.Size() > MaxFileBytes {
		return nil, fmt.Errorf("the file is %d bytes, more than the %d MiB an image may take", st.Size(), MaxFileBytes>>20)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, bare(err)
	}
	if err := Check(data); err != nil {
		return nil, err
	}
	return data, nil
}

// bare is err without the path an *fs.PathError repeats.
func bare(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// size returns the width and height data's header gives, or an error
// naming why it cannot.
func size(data []byte) (int64, int64, error) {
	switch {
	case bytes.HasPrefix(data, []byte("\x89PNG\r\n\x1a\n")):
		return pngSize(data)
	case bytes.HasPrefix(data, []byte{0xff, 0xd8}):
		return jpegSize(data)
	case bytes.HasPrefix(data, []byte("BM")):
		return bmpSize(data)
	case bytes.HasPrefix(data, []byte("II*\x00")):
		return tiffSize(data, binary.LittleEndian)
	case bytes.HasPrefix(data, []byte("MM\x00*")):
		return tiffSize(data, binary.BigEndian)
	case len(data) >= 12 && string(data[:4]) == "RIFF" && string(data[8:12]) == "WEBP":
		return webpSize(data)
	case len(data) >= 2 && data[0] == 'P' && data[1] >= '1' && data[1] <= '6':
		return pnmSize(data)
	case bytes.HasPrefix(data, []byte("GIF8")):
		return 0, 0, fmt.Errorf("a GIF image, which this OpenCV does not read (want %s)", Formats)
	}
	return 0, 0, fmt.Errorf("not an image of a format the vision code reads (%s)", Formats)
}

// errCut is the error for a file that ends inside its header.
func errCut(format string) error {
	return fmt.Errorf("the %s file ends inside its header (truncated?)", format)
}

// pngSize reads the IHDR chunk and walks the chunks to IEND: a PNG cut
// short ends inside one.
func pngSize(data []byte) (int64, int64, error) {
	if len(data) < 33 || string(data[12:16]) != "IHDR" {
		return 0, 0, errCut("PNG")
	}
	w := int64(binary.BigEndian.Uint32(data[16:]))
	h := int64(binary.BigEndian.Uint32(data[20:]))
	for off := 8; ; {
		if off+8 > len(data) {
			return 0, 0, fmt.Errorf("the PNG file ends before its IEND chunk (truncated?)")
		}
		n := int64(binary.BigEndian.Uint32(data[off:]))
		kind := string(data[off+4 : off+8])
		end := int64(off) + 12 + n
		if end > int64(len(data)) {
			return 0, 0, fmt.Errorf("the PNG file ends inside its %q chunk (truncated?)", kind)
		}
		if kind == "IEND" {
			return w, h, nil
		}
		off = int(end)
	}
}

// jpegSize reads the frame header (SOFn) and looks for the end-of-image
// marker after the first scan: a JPEG cut short has none (inside
// entropy-coded data a 0xff byte is always followed by 0x00 or a
// restart marker, so 0xff 0xd9 there is the end).
func jpegSize(data []byte) (int64, int64, error) {
	var w, h int64 = -1, -1
	for off := 2; ; {
		for off < len(data) && data[off] == 0xff && off+1 < len(data) && data[off+1] == 0xff {
			off++ // fill bytes
		}
		if off+4 > len(data) {
			return 0, 0, errCut("JPEG")
		}
		if data[off] != 0xff {
			return 0, 0, fmt.Errorf("the JPEG file is damaged: no marker at byte %d", off)
		}
		m := data[off+1]
		if m == 0x01 || (m >= 0xd0 && m <= 0xd7) {
			off += 2
			continue
		}
		if m == 0xd9 {
			return 0, 0, fmt.Errorf("the JPEG file ends before its first scan")
		}
		n := int(binary.BigEndian.Uint16(data[off+2:]))
		if n < 2 || off+2+n > len(data) {
			return 0, 0, errCut("JPEG")
		}
		seg := data[off+4 : off+2+n]
		if m >= 0xc0 && m <= 0xcf && m != 0xc4 && m != 0xc8 && m != 0xcc {
			if len(seg) < 5 {
				return 0, 0, fmt.Errorf("the JPEG file's frame header is damaged")
			}
			h = int64(binary.BigEndian.Uint16(seg[1:]))
			w = int64(binary.BigEndian.Uint16(seg[3:]))
		}
		off += 2 + n
		if m == 0xda {
			if w < 0 {
				return 0, 0, fmt.Errorf("the JPEG file has no frame header before its scan")
			}
			if !bytes.Contains(data[off:], []byte{0xff, 0xd9}) {
				return 0, 0, fmt.Errorf("the JPEG file ends before its end-of-image marker (truncated?)")
			}
			return w, h, nil
		}
	}
}

// bmpSize reads a BMP's DIB header (the old 12-byte core header's 16-bit
// sides, or the later headers' 32-bit ones, the height negative for a
// top-down picture).
func bmpSize(data []byte) (int64, int64, error) {
	if len(data) < 26 {
		return 0, 0, errCut("BMP")
	}
	if binary.LittleEndian.Uint32(data[14:]) == 12 {
		return int64(binary.LittleEndian.Uint16(data[18:])), int64(binary.LittleEndian.Uint16(data[20:])), nil
	}
	w := int64(int32(binary.LittleEndian.Uint32(data[18:])))
	h := int64(int32(binary.LittleEndian.Uint32(data[22:])))
	if h < 0 {
		h = -h
	}
	return w, h, nil
}

// tiffSize reads ImageWidth and ImageLength from a TIFF's first IFD.
func tiffSize(data []byte, bo binary.ByteOrder) (int64, int64, error) {
	if len(data) < 8 {
		return 0, 0, errCut("TIFF")
	}
	off := int64(bo.Uint32(data[4:]))
	if off+2 > int64(len(data)) {
		return 0, 0, errCut("TIFF")
	}
	n := int64(bo.Uint16(data[off:]))
	var w, h int64 = -1, -1
	for i := int64(0); i < n; i++ {
		e := off + 2 + 12*i
		if e+12 > int64(len(data)) {
			return 0, 0, errCut("TIFF")
		}
		var v int64
		switch bo.Uint16(data[e+2:]) {
		case 3: // SHORT
			v = int64(bo.Uint16(data[e+8:]))
		case 4: // LONG
			v = int64(bo.Uint32(data[e+8:]))
		default:
			continue
		}
		switch bo.Uint16(data[e:]) {
		case 256:
			w = v
		case 257:
			h = v
		}
	}
	if w < 0 || h < 0 {
		return 0, 0, fmt.Errorf("the TIFF file gives no width or height")
	}
	return w, h, nil
}

// webpSize reads a WebP's sides from its first chunk: lossy (VP8 ),
// lossless (VP8L) or extended (VP8X, the canvas).
func webpSize(data []byte) (int64, int64, error) {
	if len(data) < 30 {
		return 0, 0, errCut("WebP")
	}
	switch string(data[12:16]) {
	case "VP8 ":
		if !bytes.Equal(data[23:26], []byte{0x9d, 0x01, 0x2a}) {
			return 0, 0, fmt.Errorf("the WebP file's VP8 frame header is damaged")
		}
		return int64(binary.LittleEndian.Uint16(data[26:]) & 0x3fff), int64(binary.LittleEndian.Uint16(data[28:]) & 0x3fff), nil
	case "VP8L":
		if data[20] != 0x2f {
			return 0, 0, fmt.Errorf("the WebP file's VP8L header is damaged")
		}
		b := binary.LittleEndian.Uint32(data[21:])
		return int64(b&0x3fff) + 1, int64(b>>14&0x3fff) + 1, nil
	case "VP8X":
		w := int64(data[24]) | int64(data[25])<<8 | int64(data[26])<<16
		h := int64(data[27]) | int64(data[28])<<8 | int64(data[29])<<16
		return w + 1, h + 1, nil
	}
	return 0, 0, fmt.Errorf("the WebP file's first chunk %q is not VP8, VP8L or VP8X", data[12:16])
}

// pnmSize reads a PBM/PGM/PPM header: the magic number, then the width
// and the height as decimal numbers among white space and # comments.
func pnmSize(data []byte) (int64, int64, error) {
	off := 2
	var sides [2]int64
	for i := range sides {
		for off < len(data) {
			if c := data[off]; c == '#' {
				for off < len(data) && data[off] != '\n' && data[off] != '\r' {
					off++
				}
			} else if c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f' {
				off++
			} else {
				break
			}
		}
		start := off
		for off < len(data) && data[off] >= '0' && data[off] <= '9' && off-start < 12 {
			sides[i] = sides[i]*10 + int64(data[off]-'0')
			off++
		}
		if off == start {
			return 0, 0, fmt.Errorf("the PNM file's header gives no %s", [2]string{"width", "height"}[i])
		}
	}
	return sides[0], sides[1], nil
}

// PNGHeader is the start of a PNG file that says it is w x h pixels, its
// pixel data left out and an IEND chunk after its header: what Check
// reads, for tests of its callers (a file of it is refused by its header
// where OpenCV would abort).
func PNGHeader(w, h uint32) []byte {
	var b bytes.Buffer
	b.WriteString("\x89PNG\r\n\x1a\n")
	ihdr := make([]byte, 13)
	binary.BigEndian.PutUint32(ihdr[0:], w)
	binary.BigEndian.PutUint32(ihdr[4:], h)
	ihdr[8], ihdr[9] = 8, 2 // 8-bit RGB
	chunk(&b, "IHDR", ihdr)
	chunk(&b, "IEND", nil)
	return b.Bytes()
}

func chunk(b *bytes.Buffer, kind string, data []byte) {
	_ = binary.Write(b, binary.BigEndian, uint32(len(data)))
	c := append([]byte(kind), data...)
	b.Write(c)
	_ = binary.Write(b, binary.BigEndian, crc32.ChecksumIEEE(c))
}
