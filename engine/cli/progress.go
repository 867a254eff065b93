package cli

import (
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"ringlab/engine/statespace"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"
)

// progress is a progress line on stderr for long work (an explore sweep, a
// big run). It shows only when stderr is a terminal: in a pipe, a file or a
// test it is silent, so output that is read back stays clean. The methods
// of a nil *progress do nothing.
type progress struct {
	bar *progressbar.ProgressBar
}

// newProgress returns a progress line counting towards total (or -1 when
// the total is not known) in units of unit, or nil when w is not a terminal.
func newProgress(w io.Writer, total int64, unit string) *progress {
	f, ok := w.(*os.File)
	if !ok || !term.IsTerminal(int(f.Fd())) {
		return nil
	}
	return &progress{bar: progressbar.NewOptions64(total,
		progressbar.OptionSetWriter(w),
		progressbar.OptionSetDescription(unit),
		progressbar.OptionShowCount(),
		progressbar.OptionShowIts(),
		progressbar.OptionSetItsString(unit),
		progressbar.OptionSetPredictTime(total > 0),
		progressbar.OptionThrottle(200*time.Millisecond),
		progressbar.OptionClearOnFinish(),
	)}
}

// set moves the line to n; describe replaces its label.
func (p *progress) set(n int64) {
	if p != nil {
		_ = p.bar.Set64(n)
	}
}

func (p *progress) describe(s string) {
	if p != nil {
		p.bar.Describe(s)
	}
}

// done clears the line.
func (p *progress) done() {
	if p != nil {
		_ = p.bar.Clear()
		_ = p.bar.Exit()
	}
}

// progressLine describes a running search: the depth (of --max-depth),
// the frontier, the pace, and the memory (of --max-memory, with when the
// bound comes at the pace so far: the only end of a search that can be
// foreseen, since the states still to come are not known).
func progressLine(p statespace.Progress, sc statespace.Config) string {
	var b strings.Builder
	fmt.Fprintf(&b, "depth %d", p.Depth)
	if sc.MaxDepth > 0 {
		fmt.Fprintf(&b, " of %d", sc.MaxDepth)
	}
	fmt.Fprintf(&b, ", frontier %d, %.0f states/s, memory %.0f MiB", p.Frontier, p.StatesPerSecond(), float64(p.Heap)/(1<<20))
	if sc.MaxMemory > 0 {
		fmt.Fprintf(&b, " of %.0f", float64(sc.MaxMemory)/(1<<20))
		if perSec := float64(p.Heap) / p.Elapsed.Seconds(); p.Elapsed > 0 && perSec > 0 && sc.MaxMemory > p.Heap {
			left := time.Duration(float64(sc.MaxMemory-p.Heap) / perSec * float64(time.Second))
			fmt.Fprintf(&b, " (reached in about %s at this pace)", left.Round(time.Second))
		}
	}
	b.WriteString(":")
	return b.String()
}
