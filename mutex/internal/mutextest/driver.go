// Package mutextest holds the test drivers of the mutual-exclusion
// algorithm packages (test code only: no algorithm imports it outside its
// _test files).
//
// Driver (this file), used by central, tokenring and quorum, is a tiny
// deterministic runtime with virtual time: pending messages, timers and
// commands are delivered earliest first, ties in creation order; the test
// picks each message's delay, may crash nodes, rebuild them from the factory
// (amnesia) or deliver messages by hand; a workload releases the CS Hold
// ticks after each entry. It counts messages by Type and detects two live
// nodes in the CS at once.
//
// Net (net.go), used by ricart, lamport and maekawa, has no time at all: a
// list of messages in flight that the test, or a seeded random source,
// delivers one at a time.
//
// CheckConfigs (config.go) runs a package's table of configs through its
// Factory and checks each error.
package mutextest

import (
	"fmt"
	"strings"

	"ringlab/engine/node"
)

// TB is what the driver needs of *testing.T and *rapid.T.
type TB interface {
	Helper()
	Fatal(args ...any)
	Fatalf(format string, args ...any)
}

// Must returns the factory that factory(cfg) builds, failing t on an error.
func Must[C any](t TB, factory func(C) (node.Factory, error), cfg C) node.Factory {
	t.Helper()
	f, err := factory(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// Driver runs nodes 1..n built by one factory.
type Driver struct {
	Delay func(from, to int, m node.Msg) int64 // a message's latency; nil: 1
	Hold  map[int]int64                        // CS time per node; default 1, < 0: the test releases

	Counts   map[string]int // messages sent, by Type
	InCS     map[int]bool   // live nodes in the CS now
	Entries  []int          // node of each EnterCS, in order
	Overlaps int            // EnterCS while another live node was in the CS
	Trace    []string       // "2->1 RequestAccess", "n1 BUSY", "n2 enter_cs", "n1 note: ..."
	Now      int64

	t       TB
	factory node.Factory
	nodes   []node.Node // 1-based
	seq     int
	pending []item
	timers  map[[2]int]int // (node, timer id) -> seq of the live tick
	crashed []bool
	done    []bool
}

type item struct {
	at  int64
	seq int
	to  int
	in  node.Input
}

// New builds nodes 1..n from f.
func New(t TB, f node.Factory, n int) *Driver {
	d := &Driver{Hold: map[int]int64{}, Counts: map[string]int{}, InCS: map[int]bool{},
		t: t, factory: f, nodes: make([]node.Node, n+1), timers: map[[2]int]int{},
		crashed: make([]bool, n+1), done: make([]bool, n+1)}
	for i := 1; i <= n; i++ {
		nd, err := f(i)
		if err != nil {
			t.Fatalf("factory(%d): %v", i, err)
		}
		d.nodes[i], d.done[i] = nd, true // no step yet: no opinion
	}
	return d
}

func (d *Driver) push(at int64, to int, in node.Input) int {
	d.seq++
	d.pending = append(d.pending, item{at: at, seq: d.seq, to: to, in: in})
	return d.seq
}

// At schedules command c for node i at time t.
func (d *Driver) At(t int64, i int, c node.Cmd) { d.push(t, i, node.Input{Kind: node.InCmd, Cmd: c}) }

// Cmd gives node i command c now.
func (d *Driver) Cmd(i int, c node.Cmd) { d.step(i, node.Input{Kind: node.InCmd, Cmd: c}) }

// Pending is the number of messages, timers and commands not delivered yet.
func (d *Driver) Pending() int { return len(d.pending) }

func (d *Driver) step(i int, in node.Input) {
	if d.crashed[i] {
		return
	}
	if in.Kind == node.InMsg {
		d.Trace = append(d.Trace, fmt.Sprintf("%d->%d %s", in.From, i, in.Msg.Type()))
	}
	out := node.Output{Now: d.Now}
	d.nodes[i].Step(in, &out)
	for _, s := range out.Sends {
		d.Counts[s.Msg.Type()]++
		after := int64(1)
		if d.Delay != nil {
			after = d.Delay(i, s.To, s.Msg)
		}
		d.push(d.Now+after, s.To, node.Input{Kind: node.InMsg, From: i, Msg: s.Msg})
	}
	for _, tm := range out.Timers {
		if tm.After < 0 {
			delete(d.timers, [2]int{i, tm.ID})
			continue
		}
		d.timers[[2]int{i, tm.ID}] = d.push(d.Now+tm.After, i, node.Input{Kind: node.InTick, Timer: tm.ID})
	}
	for _, e := range out.Events {
		d.event(i, e)
	}
	d.done[i] = out.Done
}

func (d *Driver) event(i int, e node.Event) {
	switch e.Kind {
	case node.EvEnterCS:
		if len(d.InCS) > 0 {
			d.Overlaps++
		}
		d.InCS[i] = true
		d.Entries = append(d.Entries, i)
		h, ok := d.Hold[i]
		if !ok {
			h = 1
		}
		if h >= 0 {
			d.At(d.Now+h, i, node.CmdRelease)
		}
		d.Trace = append(d.Trace, fmt.Sprintf("n%d enter_cs", i))
	case node.EvExitCS:
		delete(d.InCS, i)
		d.Trace = append(d.Trace, fmt.Sprintf("n%d exit_cs", i))
	case node.EvState:
		d.Trace = append(d.Trace, fmt.Sprintf("n%d %s", i, e.State))
	case node.EvNote:
		d.Trace = append(d.Trace, fmt.Sprintf("n%d note: %s", i, e.Note))
	}
}

// next removes and returns the earliest pending item.
func (d *Driver) next() item {
	k := 0
	for j, it := range d.pending {
		if it.at < d.pending[k].at || (it.at == d.pending[k].at && it.seq < d.pending[k].seq) {
			k = j
		}
	}
	it := d.pending[k]
	d.pending = append(d.pending[:k], d.pending[k+1:]...)
	return it
}

// Run delivers everything, earliest first, for at most budget inputs; it
// reports whether nothing was left pending.
func (d *Driver) Run(budget int) bool { return d.RunUntil(func() bool { return false }, budget) }

// RunUntil is Run that also stops as soon as stop() holds.
func (d *Driver) RunUntil(stop func() bool, budget int) bool {
	for ; budget > 0 && len(d.pending) > 0 && !stop(); budget-- {
		it := d.next()
		d.Now = max(d.Now, it.at)
		if it.in.Kind == node.InTick && d.timers[[2]int{it.to, it.in.Timer}] != it.seq {
			continue // replaced or stopped
		}
		d.step(it.to, it.in)
	}
	return len(d.pending) == 0
}

// Deliver hands the oldest pending message from -> to over now.
func (d *Driver) Deliver(from, to int) {
	d.t.Helper()
	for j, it := range d.pending {
		if it.in.Kind == node.InMsg && it.in.From == from && it.to == to {
			d.pending = append(d.pending[:j], d.pending[j+1:]...)
			d.step(to, it.in)
			return
		}
	}
	d.t.Fatalf("no message %d->%d pending", from, to)
}

// Crash stops node i: it gets nothing more, its timers are gone, and it no
// longer counts as in the CS.
func (d *Driver) Crash(i int) {
	d.crashed[i] = true
	delete(d.InCS, i)
	for k := range d.timers {
		if k[0] == i {
			delete(d.timers, k)
		}
	}
}

// Restart rebuilds node i from the factory (amnesia) and sends it CmdRecover.
func (d *Driver) Restart(i int) {
	nd, err := d.factory(i)
	if err != nil {
		d.t.Fatalf("factory(%d): %v", i, err)
	}
	d.nodes[i], d.crashed[i] = nd, false
	d.Cmd(i, node.CmdRecover)
}

// AllDone reports whether every live node said Done after its last step.
func (d *Driver) AllDone() bool {
	for i := 1; i < len(d.nodes); i++ {
		if !d.crashed[i] && !d.done[i] {
			return false
		}
	}
	return true
}

// Notes counts the notes in the trace that contain s.
func (d *Driver) Notes(s string) int {
	c := 0
	for _, l := range d.Trace {
		if _, note, ok := strings.Cut(l, " note: "); ok && strings.Contains(note, s) {
			c++
		}
	}
	return c
}
