package bully

import (
	"slices"

	"ringlab/engine/node"
)

// world is a tiny deterministic driver with a virtual clock: a message
// arrives delay(from, to) ticks after it is sent, a timer fires at now+after,
// and events at the same tick go in the order they were scheduled. Messages
// to a crashed node are counted as sent and then dropped.
type world struct {
	t       tb
	factory node.Factory
	nodes   []*Node // 1-based
	crashed []bool
	delay   func(from, to int) int64
	queue   []event
	seq     int
	gen     map[[2]int]int // (node, timer id) -> generation of the pending one
	now     int64
	last    int64 // the tick of the last step
	count   map[string]int
	dropped int
	leaders [][]int // Leader events per node, in order
	done    []bool
}

// tb is what the driver needs of *testing.T and *rapid.T.
type tb interface {
	Helper()
	Fatal(args ...any)
	Fatalf(format string, args ...any)
}

type event struct {
	at       int64
	seq      int
	from, to int
	msg      node.Msg
	cmd      node.Cmd
	timer    int
	gen      int
}

func newWorld(t tb, cfg Config, crashed ...int) *world {
	t.Helper()
	f, err := Factory(cfg)
	if err != nil {
		t.Fatal(err)
	}
	n := len(cfg.Ids)
	w := &world{t: t, factory: f, nodes: make([]*Node, n+1), crashed: make([]bool, n+1),
		delay: func(int, int) int64 { return 1 }, gen: map[[2]int]int{}, count: map[string]int{},
		leaders: make([][]int, n+1), done: make([]bool, n+1)}
	for i := 1; i <= n; i++ {
		w.rebuild(i)
	}
	for _, i := range crashed {
		w.crashed[i] = true
	}
	return w
}

func (w *world) rebuild(i int) {
	nd, err := w.factory(i)
	if err != nil {
		w.t.Fatal(err)
	}
	w.nodes[i] = nd.(*Node)
}

func (w *world) push(e event) {
	e.seq, w.seq = w.seq, w.seq+1
	k := slices.IndexFunc(w.queue, func(x event) bool { return x.at > e.at })
	if k < 0 {
		k = len(w.queue)
	}
	w.queue = slices.Insert(w.queue, k, e)
}

// cmd schedules a local command; CmdRecover also brings a crashed node back
// with amnesia (rebuilt from the factory).
func (w *world) cmd(at int64, i int, c node.Cmd) { w.push(event{at: at, to: i, cmd: c}) }

func (w *world) step(i int, in node.Input) {
	out := node.Output{Now: w.now}
	w.last = w.now
	w.nodes[i].Step(in, &out)
	for _, s := range out.Sends {
		w.count[s.Msg.Type()]++
		w.push(event{at: w.now + w.delay(i, s.To), from: i, to: s.To, msg: s.Msg})
	}
	for _, tm := range out.Timers {
		key := [2]int{i, tm.ID}
		w.gen[key]++
		if tm.After >= 0 {
			w.push(event{at: w.now + tm.After, to: i, timer: tm.ID, gen: w.gen[key]})
		}
	}
	for _, e := range out.Events {
		if e.Kind == node.EvLeader {
			w.leaders[i] = append(w.leaders[i], e.Leader)
		}
	}
	w.done[i] = out.Done
}

// run delivers everything due up to tick `until`.
func (w *world) run(until int64) {
	for steps := 0; len(w.queue) > 0 && w.queue[0].at <= until; steps++ {
		if steps > 100000 {
			w.t.Fatalf("no quiescence after %d events", steps)
		}
		e := w.queue[0]
		w.queue = w.queue[1:]
		w.now = e.at
		switch {
		case e.cmd == node.CmdRecover:
			w.crashed[e.to] = false
			w.rebuild(e.to)
			w.step(e.to, node.Input{Kind: node.InCmd, Cmd: e.cmd})
		case w.crashed[e.to]:
			w.dropped++
		case e.msg != nil:
			w.step(e.to, node.Input{Kind: node.InMsg, From: e.from, Msg: e.msg})
		case e.cmd != "":
			w.step(e.to, node.Input{Kind: node.InCmd, Cmd: e.cmd})
		case w.gen[[2]int{e.to, e.timer}] == e.gen:
			w.step(e.to, node.Input{Kind: node.InTick, Timer: e.timer})
		}
	}
}

const forever = 1 << 40

// checkAgreement asserts that every live node ends following the
// highest live id, only that node is LEADER, and every live node is done.
func (w *world) checkAgreement() {
	w.t.Helper()
	top := 0
	for i := 1; i < len(w.nodes); i++ {
		if !w.crashed[i] {
			top = max(top, w.nodes[i].id)
		}
	}
	for i := 1; i < len(w.nodes); i++ {
		if w.crashed[i] {
			continue
		}
		st := w.nodes[i].Status()
		if st.Leader != top || (st.State == StateLeader) != (st.Id == top) || !w.done[i] {
			w.t.Fatalf("node %d ends %+v (done %v); the highest live id is %d", i, st, w.done[i], top)
		}
	}
}
