package election

import (
	"bytes"
	"context"
	"fmt"
	"os/exec"
	"sync"
	"testing"
	"time"
)

// The specification's own design (testdata/specring.py: Python and pika),
// run by BenchmarkRingOverRabbitMQ beside ringlab's command when python3
// has pika: what the broker runtime's speed is measured against.

// specPython is the python3 that has pika, or "" when none does; found once.
var specPython = sync.OnceValue(func() string {
	for _, py := range []string{"python3", "/usr/bin/python3"} {
		if exec.Command(py, "-c", "import pika").Run() == nil {
			return py
		}
	}
	return ""
})

// specRingTime runs the design on n nodes (ids descending, node 1
// starting) over the broker at url and returns its time from the first
// publish to the end, in ns: all nodes in one process (perNode ""), or
// each in a "thread" or "process" of its own with its own connection. It
// fails b unless the run sent the 3n-1 messages and elected id 1.
func specRingTime(b *testing.B, py, url string, n int, perNode string) int64 {
	ctx, cancel := context.WithTimeout(b.Context(), 5*time.Minute) // a lost message fails, not hangs
	defer cancel()
	var stderr bytes.Buffer
	args := []string{"testdata/specring.py", url, "bench-specring.", fmt.Sprint(n)}
	if perNode != "" {
		args = append(args, "--per-node", perNode)
	}
	cmd := exec.CommandContext(ctx, py, args...)
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		b.Fatalf("specring.py: %v\n%s", err, stderr.String())
	}
	var ns, msgs, leader int64
	if _, err := fmt.Sscanf(stderr.String(), "elapsed_ns=%d messages=%d leader=%d", &ns, &msgs, &leader); err != nil {
		b.Fatalf("specring.py: %v in %q", err, stderr.String())
	}
	if msgs != int64(3*n-1) || leader != 1 {
		b.Fatalf("specring.py: %d messages and leader %d, want %d and 1", msgs, leader, 3*n-1)
	}
	return ns
}
