package mutextest

import (
	"fmt"
	"reflect"
	"testing"

	"ringlab/engine/node"
)

// CheckForget tests a node.Forgetter's contract over random FIFO
// schedules of n nodes from f, each asking quota times (also while WANTED
// or HELD): every message in flight is kept twice, as sent and as
// forgotten (Forget applied after every step, with its receiver as it then
// stands), and at its delivery two copies of the receiver take the one and
// the other; their states (AppendKey) and outputs (events, notes, sends)
// must be the same. It returns how many deliveries took a message with
// something forgotten, so that a test can require the check to bite.
func CheckForget(t testing.TB, f node.Factory, n, quota, seeds int) (forgotten int) {
	t.Helper()
	walk(t, f, n, quota, seeds, 7, func(w *walker, i int, in node.Input, l *letter) {
		nd, ok := w.nodes[i].(node.Snapshot)
		if !ok {
			t.Fatalf("%T is not a node.Snapshot", w.nodes[i])
		}
		if l == nil || reflect.DeepEqual(l.msg, l.alt) {
			w.step(i, in)
			forget(w)
			return
		}
		forgotten++
		twin := nd.Clone().(node.Snapshot)
		var o2 node.Output
		twin.Step(node.Input{Kind: node.InMsg, From: l.from, Msg: l.alt}, &o2)
		w.step(i, in)
		forget(w)
		if a, b := string(nd.AppendKey(nil)), string(twin.AppendKey(nil)); a != b {
			t.Fatalf("seed %d: node %d took %v and the forgotten %v to different states", w.seed, i, l.msg, l.alt)
		}
		if a, b := outputs(&w.out), outputs(&o2); a != b {
			t.Fatalf("seed %d: node %d took %v and the forgotten %v with different outputs:\n%s\n%s", w.seed, i, l.msg, l.alt, a, b)
		}
	})
	return forgotten
}

// forget applies each message's receiver's Forget, as that receiver now
// stands, to the message's forgotten form.
func forget(w *walker) {
	for k, l := range w.flight {
		if g, ok := w.nodes[l.to].(node.Forgetter); ok {
			if m, changed := g.Forget(l.from, l.alt); changed {
				w.flight[k].alt = m
			}
		}
	}
}

// outputs prints what a step put out.
func outputs(o *node.Output) string {
	return fmt.Sprintf("%+v %+v %+v %v", o.Events, o.Sends, o.Timers, o.Done)
}
