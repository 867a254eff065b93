// Package reduction holds the state reductions of the exhaustive search
// (engine/statespace): the clock shift and what runs with it (forgetting
// what a receiver will never read, the gaps narrowed, the low timestamps
// renumbered) and the identifiers' renaming. Each replaces a state by one
// with the same future, so that states that differ only in values that do
// not matter become one; each file says why its reduction is exact.
//
// The search keeps its states and interns their nodes, messages and
// environments; a reduction sees a state as a State (the numbers of its
// nodes and messages) and reads and makes values through a Space, the
// search's interner. It calls Reducer.Reduce on every successor.
package reduction

import (
	"ringlab/engine/node"
)

// Item is one message in flight: its link, (from-1)*n + (to-1) for n
// nodes, and its interned number.
type Item struct {
	Link uint32
	ID   uint32
}

// State is what the reductions read of a search's state and rewrite.
type State struct {
	Nodes   []uint32 // node i's interned number at index i-1
	Crashed uint64   // bit i-1: node i has crashed
	Net     []Item   // the messages in flight, by link
	Env     uint32   // the environment's interned number + 1 (0: none)
	// Restarting says a restart may still rebuild a node with a lower
	// clock: forgetting, the gaps' narrowing and the low timestamps'
	// renumbering, which assume clocks never fall, are then off.
	Restarting bool
	// ArgPending says a command with an Arg is pending: an Arg may be a
	// clock floor, which is absolute, so no reduction applies.
	ArgPending bool
	buf        []Item // where Net is rewritten, in a Reducer's copy
}

func (s *State) alive(i int) bool { return s.Crashed&(1<<(i-1)) == 0 }

// shallow returns a copy of s sharing every slice's contents but its
// nodes; the caller copies Net before changing it (ownNet). The copy is
// one of r's, reused by the next Reduce: a search copies out the state
// Reduce returns, so that reducing a state allocates nothing.
func (r *Reducer) shallow(s *State) *State {
	if r.used == len(r.copies) {
		r.copies = append(r.copies, new(State))
	}
	c := r.copies[r.used]
	r.used++
	nodes, buf := c.Nodes[:0], c.buf
	*c = *s
	c.Nodes, c.buf = append(nodes, s.Nodes...), buf
	return c
}

// ownNet gives c, made by shallow, its own copy of Net to change.
func (c *State) ownNet() []Item {
	c.buf = append(c.buf[:0], c.Net...)
	c.Net = c.buf
	return c.Net
}

// Space is what the reductions need of the search they serve: its
// interned nodes, messages and environments, read and made.
type Space interface {
	// Node and Msg are the node and the message of interned number id.
	Node(id uint32) node.Node
	Msg(id uint32) node.Msg
	// InternNode is the number of nd as node i.
	InternNode(i int, nd node.Node) uint32
	// InternMsg is the number of msg, made by how (a method or a
	// reduction) from a message already interned; a message that cannot
	// be interned is a broken contract the Space reports to its search.
	InternMsg(msg node.Msg, how string) uint32
	// EnvStamps appends the timestamps the properties of environment env
	// hold (check.Stamped).
	EnvStamps(env uint32, ts []int) []int
	// RenameEnvStamps is the number of environment env, which holds
	// some, with those timestamps renamed.
	RenameEnvStamps(env uint32, rename func(int) int) uint32
	// Broken reports a broken node contract that a reduction met: the
	// search fails at this step with it.
	Broken(what string)
}

// A Reducer reduces the states of one search (one goroutine). Its fields
// turn parts off: a test's baseline for what each part merges.
type Reducer struct {
	sp       Space
	NoForget bool // node.Forgetter off
	NoStamps bool // the low timestamps' renumbering off
	NoGaps   bool // node.Climber off
	// GapSlack is added to every narrowed gap's width (0; a test sets -1
	// to break the narrowing on purpose).
	GapSlack int
	sh       shifter
	copies   []*State // the states shallow made, reused by every Reduce
	used     int      // how many of copies this Reduce has used
}

// New returns a Reducer for the search sp.
func New(sp Space) *Reducer {
	r := &Reducer{sp: sp}
	r.sh = shifter{nodes: map[[2]uint32]uint32{}, msgs: map[[2]uint32]uint32{}, forgot: map[[3]uint32]uint32{}}
	return r
}

// Reduce returns s with its clocks shifted (shiftClocks) and its
// identifiers renamed (renameIDs, rename.go): the state a reduced search
// keeps for s. It returns s itself where nothing changes; otherwise a
// State of r's, valid until the next Reduce (the caller copies it out),
// whose Net may be s's if that is unchanged. s is not changed, and must
// not be a State Reduce returned (copy it out first).
func (r *Reducer) Reduce(s *State) *State {
	r.used = 0
	return r.renameIDs(r.shiftClocks(s))
}
