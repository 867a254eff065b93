package sim

import (
	"fmt"
	"reflect"
	"testing"

	"ringlab/engine/node"
	"ringlab/engine/trace"
)

// hopper starts a token of its own on CmdStart; each token makes `hops`
// hops round the ring. Every seventh hop also notes something, so that
// both of the fast path's branches (a lone send, and a step with events)
// are taken.
type hopper struct{ next, hops int }

type hop struct{ N int }

func (hop) Type() string { return "HOP" }

func (h *hopper) Step(in node.Input, out *node.Output) {
	switch in.Kind {
	case node.InCmd:
		out.Send(h.next, hop{1})
	case node.InMsg:
		m := in.Msg.(hop)
		if m.N%7 == 0 {
			out.Note("hop %d", m.N)
		}
		if m.N < h.hops {
			out.Send(h.next, hop{m.N + 1})
		}
	}
	out.Done = true
}

// TestFastPathIsThePlainPath runs the same plain runs with the speed-ups
// (fastpath.go, prefetch.go) and without (Config.Unoptimized) and wants
// the same result and the same events, in the same order: rings small and
// big enough to prefetch, several tokens per tick, crashes on the way.
func TestFastPathIsThePlainPath(t *testing.T) {
	sizes := []int{1, 2, 5, 64, 20_000}
	if testing.Short() {
		sizes = sizes[:4]
	}
	for _, n := range sizes {
		for seed := uint64(1); seed <= 5; seed++ {
			starters := min(n, int(seed)*3)
			var script []node.Action
			for k := 0; k < starters; k++ {
				script = append(script, node.Action{At: int64(k % 3), Node: 1 + (k*7919)%n, Cmd: node.CmdStart})
			}
			if n > 2 {
				script = append(script, node.Action{At: 5 + int64(seed), Node: 1 + int(seed)%n, Cmd: node.CmdCrash},
					node.Action{At: 9 + int64(seed), Node: 1 + int(seed)%n, Cmd: node.CmdRestart})
			}
			run := func(unoptimized bool) (result, []trace.Event) {
				var evs []trace.Event
				res, err := run(config{
					Nodes: n, Seed: seed, Script: script, Unoptimized: unoptimized,
					Factory: func(i int) (node.Node, error) { return &hopper{next: i%n + 1, hops: 3 * n}, nil },
					Sink:    func(e *trace.Event) { evs = append(evs, *e) },
				})
				if err != nil {
					t.Fatal(err)
				}
				return res, evs
			}
			fast, fastEvs := run(false)
			plain, plainEvs := run(true)
			name := fmt.Sprintf("n=%d seed=%d", n, seed)
			if !reflect.DeepEqual(fast, plain) {
				t.Errorf("%s: results differ:\nfast  %+v\nplain %+v", name, fast, plain)
			}
			if !reflect.DeepEqual(fastEvs, plainEvs) {
				t.Errorf("%s: %d events on the fast path, %d on the plain one, or in another order", name, len(fastEvs), len(plainEvs))
			}
			if fast.Messages == 0 {
				t.Errorf("%s: nothing was sent", name)
			}
		}
	}
}
