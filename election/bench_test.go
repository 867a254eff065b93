// Run:     go test -run '^$' -bench Election -benchtime 5x -count 6 ./election | tee new.txt
// Compare: benchstat -col /runtime new.txt   (sim against live, per algorithm and size)
//          benchstat old.txt new.txt         (before and after a change)
//
// BenchmarkElection runs each algorithm's command end to end (flags parsed,
// nodes built, checkers on, --format none) on both runtimes and reports
// msgs/op and ns/msg. The configurations: ring, the specification's worst single
// initiator (ids descending, 3n-1 messages); anonymous, one candidate (2n);
// idlist, one initiator (n lists of 1..n ids); chang-roberts and franklin,
// every node starting on a random layout; bully, node n-1 starting with all
// alive (ELECTION to n, OK, n declares: n+1 messages; the lowest starting
// sends about n^2, 17M at 4096 nodes, too many for a benchmark); yoyo, a random connected graph. The
// hand-written goroutine baseline is in election/changroberts.

package election

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"testing"

	"github.com/urfave/cli/v2"

	"ringlab/internal/clitest"
)

// benchArgs is each algorithm's configuration on n nodes.
func benchArgs(name string, n int) []string {
	switch name {
	case "ring":
		return []string{"--layout", "descending", "--initiators", "1"}
	case "anonymous":
		return []string{"--initiators", "1"}
	case "idlist":
		return []string{"--layout", "random", "--initiators", "1"}
	case "bully":
		return []string{"--initiators", strconv.Itoa(n - 1)}
	case "yoyo":
		return []string{"--topology", "random", "--layout", "random"}
	}
	return []string{"--layout", "random", "--initiators", "all"} // chang-roberts, franklin
}

var messagesLine = regexp.MustCompile(`(?m)^messages: (\d+)`)

func BenchmarkElection(b *testing.B) {
	for _, a := range Algorithms() {
		for _, rt := range []string{"sim", "live"} {
			for _, n := range []int{64, 4096} {
				args := append([]string{"ringlab", "election", a.Name, "--nodes", strconv.Itoa(n), "--runtime", rt,
					"--seed", "1", "--format", "none"}, benchArgs(a.Name, n)...)
				if a.Name == "bully" && rt == "live" {
					// Bully is safe only while its timeouts outlast every
					// reply: on a busy machine a 1 ms tick does not, and
					// two nodes lead. No timer fires in this run, so a
					// wide tick costs nothing and load cannot break it.
					args = append(args, "--tick", "500ms")
				}
				b.Run(fmt.Sprintf("algo=%s/runtime=%s/nodes=%d", a.Name, rt, n), func(b *testing.B) {
					b.ReportAllocs()
					var msgs int64
					for b.Loop() {
						msgs += benchRun(b, args)
					}
					b.ReportMetric(float64(msgs)/float64(b.N), "msgs/op")
					b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(msgs), "ns/msg")
				})
			}
		}
	}
}

// benchRun runs one command line and returns its message count.
func benchRun(b *testing.B, args []string) int64 {
	var errb bytes.Buffer
	if err := clitest.Run(context.Background(), []*cli.Command{Command()}, io.Discard, &errb, args); err != nil {
		b.Fatalf("%v: %v\n%s", args, err, errb.String())
	}
	m := messagesLine.FindStringSubmatch(errb.String())
	if m == nil {
		b.Fatalf("no message count in:\n%s", errb.String())
	}
	v, _ := strconv.ParseInt(m[1], 10, 64)
	return v
}
