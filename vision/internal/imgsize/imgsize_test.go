package imgsize

import (
	"bytes"
	"encoding/binary"
	"image"
	"image/jpeg"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestCheckPNGHeader(t *testing.T) {
	for _, c := range []struct {
		w, h uint32
		ok   bool
	}{{1280, 720, true}, {8000, 8000, true}, {8193, 8193, false}, {65535, 65535, false}, {20000, 20000, false},
		// a side of 2^31 or more: Go's own decoder calls it non-positive,
		// and OpenCV aborted on it
		{1 << 31, 1, false}, {1, 1<<32 - 1, false}, {1<<32 - 1, 1<<32 - 1, false}, {0, 5, false}} {
		err := Check(PNGHeader(c.w, c.h))
		if (err == nil) != c.ok {
			t.Errorf("%dx%d: error %v, want ok %v", c.w, c.h, err, c.ok)
		}
		if err != nil && !strings.Contains(err.Error(), "x") {
			t.Errorf("%dx%d: %v does not name the size", c.w, c.h, err)
		}
	}
}

// encoded is a 64x48 picture as a PNG and as a JPEG file.
func encoded(t *testing.T) (pngData, jpegData []byte) {
	img := image.NewRGBA(image.Rect(0, 0, 64, 48))
	for i := range img.Pix {
		img.Pix[i] = byte(i * 7)
	}
	var p, j bytes.Buffer
	if err := png.Encode(&p, img); err != nil {
		t.Fatal(err)
	}
	if err := jpeg.Encode(&j, img, nil); err != nil {
		t.Fatal(err)
	}
	return p.Bytes(), j.Bytes()
}

func TestCheckTruncated(t *testing.T) {
	p, j := encoded(t)
	if err := Check(p); err != nil {
		t.Errorf("a whole PNG: %v", err)
	}
	if err := Check(j); err != nil {
		t.Errorf("a whole JPEG: %v", err)
	}
	// trailing bytes after the end are what some cameras write: kept
	if err := Check(append(append([]byte{}, j...), "trailer"...)); err != nil {
		t.Errorf("a JPEG with bytes after its end: %v", err)
	}
	for _, cut := range []int{len(p) - 1, len(p) - 12, len(p) / 2, 40, 20} {
		err := Check(p[:cut])
		if err == nil || !strings.Contains(err.Error(), "PNG") {
			t.Errorf("a PNG cut to %d of %d bytes: %v, want an error naming the PNG", cut, len(p), err)
		}
	}
	for _, cut := range []int{len(j) - 1, len(j) - 2, len(j) / 2, 200, 10, 3} {
		err := Check(j[:cut])
		if err == nil || !strings.Contains(err.Error(), "JPEG") {
			t.Errorf("a JPEG cut to %d of %d bytes: %v, want an error naming the JPEG", cut, len(j), err)
		}
	}
}

func TestCheckJPEGSides(t *testing.T) {
	_, j := encoded(t)
	big := append([]byte{}, j...)
	i := bytes.Index(big, []byte{0xff, 0xc0}) // baseline frame header
	if i < 0 {
		t.Fatal("no SOF0 in Go's JPEG")
	}
	binary.BigEndian.PutUint16(big[i+5:], 65535) // height
	binary.BigEndian.PutUint16(big[i+7:], 65535) // width
	if err := Check(big); err == nil || !strings.Contains(err.Error(), "65535x65535") {
		t.Errorf("a JPEG saying 65535x65535: %v", err)
	}
}

func bmp(w, h int32) []byte {
	b := make([]byte, 54)
	copy(b, "BM")
	binary.LittleEndian.PutUint32(b[14:], 40)
	binary.LittleEndian.PutUint32(b[18:], uint32(w))
	binary.LittleEndian.PutUint32(b[22:], uint32(h))
	return b
}

func tiff(bo binary.ByteOrder, w, h uint32) []byte {
	b := make([]byte, 8+2+2*12+4)
	if bo == binary.ByteOrder(binary.LittleEndian) {
		copy(b, "II*\x00")
	} else {
		copy(b, "MM\x00*")
	}
	bo.PutUint32(b[4:], 8)
	bo.PutUint16(b[8:], 2)
	for i, e := range [][2]uint32{{256, w}, {257, h}} {
		o := 10 + 12*i
		bo.PutUint16(b[o:], uint16(e[0]))
		bo.PutUint16(b[o+2:], 4) // LONG
		bo.PutUint32(b[o+4:], 1)
		bo.PutUint32(b[o+8:], e[1])
	}
	return b
}

func webp(kind string, w, h uint32) []byte {
	b := make([]byte, 40)
	copy(b, "RIFF")
	copy(b[8:], "WEBPVP8")
	copy(b[12:], kind)
	switch kind {
	case "VP8 ":
		copy(b[23:], []byte{0x9d, 0x01, 0x2a})
		binary.LittleEndian.PutUint16(b[26:], uint16(w))
		binary.LittleEndian.PutUint16(b[28:], uint16(h))
	case "VP8L":
		b[20] = 0x2f
		binary.LittleEndian.PutUint32(b[21:], (w-1)|(h-1)<<14)
	case "VP8X":
		b[24], b[25], b[26] = byte(w-1), byte((w-1)>>8), byte((w-1)>>16)
		b[27], b[28], b[29] = byte(h-1), byte((h-1)>>8), byte((h-1)>>16)
	}
	return b
}

func TestCheckFormats(t *testing.T) {
	for _, c := range []struct {
		name string
		data []byte
		want string // "" for ok, else a part of the error
	}{
		{"bmp small", bmp(640, 480), ""},
		{"bmp top-down", bmp(640, -480), ""},
		{"bmp huge", bmp(40000, 40000), "40000x40000"},
		{"bmp none", bmp(0, 480), "0x480"},
		{"bmp cut", bmp(640, 480)[:20], "BMP"},
		{"tiff le", tiff(binary.LittleEndian, 1280, 720), ""},
		{"tiff be huge", tiff(binary.BigEndian, 100000, 100000), "100000x100000"},
		{"tiff cut", tiff(binary.LittleEndian, 1280, 720)[:20], "TIFF"},
		{"webp vp8", webp("VP8 ", 1280, 720), ""},
		{"webp vp8l huge", webp("VP8L", 16384, 16384), "16384x16384"},
		{"webp vp8x huge", webp("VP8X", 1<<20, 1<<20), "1048576x1048576"},
		{"webp other", webp("ALPH", 1, 1), "WebP"},
		{"ppm", []byte("P6\n# a comment\n1280 720\n255\n"), ""},
		{"pgm huge", []byte("P5 20000 20000 255\n"), "20000x20000"},
		{"pbm overflow", []byte("P4 999999999999 999999999999\n"), "999999999999x999999999999"},
		{"ppm no height", []byte("P6\n1280\n"), "height"},
		{"gif", []byte("GIF89a\x10\x00\x10\x00"), "GIF"},
		{"junk", []byte("hello"), "PNG, JPEG"},
		{"empty", nil, "empty"},
	} {
		err := Check(c.data)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s: %v", c.name, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%s: %v, want an error with %q", c.name, err, c.want)
		}
	}
}

