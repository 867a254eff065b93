package statespace

import (
	"cmp"
	"fmt"
	"slices"

	"ringlab/internal/node"
)

// item is one message in flight on a link. id is the message's interned
// number (its part of a state's key); lc is the sender's Lamport clock,
// kept only when a path is replayed for its trace.
type item struct {
	msg node.Msg
	id  uint32
	lc  int64
}

// state is one global state: every node, what the network holds, what the
// environment still has to say, and the fault budgets spent. A state is
// never changed once it is in the queue: a successor copies the slices it
// changes (copy on write), and shares the rest with its parent.
type state struct {
	nodes                    []node.Snapshot // index i-1 is node i
	crashed                  uint64          // bit i-1: node i has crashed
	done                     uint64          // bit i-1: node i has said Done (sticky until a restart)
	timers                   [][]int         // node i-1's pending timer ids, ascending
	cmds                     [][]node.Cmd    // node i-1's pending commands, oldest first
	links                    [][]item        // (from-1)*n + (to-1): FIFO order, or sorted by rank under random
	flight                   int             // messages in all links
	world                    World
	crashes, drops, restarts uint8 // faults spent
}

func (s *state) alive(i int) bool { return s.crashed&(1<<(i-1)) == 0 }

// shallow returns a copy of s sharing every slice's contents; the caller
// copies a slice before changing it (own*).
func (s *state) shallow() *state {
	c := *s
	c.nodes = slices.Clone(s.nodes)
	c.timers = slices.Clone(s.timers)
	c.cmds = slices.Clone(s.cmds)
	c.links = slices.Clone(s.links)
	return &c
}

// interner numbers the distinct messages of one search and ranks them by
// their printed value (their order under the random policy, the same in
// every search, so that a path's labels replay).
type interner struct {
	ids   map[node.Msg]uint32 // comparable messages
	byStr map[string]uint32   // the others, by their printed value
	rank  []string            // id -> printed value
	cmdID map[node.Cmd]int
}

func newInterner() *interner {
	return &interner{ids: map[node.Msg]uint32{}, byStr: map[string]uint32{}, cmdID: map[node.Cmd]int{}}
}

func (in *interner) id(m node.Msg) uint32 {
	comparable := isComparable(m)
	if comparable {
		if id, ok := in.ids[m]; ok {
			return id
		}
	}
	s := fmt.Sprintf("%s %T %+v", m.Type(), m, m)
	id, ok := in.byStr[s]
	if !ok {
		id = uint32(len(in.rank))
		in.rank = append(in.rank, s)
		in.byStr[s] = id
	}
	if comparable {
		in.ids[m] = id
	}
	return id
}

func (in *interner) cmd(c node.Cmd) int {
	id, ok := in.cmdID[c]
	if !ok {
		id = len(in.cmdID)
		in.cmdID[c] = id
	}
	return id
}

// less orders two messages on a link under the random policy.
func (in *interner) compare(a, b item) int {
	if a.id == b.id {
		return cmp.Compare(a.lc, b.lc)
	}
	return cmp.Compare(in.rank[a.id], in.rank[b.id])
}

// appendKey appends the canonical encoding of s.
func (s *state) appendKey(b []byte, in *interner) []byte {
	b = append(b, s.crashes, s.drops, s.restarts)
	for k := range s.nodes {
		i := k + 1
		if !s.alive(i) {
			b = append(b, 0xff)
		} else {
			b = s.nodes[k].AppendKey(append(b, 1))
			b = node.AppendBool(b, s.done&(1<<k) != 0)
		}
		b = node.AppendInts(b, s.timers[k])
		b = node.AppendInt(b, len(s.cmds[k]))
		for _, c := range s.cmds[k] {
			b = node.AppendInt(b, in.cmd(c))
		}
	}
	for l, q := range s.links {
		if len(q) == 0 {
			continue
		}
		b = node.AppendInt(node.AppendInt(b, l), len(q))
		for _, it := range q {
			b = node.AppendInt(b, int(it.id))
		}
	}
	b = append(b, 0xfe)
	if s.world != nil {
		b = s.world.AppendKey(b)
	}
	return b
}
