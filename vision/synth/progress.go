package synth

import (
	"fmt"
	"io"
	"strings"
	"time"
)

// Progress draws a progress bar on a terminal stream:
// "[=====>    ] 42/300 ETA 3m10s".
type Progress struct {
	w     io.Writer
	total int
	start time.Time
	done  int
	label string
}

// NewProgress starts a bar for total items (nil w: no output).
func NewProgress(w io.Writer, total int, label string) *Progress {
	return &Progress{w: w, total: total, start: time.Now(), label: label}
}

// Step marks n more items done and redraws; note names the last one.
func (p *Progress) Step(n int, note string) {
	p.done += n
	if p.w == nil {
		return
	}
	const width = 30
	fill := 0
	if p.total > 0 {
		fill = p.done * width / p.total
	}
	bar := strings.Repeat("=", fill)
	if fill < width {
		bar += ">" + strings.Repeat(" ", width-fill-1)
	}
	eta := "?"
	if p.done > 0 {
		el := time.Since(p.start)
		eta = (el / time.Duration(p.done) * time.Duration(p.total-p.done)).Round(time.Second).String()
	}
	fmt.Fprintf(p.w, "\r%s [%s] %d/%d ETA %s %-28s", p.label, bar, p.done, p.total, eta, note)
	if p.done >= p.total {
		fmt.Fprintln(p.w)
	}
}