// Every image the vision code is measured on passes.
func TestCheckCorpus(t *testing.T) {
	files, _ := filepath.Glob("../../testdata/synth*/stills/*.jpg")
	more, _ := filepath.Glob("../../testdata/*/*.png")
	files = append(files, more...)
	if len(files) < 300 {
		t.Fatalf("found %d corpus images", len(files))
	}
	for _, f := range files {
		if _, err := ReadFile(f); err != nil {
			t.Errorf("%s: %v", f, err)
		}
	}
	dir := t.TempDir()
	if _, err := ReadFile(dir); err == nil || !strings.Contains(err.Error(), "directory") {
		t.Errorf("a directory: %v", err)
	}
	if _, err := ReadFile(filepath.Join(dir, "none.png")); err == nil || strings.Contains(err.Error(), dir) {
		t.Errorf("a missing file: %v, want an error without the path", err)
	}
	empty := filepath.Join(dir, "empty.png")
	if err := os.WriteFile(empty, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadFile(empty); err == nil || !strings.Contains(err.Error(), "empty") {
		t.Errorf("an empty file: %v", err)
	}
}

func FuzzCheck(f *testing.F) {
	p, j := (func() ([]byte, []byte) {
		img := image.NewGray(image.Rect(0, 0, 8, 8))
		var a, b bytes.Buffer
		_ = png.Encode(&a, img)
		_ = jpeg.Encode(&b, img, nil)
		return a.Bytes(), b.Bytes()
	})()
	for _, s := range [][]byte{p, j, bmp(4, 4), tiff(binary.BigEndian, 4, 4), webp("VP8X", 4, 4), []byte("P6 4 4 255\n")} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		err := Check(data)
		if err == nil && len(data) == 0 {
			t.Error("an empty file passed")
		}
	})
}
