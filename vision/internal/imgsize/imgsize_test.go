package imgsize

import (
	"bytes"
	"image"
	"image/png"
	"strings"
	"testing"
)

func TestCheck(t *testing.T) {
	for _, c := range []struct {
		w, h uint32
		ok   bool
	}{{1280, 720, true}, {8000, 8000, true}, {8193, 8193, false}, {65535, 65535, false}, {20000, 20000, false}} {
		err := Check(bytes.NewReader(PNGHeader(c.w, c.h)))
		if (err == nil) != c.ok {
			t.Errorf("%dx%d: error %v, want ok %v", c.w, c.h, err, c.ok)
		}
		if err != nil && !strings.Contains(err.Error(), "x") {
			t.Errorf("%dx%d: %v does not name the size", c.w, c.h, err)
		}
	}
	var real bytes.Buffer
	if err := png.Encode(&real, image.NewRGBA(image.Rect(0, 0, 16, 9))); err != nil {
		t.Fatal(err)
	}
	if err := Check(&real); err != nil {
		t.Errorf("a 16x9 PNG: %v", err)
	}
	for _, junk := range []string{"", "hello", "BM\x00\x00"} {
		if err := Check(strings.NewReader(junk)); err != nil {
			t.Errorf("%q is left to OpenCV, got %v", junk, err)
		}
	}
}
