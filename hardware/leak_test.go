package hardware

import (
	"runtime"
	"strings"
	"testing"
	"time"
)

// noLeak fails t if more goroutines run when t ends than when noLeak was
// called, after letting them settle for up to 5 s. Call it first, so its
// cleanup runs after every other cleanup of the test.
func noLeak(t *testing.T) {
	t.Helper()
	before := runtime.NumGoroutine()
	t.Cleanup(func() {
		deadline := time.Now().Add(5 * time.Second)
		for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
			time.Sleep(20 * time.Millisecond)
		}
		if n := runtime.NumGoroutine(); n > before {
			buf := make([]byte, 1<<20)
			buf = buf[:runtime.Stack(buf, true)]
			var mine []string
			for _, g := range strings.Split(string(buf), "\n\n") {
				if strings.Contains(g, "blueprints/hardware") {
					mine = append(mine, g)
				}
			}
			t.Errorf("goroutine leak: %d before, %d after:\n%s", before, n, strings.Join(mine, "\n\n"))
		}
	})
}
