package changroberts

// Where the simulator's time goes beside the floor's (BenchmarkLayout): the
// floor's own loop, given the simulator's memory layout one piece at a
// time, with none of the engine's code. Each rung adds one piece to the
// rung before:
//
//	slots   each letter a 40-byte slot, as the simulator's queue holds it
//	        (message, Lamport clock, aux, from, to), not 16 bytes
//	nodes   each node's state a 32-byte Node (the package's own), not an
//	        8-byte id
//	record  the engine's 32-byte record per node beside it (the Node as a
//	        node.Node interface, a Lamport clock, crashed and done), read
//	        and written for every message, the Node reached through it
//	boxed   the id carried in a node.Msg (Election, Elected), boxed on the
//	        heap as Go boxes any value wider than a pointer word
//
// One more rung, typed, leaves the ladder to ask what a simulator with a
// different node contract could reach at best: nodes kept by value inside
// the engine's record (one 48-byte entry per node, one cache line to miss,
// not two), messages unboxed in 24-byte slots, and still no engine code
// (typedLayout). On the 2-core machine, a million nodes, five interleaved
// runs on 2026-11-29: floor 0.17-0.19 s, typed 0.37-0.66 s, 1.9-3.5 times
// the floor run by run (median 3.3); at 100,000 nodes, floor 7.5-7.7
// ns/msg, typed 16-19 (2.1-2.5 times). That is before a single line of
// an engine's own work (a Step call through the contract, the output
// buffer, the message counts) is added.
//
// The rungs share one loop, which tests its rung as it goes: the step from
// the floor to slots pays for those tests too. impl=sim in
// BenchmarkElection is the last rung plus the engine's code: on a busy
// 2-core machine, 100,000 nodes, floor 7-22 ns/msg, slots 22-64, nodes
// 32-39, record 54-122, boxed 81-231, sim 101-140 (three runs, each rung
// beside the others): the layout, not the engine's code, is most of the
// simulator's distance from the floor.

import (
	"fmt"
	"os"
	"testing"

	"ringlab/engine/node"
)

// rung is how much of the simulator's layout ladder uses.
type rung int

const (
	rungSlots rung = iota + 1
	rungNodes
	rungRecord
	rungBoxed
	rungTyped // not a rung on top of boxed: see typedLayout
)

var rungNames = map[rung]string{rungSlots: "slots", rungNodes: "nodes", rungRecord: "record", rungBoxed: "boxed", rungTyped: "typed"}

// slot40 is the simulator's queue slot (engine/sim/queue.go), field for
// field.
type slot40 struct {
	msg      node.Msg
	lc, aux  int64
	from, to int32
}

// record32 is the simulator's record of a node (engine/sim/engine.go's
// nodeState), field for field.
type record32 struct {
	nd            node.Node
	lc            int64
	crashed, done bool
}

// ladder is floor (floor_test.go) on the layout of rung r: the same
// passes, the same rule, the same count. A letter's q is in aux, or in its
// boxed msg from rungBoxed on.
func ladder(ids []int, r rung) (msgs int64) {
	n := len(ids)
	var leaders []int // each node's leader, kept as the floor keeps it
	var nodes []Node
	var recs []record32
	if r < rungNodes {
		leaders = make([]int, n)
	} else {
		nodes = make([]Node, n)
		for i, id := range ids {
			nodes[i] = Node{index: int32(i), next: int32((i + 1) % n), id: id}
		}
	}
	if r >= rungRecord {
		recs = make([]record32, n)
		for i := range recs {
			recs[i].nd = &nodes[i]
		}
	}
	now := make([]slot40, n)
	for i, id := range ids {
		now[i] = slot40{aux: int64(id), to: int32((i + 1) % n)}
		if r >= rungBoxed {
			now[i].msg = Election{ID: id}
		}
	}
	next := make([]slot40, 0, n)
	for len(now) > 0 {
		for k := range now {
			l := &now[k]
			msgs++
			to, q, lc := int(l.to), int(l.aux), l.lc
			var nd *Node
			switch {
			case r >= rungRecord:
				rec := &recs[to]
				if rec.crashed { // never here: the simulator's test, paid
					continue
				}
				rec.lc = max(rec.lc, lc) + 1
				lc, nd = rec.lc, rec.nd.(*Node)
				rec.done = nd.leader != 0
			case r >= rungNodes:
				nd = &nodes[to]
			}
			if r >= rungBoxed {
				switch m := l.msg.(type) {
				case Election:
					q = m.ID
				case Elected:
					q = -m.LeaderID
				}
			}
			id, succ := ids[to], (to+1)%n
			if nd != nil {
				id, succ = nd.id, int(nd.next)
			}
			msg := l.msg
			switch {
			case q < 0: // the announcement: forward it once
				setLeader(leaders, nd, to, -q)
				if -q == id {
					continue
				}
			case q == id: // own id came back: leader; announce
				setLeader(leaders, nd, to, id)
				q = -id
				if r >= rungBoxed {
					msg = Elected{LeaderID: id}
				}
			case q < id:
				continue // swallowed
			}
			next = append(next, slot40{msg: msg, lc: lc + 1, aux: int64(q), from: int32(to), to: int32(succ)})
		}
		if r >= rungBoxed {
			clear(now) // drop the boxed messages, as the simulator does
		}
		now, next = next, now[:0]
	}
	return msgs
}

