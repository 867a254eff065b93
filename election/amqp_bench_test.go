// Run:     bash .ci/rabbitmq.sh start
//          go test -run '^$' -bench RingOverRabbitMQ -benchtime 1x -count 5 ./election | tee amqp.txt
// Compare: benchstat -col /runtime amqp.txt   (the broker against the goroutine runtime)
//
// BenchmarkRingOverRabbitMQ runs the ring election's command end to end
// (the worst single initiator, ids descending: 3n-1 messages) on the
// goroutine runtime and over a RabbitMQ broker, all nodes in one process,
// and reports the command's wall time (ns/op: over the broker it includes
// declaring and emptying the N queues and opening N channels), the
// election's own time from its first message to the end (election-ns, the
// summary's t) and msgs/s over that time. Over the broker, each op also
// measures the floor right after the command, on the same broker: a bare
// amqp091-go relay (amqp_relay_test.go) passing one message around N
// queues for the same 3n-1 hops, without publisher confirms (relay-ns)
// and with them (confirmed-relay-ns, the guarantee ringlab gives), and
// reports election-ns over confirmed-relay-ns (x-confirmed-relay). Where
// python3 has pika (apt-get install python3-pika), and not under -short,
// each op also runs the specification's own design, Python and pika
// (testdata/specring.py), on the same ring and broker: all its nodes in
// one process, as ringlab's are here (python-ns, and python/ringlab: how
// many times ringlab's election-ns that is), and, up to 300 nodes, each
// node a process of its own on its own connection, as start_node.py runs
// one (python-process-ns, python-process/ringlab).
// Without a broker its amqp cases skip.

package election

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"testing"
	"time"

	"github.com/urfave/cli/v2"

	"ringlab/engine/amqp/amqptest"
	rcli "ringlab/engine/cli"
	"ringlab/internal/clitest"
)

// summaryTime is the summary's end time: a duration on the live and
// broker runtimes ("t=543.31µs").
var summaryTime = regexp.MustCompile(`(?m)^election .* steps, t=(\S+)$`)

// benchRunTimed runs one command line and returns its message count and
// the run's time in ns, as its summary gives them.
func benchRunTimed(b *testing.B, args []string) (msgs, ns int64) {
	var errb bytes.Buffer
	if err := clitest.Run(context.Background(), []*cli.Command{Command()}, io.Discard, &errb, args); err != nil {
		b.Fatalf("%v: %v\n%s", args, err, errb.String())
	}
	m, t := messagesLine.FindStringSubmatch(errb.String()), summaryTime.FindStringSubmatch(errb.String())
	if m == nil || t == nil {
		b.Fatalf("no message count or time in:\n%s", errb.String())
	}
	msgs, _ = strconv.ParseInt(m[1], 10, 64)
	d, err := time.ParseDuration(t[1])
	if err != nil {
		b.Fatalf("summary time %q: %v", t[1], err)
	}
	return msgs, d.Nanoseconds()
}

func BenchmarkRingOverRabbitMQ(b *testing.B) {
	for _, n := range []int{5, 100, 300, 1000} {
		for _, rt := range []string{"live", "amqp"} {
			args := append([]string{"ringlab", "election", "ring", "--nodes", strconv.Itoa(n), "--runtime", rt,
				"--seed", "1", "--format", "none"}, benchArgs("ring", n)...)
			b.Run(fmt.Sprintf("nodes=%d/runtime=%s", n, rt), func(b *testing.B) {
				if testing.Short() && n == 300 {
					b.Skip("-short: 5, 100 and 1,000 nodes")
				}
				b.Setenv(rcli.EnvPrefix, "bench-election.")
				url := ""
				if rt == "amqp" {
					url = amqptest.BrokerURL(b)
					args = append(args, "--url", url)
				}
				// the floor runs in the same op, right after, so that
				// each pair meets the same load; CI's -short keeps it
				// from rotting at 100 nodes at most
				floor := rt == "amqp" && (!testing.Short() || n <= 100)
				// and the specification's own design (Python and pika),
				// where python3 has pika and the run is not -short
				py := ""
				if rt == "amqp" && !testing.Short() {
					py = specPython()
				}
				// and as a process per node (start_node.py once per
				// node) up to 300 nodes: a thousand processes opening
				// connections at once time out the broker's handshake
				perProcess := py != "" && n <= 300
				var msgs, ns, relay, confirmed, spec, specProc int64
				for b.Loop() {
					m, t := benchRunTimed(b, args)
					msgs, ns = msgs+m, ns+t
					if floor {
						b.StopTimer()
						relay += relayTime(b, url, n, false)
						confirmed += relayTime(b, url, n, true)
						b.StartTimer()
					}
					if py != "" {
						b.StopTimer()
						spec += specRingTime(b, py, url, n, "")
						if perProcess {
							specProc += specRingTime(b, py, url, n, "process")
						}
						b.StartTimer()
					}
				}
				b.ReportMetric(float64(msgs)/float64(b.N), "msgs/op")
				b.ReportMetric(float64(ns)/float64(b.N), "election-ns")
				b.ReportMetric(float64(msgs)/(float64(ns)/1e9), "msgs/s")
				if floor {
					b.ReportMetric(float64(relay)/float64(b.N), "relay-ns")
					b.ReportMetric(float64(confirmed)/float64(b.N), "confirmed-relay-ns")
					b.ReportMetric(float64(ns)/float64(confirmed), "x-confirmed-relay")
				}
				if py != "" {
					b.ReportMetric(float64(spec)/float64(b.N), "python-ns")
					b.ReportMetric(float64(spec)/float64(ns), "python/ringlab")
				}
				if perProcess {
					b.ReportMetric(float64(specProc)/float64(b.N), "python-process-ns")
					b.ReportMetric(float64(specProc)/float64(ns), "python-process/ringlab")
				}
			})
		}
	}
}
