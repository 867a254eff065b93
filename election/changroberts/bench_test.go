// Run:     go test -run '^$' -bench Election -count 6 ./election/changroberts | tee new.txt
// Compare: benchstat -col /impl new.txt   (the live runtime against the hand-written baseline)
//          benchstat old.txt new.txt      (before and after a change)
// A million nodes (about 4 GB of memory and a minute of CPU in all):
//          RINGLAB_BIG=1 go test -run '^$' -bench 'Election/.*/nodes=1000000' -benchtime 1x -count 5 ./election/changroberts
//
// BenchmarkElection runs Chang-Roberts with every node starting on a random
// layout, announcement included: impl=baseline is the hand-written ring of
// goroutines and int channels (baseline_test.go), impl=floor the same
// election as a single-threaded loop over one queue (floor_test.go: what
// the simulator is measured against), impl=live the Node machines on
// engine/live's default scheduler (turns) with no sink, impl=live-plain
// on its plain scheduler, impl=sim the same on engine/sim,
// impl=sim-unoptimized without the simulator's speed-ups (prefetch.go,
// fastpath.go: what they pay).
// Each op is a whole run, goroutine start-up and join included; peak-MB is
// the process's peak resident memory so far (so read it for the first
// sub-benchmark of a process, or run one size at a time).

package changroberts

import (
	"fmt"
	"os"
	"syscall"
	"testing"

	"ringlab/engine"
	"ringlab/engine/live"
	"ringlab/engine/node"
	"ringlab/engine/sim"
)

func BenchmarkElection(b *testing.B) {
	for _, impl := range []string{"baseline", "floor", "live", "live-plain", "sim", "sim-unoptimized"} {
		for _, n := range []int{64, 4096, 100_000, 1_000_000} {
			b.Run(fmt.Sprintf("impl=%s/nodes=%d", impl, n), func(b *testing.B) {
				if n >= 1_000_000 && os.Getenv("RINGLAB_BIG") != "1" {
					b.Skip("set RINGLAB_BIG=1 for the million-node runs")
				}
				ids := randomIDs(n, 1)
				e, a := Messages(ids)
				want := int64(e + a)
				f, err := Factory(ids)
				if err != nil {
					b.Fatal(err)
				}
				script := make([]node.Action, n)
				for i := range script {
					script[i] = node.Action{Node: i + 1, Cmd: node.CmdStart}
				}
				sys := engine.System{Nodes: n, Factory: f, Script: script}
				b.ReportAllocs()
				for b.Loop() {
					var msgs int64
					switch impl {
					case "baseline":
						msgs, _ = baseline(ids)
					case "floor":
						msgs, _ = floor(ids)
					case "live": // the turn scheduler: --runtime live's default
						msgs = runOn(b, live.Runtime{Scheduler: live.Turns}, sys)
					case "live-plain": // the plain scheduler, the one to read
						msgs = runOn(b, live.Runtime{Scheduler: live.Plain}, sys)
					case "sim", "sim-unoptimized":
						// A factory of its own, as each command builds: a
						// factory's array of nodes is handed out once, and a
						// rerun would get nodes allocated one by one.
						sys.Factory, _ = Factory(ids)
						msgs = runOn(b, sim.Runtime{Seed: 1, Unoptimized: impl == "sim-unoptimized"}, sys)
					}
					if msgs != want {
						b.Fatalf("%d messages, want %d", msgs, want)
					}
				}
				b.ReportMetric(float64(want), "msgs/op")
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(want), "ns/msg")
				b.ReportMetric(float64(peakRSS())/(1<<20), "peak-MB")
			})
		}
	}
}

// runOn runs sys on rt, which must end it, and returns its messages.
func runOn(b *testing.B, rt engine.Runtime, sys engine.System) int64 {
	res, err := rt.Run(b.Context(), sys, nil)
	if err != nil || res.End != engine.Quiescent {
		b.Fatalf("%v: %+v", err, res)
	}
	return res.Messages
}

// peakRSS is the process's peak resident set size in bytes (getrusage's
// ru_maxrss, in KiB on Linux).
func peakRSS() int64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return ru.Maxrss << 10
}
