package segment_test

import (
	"fmt"

	"github.com/blueprints-companion/blueprints/hardware/segment"
)

func ExampleRender() {
	score, _ := segment.FormatScore(42)
	segs, _ := segment.Encode(score)
	for _, line := range segment.Render(segs) {
		fmt.Printf("%q\n", line)
	}
	// Output:
	// "                             _  "
	// "                        |_|  _| "
	// "                          | |_  "
}
