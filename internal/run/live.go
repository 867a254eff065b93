package run

import (
	"context"
	"fmt"
	"os"
	"runtime/debug"

	"ringlab/internal/live"
	"ringlab/internal/node"
	"ringlab/internal/trace"
)

func runLive(ctx context.Context, spec Spec, opts Options, script []node.Action, sink func(*trace.Event), messages bool, skip trace.Kinds) (stats, error) {
	defer bigRunGC(spec.Nodes)()
	res, err := live.Run(ctx, live.Config{
		Nodes: spec.Nodes, Factory: spec.Factory, Script: script, React: spec.React,
		Tick: opts.Tick, Sink: sink, Messages: messages, Skip: skip, Timeout: opts.Timeout,
		Batch: opts.Format == "none" && opts.Events == "", // the sink only checks
	})
	st := stats{
		terminated: res.Quiescent, now: res.Elapsed.Nanoseconds(), steps: res.Steps,
		messages: res.Messages, byType: res.ByType,
	}
	if res.Exhausted {
		st.why = fmt.Sprintf("still running after --timeout %v", opts.Timeout)
	}
	return st, err
}

// Garbage collection for big live runs.
//
// A live run starts a goroutine per node at once. On a million nodes the
// Go collector, paced for the small heap the run had before, starts a cycle
// mid-spawn: it must scan every stack that exists by then, and the
// goroutines that allocate meanwhile (the spawner above all) pay for it in
// assists. Measured on the million-node Chang-Roberts: about 2.5 s of a
// 10-12 s run, for a heap that is nearly all live state (node states,
// goroutines, stacks) and makes little garbage.
//
// So, like the Go compiler, which sizes its collector to the job, a run of
// bigRun nodes or more turns the pacer off (GOGC=off) for its duration,
// with a memory limit as the safety net: the collector still runs, but only
// when the process nears the limit — twice a generous estimate of what
// the run must hold (bytesPerNode a node, plus 1 GiB). An explicit GOGC or
// GOMEMLIMIT in the environment wins: then nothing is changed.
const (
	bigRun       = 100_000
	bytesPerNode = 4 << 10
)

// bigRunGC applies the policy above for a run of n nodes and returns the
// function that restores the previous settings.
func bigRunGC(n int) (restore func()) {
	if n < bigRun || os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return func() {}
	}
	limit := 2 * (int64(n)*bytesPerNode + 1<<30)
	prevLimit := debug.SetMemoryLimit(limit)
	prevPercent := debug.SetGCPercent(-1)
	return func() {
		debug.SetGCPercent(prevPercent)
		debug.SetMemoryLimit(prevLimit)
	}
}
