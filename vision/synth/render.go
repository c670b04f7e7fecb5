package synth

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"image"
	"image/draw"
	"image/jpeg"
	"image/png"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// ErrNoPovray is returned when the povray binary cannot be found.
var ErrNoPovray = errors.New("povray not found (install the Debian package povray, e.g. make test-deps)")

// RenderOptions control the ray tracer.
type RenderOptions struct {
	// Povray is the binary; "" means "povray" on PATH.
	Povray string
	// Threads is POV-Ray's work threads; 0 means 1.
	Threads int
	// WorkDir, if set, is where the scene (POV file, card images, raw
	// PNG) is written and kept; otherwise a temporary directory is used
	// and removed.
	WorkDir string
	// Window, if not empty, is the only part of the image ray-traced (the
	// rest stays black); it must not touch the first row or column.
	Window image.Rectangle
	// NoJitter turns off the area lights' jitter, which with several
	// threads makes every run's soft shadows differ a little: two scenes
	// rendered so differ only where the scenes do.
	NoJitter bool
	// Raw returns POV-Ray's image as it is, without the camera simulation.
	Raw bool
}

// CheckPovray reports whether the povray binary is available.
func CheckPovray(bin string) error {
	if bin == "" {
		bin = "povray"
	}
	if _, err := exec.LookPath(bin); err != nil {
		return fmt.Errorf("synth: %w: %v", ErrNoPovray, err)
	}
	return nil
}

// povrayStartupTimeout is what POV-Ray 3.7 prints when its render threads
// do not start in time, as on a machine loaded with other work (seen
// here with two renders and a test run on two cores); the same command
// run again renders the scene. Render tries a scene up to povrayTries
// times when this is why it failed, and fails at once for anything else.
const povrayStartupTimeout = "Timed out waiting for worker thread startup"

const povrayTries = 3

// Render ray-traces sc and returns the camera-simulated image (noise, blur;
// JPEG compression is applied by the writer). The POV-Ray child is killed
// when ctx ends.
func Render(ctx context.Context, sc *Scene, opt RenderOptions) (image.Image, error) {
	bin := opt.Povray
	if bin == "" {
		bin = "povray"
	}
	if err := CheckPovray(bin); err != nil {
		return nil, err
	}
	work := opt.WorkDir
	if work == "" {
		tmp, err := os.MkdirTemp("", "bprender-")
		if err != nil {
			return nil, fmt.Errorf("synth: %w", err)
		}
		defer os.RemoveAll(tmp)
		work = tmp
	} else if err := os.MkdirAll(work, 0o755); err != nil {
		return nil, fmt.Errorf("synth: %w", err)
	}
	scale := 5.0 // pixels per mm of the card face; near the camera scale, so no AA is needed
	for i, c := range sc.Cards {
		img := DrawCard(sc.Model, c.Layout, c.ID, scale)
		if err := writePNG(filepath.Join(work, fmt.Sprintf("card%d.png", i)), img); err != nil {
			return nil, err
		}
	}
	var pov bytes.Buffer
	if err := WritePOV(&pov, sc, func(i int) string { return fmt.Sprintf("card%d.png", i) }); err != nil {
		return nil, fmt.Errorf("synth: write scene: %w", err)
	}
	src := pov.Bytes()
	if opt.NoJitter {
		src = bytes.ReplaceAll(src, []byte(" jitter "), []byte(" "))
	}
	if err := os.WriteFile(filepath.Join(work, "scene.pov"), src, 0o644); err != nil {
		return nil, fmt.Errorf("synth: %w", err)
	}
	threads := max(opt.Threads, 1)
	args := []string{
		"+Iscene.pov", "+Oraw.png", "+FN8", "-D", "-V", "-GA", "-P",
		fmt.Sprintf("+W%d", sc.Cam.Width), fmt.Sprintf("+H%d", sc.Cam.Height),
		"+WT" + strconv.Itoa(threads),
	}
	if w := opt.Window; !w.Empty() {
		// POV-Ray counts columns and rows from 1, ends included
		args = append(args, fmt.Sprintf("+SC%d", w.Min.X+1), fmt.Sprintf("+EC%d", w.Max.X),
			fmt.Sprintf("+SR%d", w.Min.Y+1), fmt.Sprintf("+ER%d", w.Max.Y))
	}
	if sc.Antialias > 0 {
		args = append(args, fmt.Sprintf("+A%.2f", sc.Antialias), "+AM2", "+R2")
	} else {
		args = append(args, "-A")
	}
	var stderr bytes.Buffer
	for try := 1; ; try++ {
		cmd := exec.CommandContext(ctx, bin, args...)
		cmd.Dir = work
		cmd.Env = append(os.Environ(), "HOME="+work) // no user povray.conf warnings
		cmd.WaitDelay = 2 * time.Second
		stderr.Reset()
		cmd.Stderr = &stderr
		err := cmd.Run()
		if err == nil {
			break
		}
		if ctx.Err() != nil {
			return nil, fmt.Errorf("synth: render cancelled: %w", ctx.Err())
		}
		if try < povrayTries && strings.Contains(stderr.String(), povrayStartupTimeout) {
			continue // the same scene renders to the same image: try again
		}
		return nil, fmt.Errorf("synth: povray failed: %w: %s", err, lastLines(stderr.String(), 8))
	}
	f, err := os.Open(filepath.Join(work, "raw.png"))
	if err != nil {
		return nil, fmt.Errorf("synth: povray wrote no image: %w: %s", err, lastLines(stderr.String(), 8))
	}
	defer f.Close()
	raw, err := png.Decode(f)
	if err != nil {
		return nil, fmt.Errorf("synth: decode povray output: %w", err)
	}
	if opt.Raw {
		return raw, nil
	}
	return PostProcess(raw, sc.Post, sc.Seed), nil
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

func writePNG(path string, img image.Image) error {
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		return fmt.Errorf("synth: encode %s: %w", path, err)
	}
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		return fmt.Errorf("synth: %w", err)
	}
	return nil
}

