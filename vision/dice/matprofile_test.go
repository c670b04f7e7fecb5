//go:build matprofile

package dice

import (
	"bytes"
	"fmt"
	"image"
	"os"
	"testing"

	"gocv.io/x/gocv"
)

// TestMain fails the run when any test leaves a gocv.Mat open (only built
// with -tags matprofile: `make test-matprofile`).
func TestMain(m *testing.M) {
	code := m.Run()
	if n := gocv.MatProfile.Count(); n != 0 {
		var b bytes.Buffer
		_ = gocv.MatProfile.WriteTo(&b, 1)
		fmt.Fprintf(os.Stderr, "dice: %d gocv.Mat left open after the tests:\n%s", n, b.String())
		code = 1
	}
	os.Exit(code)
}

// TestNoMatLeak reads dice of a real photo, good and bad boxes, with both
// readers, and checks that every Mat made on the way was closed.
func TestNoMatLeak(t *testing.T) {
	photos := loadDataset(t)
	before := gocv.MatProfile.Count()
	r, err := NewReader(Options{})
	if err != nil {
		t.Fatal(err)
	}
	c := NewClassicReader()
	for _, ph := range photos[:3] {
		img, err := LoadImage(ph.Image)
		if err != nil {
			t.Fatal(err)
		}
		w, h := img.Size()
		for _, l := range ph.Labels {
			box, err := l.Rect(w, h)
			if err != nil {
				continue
			}
			if _, err := r.Read(img.Mat(), box); err != nil {
				t.Fatal(err)
			}
			if _, err := c.Read(img.Mat(), box); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := r.Read(img.Mat(), image.Rect(-1, 0, 10, 10)); err == nil {
			t.Fatal("read a box outside the image")
		}
		img.Close()
	}
	if _, err := r.ReadFile(photos[0].Image, []image.Rectangle{image.Rect(0, 0, 50, 50), image.Rect(600, 600, 700, 700)}); err == nil {
		t.Fatal("ReadFile read a box outside the image")
	}
	if _, err := LoadImage("testdata-missing.jpg"); err == nil {
		t.Fatal("loaded a missing image")
	}
	r.Close()
	c.Close()
	if after := gocv.MatProfile.Count(); after != before {
		var b bytes.Buffer
		_ = gocv.MatProfile.WriteTo(&b, 1)
		t.Fatalf("%d Mats open before reading, %d after:\n%s", before, after, b.String())
	}
}
