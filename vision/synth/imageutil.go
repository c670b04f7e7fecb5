package synth

import (
	"bytes"
	"fmt"
	"image"
	_ "image/jpeg" // decode corpus images
	_ "image/png"

	"github.com/blueprints-companion/blueprints/vision/internal/imgsize"
)

func decodeFile(path string) (image.Image, error) {
	data, err := imgsize.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("synth: decode %s: %w", path, err)
	}
	img, _, err := image.Decode(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("synth: decode %s: %w", path, err)
	}
	return img, nil
}

// DecodeFile reads a JPEG or PNG image.
func DecodeFile(path string) (image.Image, error) { return decodeFile(path) }

// boxScale averages src into the rectangle r of dst.
func boxScale(dst *image.RGBA, r image.Rectangle, src image.Image) {
	sb := src.Bounds()
	sw, sh := sb.Dx(), sb.Dy()
	for y := r.Min.Y; y < r.Max.Y; y++ {
		sy0 := sb.Min.Y + (y-r.Min.Y)*sh/r.Dy()
		sy1 := max(sy0+1, sb.Min.Y+(y-r.Min.Y+1)*sh/r.Dy())
		for x := r.Min.X; x < r.Max.X; x++ {
			sx0 := sb.Min.X + (x-r.Min.X)*sw/r.Dx()
			sx1 := max(sx0+1, sb.Min.X+(x-r.Min.X+1)*sw/r.Dx())
			var acc [3]uint32
			n := uint32(0)
			for sy := sy0; sy < sy1; sy++ {
				for sx := sx0; sx < sx1; sx++ {
					cr, cg, cb, _ := src.At(sx, sy).RGBA()
					acc[0] += cr >> 8
					acc[1] += cg >> 8
					acc[2] += cb >> 8
					n++
				}
			}
			o := dst.PixOffset(x, y)
			dst.Pix[o], dst.Pix[o+1], dst.Pix[o+2], dst.Pix[o+3] = uint8(acc[0]/n), uint8(acc[1]/n), uint8(acc[2]/n), 255
		}
	}
}
