package amqp

import (
	"slices"
	"sync"
	"testing"

	"ringlab/engine/internal/nodetest"
	"ringlab/engine/node"
	"ringlab/engine/trace"
)

// A crashed node whose restart is scripted keeps the run going until it
// has restarted, as in the simulator: here node 1 is done at once and
// node 2 crashes at once, so only the pending restart (and the command
// after it) stands between the run and its end.
func TestScriptedRestartKeepsTheRunGoing(t *testing.T) {
	args := nodetest.NewArgs(2)
	script := []node.Action{
		{At: 0, Node: 1, Cmd: "go", Arg: 1},
		{At: 0, Node: 2, Cmd: node.CmdCrash},
		{At: 1000, Node: 2, Cmd: node.CmdRestart},
		{At: 1000, Node: 2, Cmd: "go", Arg: 2},
	}
	var recovered bool
	oneProcess(t, config{Codec: testCodec(), Nodes: 2, Factory: args.Factory(), Script: script,
		Sink: func(e *trace.Event) { recovered = recovered || e.Kind == trace.KindRecover && e.Node == 2 }})
	if want := [][]int{{1}, {2}}; !slices.EqualFunc(args.Got, want, slices.Equal) || !recovered {
		t.Errorf("commands %v, recover %v: want %v and node 2 recovered before the end", args.Got, recovered, want)
	}
}

// A node process that starts again after its process was killed carries
// out a crash and a restart of its node first; the report of the crash
// must not let the watcher end the run before the restart: here every
// other node is done, so the crash alone would end it. The watcher sees
// the node recover.
func TestRestartedNodeProcessRecoversBeforeTheEnd(t *testing.T) {
	args := nodetest.NewArgs(2)
	cfg := multiConfig(t, 2, args.Factory())
	// node 1 is done after its command; node 2's far command keeps its
	// first process from being quiet, so only its restart can end the run
	cfg.Script = []node.Action{{At: 0, Node: 1, Cmd: "go", Arg: 1}, {At: 10_000_000, Node: 2, Cmd: "go", Arg: 2}}
	var mu sync.Mutex
	var kinds []string
	cw := cfg
	cw.Sink = func(e *trace.Event) {
		if e.Node == 2 {
			mu.Lock()
			kinds = append(kinds, e.Kind)
			mu.Unlock()
		}
	}
	started, start := signal()
	c2 := cfg
	c2.Started = start
	p1 := startProc(t.Context(), cw, 1, true)
	first := startProc(t.Context(), c2, 2, false)
	select {
	case <-started: // its state is saved: the next process of node 2 is a restart
	case <-first.done:
		t.Fatalf("node 2's first process ended before it started: %v", first.err)
	}
	first.cancel() // the process is killed
	first.wait()
	again := startProc(t.Context(), cfg, 2, false)
	for i, p := range []*proc{p1, again} {
		p.wait()
		if p.err != nil || !p.res.Quiescent {
			t.Fatalf("process %d ended with %v, quiescent %v", i+1, p.err, p.res.Quiescent)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	if !slices.Contains(kinds, trace.KindCrash) || !slices.Contains(kinds, trace.KindRecover) {
		t.Errorf("the watcher saw node 2's events %v, want its crash and its recover", kinds)
	}
}
