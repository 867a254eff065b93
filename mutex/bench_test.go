// Run:     go test -run '^$' -bench Mutex -count 10 ./mutex | tee new.txt
// Compare: benchstat -col /runtime new.txt   (sim against live, per algorithm and size)
//          benchstat old.txt new.txt         (before and after a change)
//
// BenchmarkMutex runs every algorithm under a saturated workload: each of
// the N requesting nodes asks for the critical section 50 times, with
// --cs-time 0 and --think-time 0, so that the benchmark measures the
// protocol's messaging, not the workload's waiting. One op is one whole run
// (goroutine start-up and join included on the live runtime, whose tick is
// 1µs so that the quorum's retry timer stays short). It reports msgs/op as
// messages per CS entry, ns/entry and entries/s. No checker and no event
// sink runs: tests judge, benchmarks measure.

package mutex

import (
	"context"
	"fmt"
	"testing"
	"time"

	"ringlab/engine"
	"ringlab/engine/live"
	"ringlab/engine/sim"
	"ringlab/mutex/kit"
	"ringlab/mutex/quorum"
)

const benchRequests = 50

func BenchmarkMutex(b *testing.B) {
	for _, a := range list() {
		for _, rt := range []string{"sim", "live"} {
			for _, n := range []int{5, 17} {
				b.Run(fmt.Sprintf("algo=%s/runtime=%s/nodes=%d", a.name, rt, n), func(b *testing.B) {
					benchOne(b, a, rt, n)
				})
			}
		}
	}
}

func benchOne(b *testing.B, a algorithm, rt string, n int) {
	pl, err := a.comparePlan(n, benchRequests)
	if a.name == "quorum" { // live: votes may split; 2 ms at a 1µs tick
		pl, err = quorumPlan(quorum.Config{Coordinators: n, Participants: n, M: n/2 + 1, RetryTimeout: 2000})
	}
	if err != nil {
		b.Fatal(err)
	}
	w := kit.NewWorkload(pl.kit(), benchRequests, 0, 0)
	script := w.Actions(pl.start)
	entries := int64(len(pl.requesters) * benchRequests)
	var msgs int64
	b.ReportAllocs()
	for b.Loop() {
		react := w.Reactor(pl.nodes).React
		var m int64
		var ok bool
		if rt == "sim" {
			sys := engine.System{Nodes: pl.nodes, Factory: pl.factory, Script: script, Workload: engine.ReactFunc(react)}
			res, err := sim.Runtime{Seed: 1}.Run(context.Background(), sys, nil)
			if err != nil {
				b.Fatal(err)
			}
			m, ok = res.Messages, res.End == engine.Quiescent
		} else {
			sys := engine.System{Nodes: pl.nodes, Factory: pl.factory, Script: script, Workload: engine.ReactFunc(react)}
			res, err := live.Runtime{Scheduler: live.Turns, Tick: time.Microsecond, Timeout: time.Minute}.Run(context.Background(), sys, nil)
			if err != nil {
				b.Fatal(err)
			}
			m, ok = res.Messages, res.End == engine.Quiescent
		}
		if !ok {
			b.Fatalf("%s on %s did not finish", a.name, rt)
		}
		msgs += m
	}
	ops := float64(b.N)
	b.ReportMetric(float64(msgs)/ops/float64(entries), "msgs/op")
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/ops/float64(entries), "ns/entry")
	b.ReportMetric(float64(entries)*ops/b.Elapsed().Seconds(), "entries/s")
}
