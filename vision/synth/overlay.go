package synth

import (
	"image"
	"image/color"
	"image/draw"
	"math"
	"path/filepath"
)

// Overlay draws a truth file onto its image, for people checking truth by
// eye: card outlines (the printed top edge thicker), a cross on every
// cell's top (yellow; red when a hand hides it), a small square on every
// offer die.
func Overlay(truthPath string) (*image.RGBA, error) {
	tr, err := ReadTruthFile(truthPath)
	if err != nil {
		return nil, err
	}
	src, err := decodeFile(filepath.Join(filepath.Dir(truthPath), tr.Image))
	if err != nil {
		return nil, err
	}
	img := image.NewRGBA(src.Bounds())
	draw.Draw(img, img.Bounds(), src, src.Bounds().Min, draw.Src)
	cyan := color.RGBA{0, 255, 255, 255}
	yellow := color.RGBA{255, 230, 0, 255}
	red := color.RGBA{255, 30, 30, 255}
	magenta := color.RGBA{255, 0, 255, 255}
	for _, c := range tr.Cards {
		for k := 0; k < 4; k++ {
			a, b := c.CornersPx[k], c.CornersPx[(k+1)%4]
			w := 1
			if k == 0 {
				w = 3 // the printed top edge
			}
			drawLine(img, a, b, w, cyan)
		}
		for _, cell := range c.Cells {
			col := yellow
			if cell.Hand > 0 {
				col = red
			}
			p := cell.TopPx
			drawLine(img, [2]float64{p[0] - 5, p[1]}, [2]float64{p[0] + 5, p[1]}, 1, col)
			drawLine(img, [2]float64{p[0], p[1] - 5}, [2]float64{p[0], p[1] + 5}, 1, col)
		}
	}
	for _, d := range tr.Offer {
		p := d.TopPx
		for _, s := range [][4]float64{{-4, -4, 4, -4}, {4, -4, 4, 4}, {4, 4, -4, 4}, {-4, 4, -4, -4}} {
			drawLine(img, [2]float64{p[0] + s[0], p[1] + s[1]}, [2]float64{p[0] + s[2], p[1] + s[3]}, 1, magenta)
		}
	}
	return img, nil
}

func drawLine(img *image.RGBA, a, b [2]float64, w int, c color.RGBA) {
	n := int(math.Ceil(math.Hypot(b[0]-a[0], b[1]-a[1]))) + 1
	for i := 0; i <= n; i++ {
		t := float64(i) / float64(n)
		x := int(math.Round(a[0] + (b[0]-a[0])*t))
		y := int(math.Round(a[1] + (b[1]-a[1])*t))
		for dx := -(w / 2); dx <= w/2; dx++ {
			for dy := -(w / 2); dy <= w/2; dy++ {
				if (image.Point{x + dx, y + dy}).In(img.Rect) {
					img.SetRGBA(x+dx, y+dy, c)
				}
			}
		}
	}
}