// slot24 is a queue slot of a simulator generic over its message type,
// with the letter's q as the message, unboxed.
type slot24 struct {
	q, lc    int64
	from, to int32
}

// record48 is a simulator's record of a node that holds the node by value.
type record48 struct {
	nd            Node
	lc            int64
	crashed, done bool
}

// typedLayout is floor on the layout a typed simulator could have: each
// node's Node inside its record, the letters unboxed in 24-byte slots.
func typedLayout(ids []int) (msgs int64) {
	n := len(ids)
	recs := make([]record48, n)
	now := make([]slot24, n)
	for i, id := range ids {
		recs[i].nd = Node{index: int32(i), next: int32((i + 1) % n), id: id}
		now[i] = slot24{q: int64(id), to: int32((i + 1) % n)}
	}
	next := make([]slot24, 0, n)
	for len(now) > 0 {
		for k := range now {
			l := &now[k]
			msgs++
			rec := &recs[l.to]
			if rec.crashed { // never here: the simulator's test, paid
				continue
			}
			rec.lc = max(rec.lc, l.lc) + 1
			nd, q := &rec.nd, int(l.q)
			switch {
			case q < 0: // the announcement: forward it once
				nd.leader = -q
				rec.done = true
				if -q == nd.id {
					continue
				}
			case q == nd.id: // own id came back: leader; announce
				nd.leader, q = nd.id, -nd.id
			case q < nd.id:
				continue // swallowed
			}
			next = append(next, slot24{q: int64(q), lc: rec.lc + 1, from: l.to, to: nd.next})
		}
		now, next = next, now[:0]
	}
	return msgs
}

// setLeader records l as node to's leader: in its Node, or in leaders.
func setLeader(leaders []int, nd *Node, to, l int) {
	if nd != nil {
		nd.leader = l
	} else {
		leaders[to] = l
	}
}

// skipBig skips a million-node benchmark unless RINGLAB_BIG=1.
func skipBig(b *testing.B, n int) {
	if n >= 1_000_000 && os.Getenv("RINGLAB_BIG") != "1" {
		b.Skip("set RINGLAB_BIG=1 for the million-node runs")
	}
}

// TestLadderCounts checks that every rung runs the floor's election.
func TestLadderCounts(t *testing.T) {
	for _, ids := range [][]int{{5, 3, 7, 1, 4}, {1, 2, 3, 4, 5}, {5, 4, 3, 2, 1}, {42}, randomIDs(1000, 1)} {
		want, _ := floor(ids)
		for r := rungSlots; r <= rungBoxed; r++ {
			if got := ladder(ids, r); got != want {
				t.Errorf("%s, ids %v: %d messages, want the floor's %d", rungNames[r], ids[:min(len(ids), 5)], got, want)
			}
		}
		if got := typedLayout(ids); got != want {
			t.Errorf("typed, ids %v: %d messages, want the floor's %d", ids[:min(len(ids), 5)], got, want)
		}
	}
}

// BenchmarkLayout runs the ladder beside the floor, at the sizes of
// BenchmarkElection (a million with RINGLAB_BIG=1):
//
//	go test -run '^$' -bench 'Layout|Election/impl=sim$' -count 3 ./election/changroberts
func BenchmarkLayout(b *testing.B) {
	for r := rung(0); r <= rungTyped; r++ {
		name := rungNames[r]
		if r == 0 {
			name = "floor"
		}
		for _, n := range []int{4096, 100_000, 1_000_000} {
			b.Run(fmt.Sprintf("impl=%s/nodes=%d", name, n), func(b *testing.B) {
				skipBig(b, n)
				ids := randomIDs(n, 1)
				want, _ := floor(ids)
				for b.Loop() {
					var msgs int64
					switch r {
					case 0:
						msgs, _ = floor(ids)
					case rungTyped:
						msgs = typedLayout(ids)
					default:
						msgs = ladder(ids, r)
					}
					if msgs != want {
						b.Fatalf("%d messages, want %d", msgs, want)
					}
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(want), "ns/msg")
			})
		}
	}
}
