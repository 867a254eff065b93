package live

import (
	"math/rand/v2"

	"ringlab/engine/node"
)

// Test-only algorithms: each exercises one part of the runtime.

// ticker sets timer 1 every Period ticks from CmdStart and notes each tick;
// it says Done after DoneAfter ticks (never, if 0) and keeps ticking.
type ticker struct {
	period, doneAfter, ticks int
}

func tickerFactory(period, doneAfter int) node.Factory {
	return func(int) (node.Node, error) { return &ticker{period: period, doneAfter: doneAfter}, nil }
}

func (t *ticker) Step(in node.Input, out *node.Output) {
	switch in.Kind {
	case node.InCmd:
		out.SetTimer(1, int64(t.period))
	case node.InTick:
		t.ticks++
		out.Note("tick %d at %d", t.ticks, out.Now)
		out.SetTimer(1, int64(t.period))
	}
	if t.doneAfter > 0 && t.ticks >= t.doneAfter {
		out.Done = true
	}
}

// Seq is the message of burst: the K-th message from From.
type Seq struct{ From, K int }

func (Seq) Type() string { return "SEQ" }

// burst: on CmdStart every node but 1 sends K messages to node 1 in one
// step; node 1 records, per sender, whether they arrived in order.
type burst struct {
	self, k int
	next    map[int]int // node 1: the next K expected per sender
	bad     *int
}

func burstFactory(k int, bad *int) node.Factory {
	return func(i int) (node.Node, error) { return &burst{self: i, k: k, next: map[int]int{}, bad: bad}, nil }
}

func (b *burst) Step(in node.Input, out *node.Output) {
	switch in.Kind {
	case node.InCmd:
		if b.self != 1 {
			for k := range b.k {
				out.Send(1, Seq{From: b.self, K: k})
			}
		}
	case node.InMsg:
		s := in.Msg.(Seq)
		if s.From != in.From || s.K != b.next[s.From] {
			*b.bad++
		}
		b.next[s.From] = s.K + 1
	}
}

// ID is the message of swallow.
type ID struct{ ID int32 }

func (ID) Type() string { return "ID" }

// swallow is a Chang-Roberts-like ring where every node initiates: each
// sends its id clockwise, each node forwards the ids bigger than its own
// and swallows the smaller; the biggest comes home.
type swallow struct {
	self, n int32
	id      int32
}

// swallowFactory gives nodes 1..n a permutation of the ids 1..n drawn
// from seed, and returns the exact number of messages the run sends.
func swallowFactory(n int, seed uint64) (node.Factory, int64) {
	perm := rand.New(rand.NewPCG(seed, 1)).Perm(n)
	return swallowFactoryIDs(n, func(i int) int32 { return int32(perm[i-1] + 1) })
}

// swallowFactoryIDs gives node i the id id(i), a permutation of 1..n.
func swallowFactoryIDs(n int, id func(i int) int32) (node.Factory, int64) {
	ids := make([]int32, n)
	for i := range ids {
		ids[i] = id(i + 1)
	}
	// Each id travels until the first bigger id clockwise (n hops for the max).
	var msgs int64
	stack := []int{} // a monotonic stack over the ring walked twice
	hops := make([]int, n)
	for k := 2*n - 1; k >= 0; k-- {
		i := k % n
		for len(stack) > 0 && ids[stack[len(stack)-1]%n] <= ids[i] {
			stack = stack[:len(stack)-1]
		}
		if k < n {
			if len(stack) == 0 {
				hops[i] = n
			} else {
				hops[i] = stack[len(stack)-1] - k
			}
		}
		stack = append(stack, k)
	}
	for _, h := range hops {
		msgs += int64(h)
	}
	return func(i int) (node.Node, error) {
		return &swallow{self: int32(i), n: int32(n), id: ids[i-1]}, nil
	}, msgs
}

func (s *swallow) Step(in node.Input, out *node.Output) {
	next := int(s.self%s.n + 1)
	switch in.Kind {
	case node.InCmd:
		out.Send(next, ID{s.id})
	case node.InMsg:
		switch m := in.Msg.(ID); {
		case m.ID > s.id:
			out.Send(next, m)
		case m.ID == s.id:
			out.Leader(int(s.id))
		}
	}
}

// startAll is a script starting every node at t=0.
func startAll(n int) []node.Action {
	s := make([]node.Action, n)
	for i := range s {
		s[i] = node.Action{Node: i + 1, Cmd: node.CmdStart}
	}
	return s
}