// WriteJPEG writes img at the given quality, atomically (temp file and
// rename) so an interrupted run leaves no half image.
func WriteJPEG(path string, img image.Image, quality int) error {
	var b bytes.Buffer
	if err := jpeg.Encode(&b, img, &jpeg.Options{Quality: quality}); err != nil {
		return fmt.Errorf("synth: encode %s: %w", path, err)
	}
	return writeAtomic(path, b.Bytes())
}

func writeAtomic(path string, data []byte) error {
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, data, 0o644); err != nil {
		return fmt.Errorf("synth: %w", err)
	}
	if err := os.Rename(tmp, path); err != nil {
		return fmt.Errorf("synth: %w", err)
	}
	return nil
}

// PostProcess simulates the camera: a Gaussian blur of p.BlurSigma pixels
// and Gaussian sensor noise of p.NoiseSigma levels (seeded).
func PostProcess(src image.Image, p Post, seed uint64) *image.RGBA {
	b := src.Bounds()
	img := image.NewRGBA(image.Rect(0, 0, b.Dx(), b.Dy()))
	draw.Draw(img, img.Bounds(), src, b.Min, draw.Src)
	if p.BlurSigma > 0.05 {
		gaussBlur(img, p.BlurSigma)
	}
	if p.NoiseSigma > 0 {
		rng := rand.New(rand.NewPCG(seed, 0x5eed))
		for i := 0; i < len(img.Pix); i += 4 {
			// luminance noise plus a little chroma noise
			l := rng.NormFloat64() * p.NoiseSigma
			for k := 0; k < 3; k++ {
				v := float64(img.Pix[i+k]) + l + rng.NormFloat64()*p.NoiseSigma*0.35
				img.Pix[i+k] = uint8(math.Max(0, math.Min(255, math.Round(v))))
			}
		}
	}
	return img
}

func gaussBlur(img *image.RGBA, sigma float64) {
	r := int(math.Ceil(3 * sigma))
	k := make([]float64, 2*r+1)
	sum := 0.0
	for i := -r; i <= r; i++ {
		k[i+r] = math.Exp(-float64(i*i) / (2 * sigma * sigma))
		sum += k[i+r]
	}
	for i := range k {
		k[i] /= sum
	}
	w, h := img.Rect.Dx(), img.Rect.Dy()
	tmp := make([]float64, w*h*3)
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			var acc [3]float64
			for i := -r; i <= r; i++ {
				xx := min(max(x+i, 0), w-1)
				o := y*img.Stride + xx*4
				for c := 0; c < 3; c++ {
					acc[c] += k[i+r] * float64(img.Pix[o+c])
				}
			}
			copy(tmp[(y*w+x)*3:], acc[:])
		}
	}
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			var acc [3]float64
			for i := -r; i <= r; i++ {
				yy := min(max(y+i, 0), h-1)
				o := (yy*w + x) * 3
				for c := 0; c < 3; c++ {
					acc[c] += k[i+r] * tmp[o+c]
				}
			}
			o := y*img.Stride + x*4
			for c := 0; c < 3; c++ {
				img.Pix[o+c] = uint8(math.Max(0, math.Min(255, math.Round(acc[c]))))
			}
		}
	}
}

// WritePNGFile writes img as PNG.
func WritePNGFile(path string, img image.Image) error { return writePNG(path, img) }
