package live

import (
	"fmt"
	"testing"

	"ringlab/engine/node"
	"ringlab/engine/trace"
)

// leq reports whether vector clock a is at or below b in every entry.
func leq(a, b []uint32) bool {
	for k := range a {
		if a[k] > b[k] {
			return false
		}
	}
	return true
}

// With Config.VectorClocks every event carries its node's clock, with the
// simulator's meaning: each event ticks the node's own entry, so a node's
// events have strictly growing clocks; a send happens before its receive
// (the send's clock is below the receive's); and events of two nodes that
// never heard of each other are concurrent.
func TestVectorClocks(t *testing.T) {
	const n = 30
	f, msgs := swallowFactory(n, 5)
	cfg := config{Nodes: n, Factory: f, Script: startAll(n), VectorClocks: true}
	res, evs := recordRun(t, cfg)
	if res.Messages != msgs {
		t.Fatalf("%d messages, want %d", res.Messages, msgs)
	}
	last := map[int]trace.Event{}
	type link struct{ from, to int }
	sends := map[link][]trace.Event{} // per link, in order: links are FIFO
	recvs := 0
	for _, e := range evs {
		if len(e.VC) != n {
			t.Fatalf("%s at node %d has vc %v, want %d entries", e.Kind, e.Node, e.VC, n)
		}
		if p, ok := last[e.Node]; ok {
			if !leq(p.VC, e.VC) || p.VC[e.Node-1] >= e.VC[e.Node-1] {
				t.Errorf("node %d: %s at vc %v after %s at vc %v: want its own entry to grow", e.Node, e.Kind, e.VC, p.Kind, p.VC)
			}
		} else if e.VC[e.Node-1] != 1 {
			t.Errorf("node %d's first event %s at vc %v, want its own entry 1", e.Node, e.Kind, e.VC)
		}
		last[e.Node] = e
		switch e.Kind {
		case trace.KindSend:
			l := link{e.From, e.To}
			sends[l] = append(sends[l], e)
		case trace.KindRecv:
			l := link{e.From, e.To}
			if len(sends[l]) == 0 {
				t.Fatalf("recv %d->%d with no send before it", e.From, e.To)
			}
			s := sends[l][0]
			sends[l] = sends[l][1:]
			recvs++
			if !leq(s.VC, e.VC) || s.VC[e.From-1] > e.VC[e.From-1] || e.VC[e.To-1] <= s.VC[e.To-1] {
				t.Errorf("send %d->%d at vc %v, its receive at vc %v: want the send before the receive", e.From, e.To, s.VC, e.VC)
			}
		}
	}
	if int64(recvs) != msgs {
		t.Errorf("%d receives, want %d", recvs, msgs)
	}
}

// Two nodes that never exchange a message have concurrent events; once one
// has heard from the other, the other's earlier events are before it.
func TestVectorClocksConcurrentAndOrdered(t *testing.T) {
	// Nodes 1 and 2 start; node 1 sends to 3; node 2 sends nothing.
	cfg := config{
		Nodes: 3, VectorClocks: true,
		Factory: func(i int) (node.Node, error) {
			return stepper(func(in node.Input, out *node.Output) {
				if in.Kind == node.InCmd && i == 1 {
					out.Send(3, coord{})
				}
				out.State(fmt.Sprint("seen ", in.Kind))
			}), nil
		},
		Script: []node.Action{{Node: 1, Cmd: node.CmdStart}, {Node: 2, Cmd: node.CmdStart}},
	}
	_, evs := recordRun(t, cfg)
	var start1, start2, recv3 []uint32
	for _, e := range evs {
		switch {
		case e.Kind == trace.KindCmd && e.Node == 1:
			start1 = e.VC
		case e.Kind == trace.KindCmd && e.Node == 2:
			start2 = e.VC
		case e.Kind == trace.KindRecv:
			recv3 = e.VC
		}
	}
	if start1 == nil || start2 == nil || recv3 == nil {
		t.Fatalf("events %v: want both starts and the receive", evs)
	}
	if leq(start1, start2) || leq(start2, start1) {
		t.Errorf("starts at %v and %v: want them concurrent", start1, start2)
	}
	if !leq(start1, recv3) || leq(start2, recv3) {
		t.Errorf("node 1's start %v, node 2's %v, node 3's receive %v: want only node 1's start before the receive", start1, start2, recv3)
	}
}
