// Package idlist is "Algoritmo do Anel 2" of the course chapter on leader
// election (after Le Lann): ring election with id lists, the chapter's answer to the anonymous ring. On a
// unidirectional ring (node i sends to i+1, node n to 1), a process p that
// thinks the leader is dead sends the list [p] to the right; on receiving a
// list l, if p is not in l it sends [p : l] (p prepended), and if p is in l
// the list has been all the way round and p chooses the smallest id in l as
// leader. Ids break the symmetry: every list that completes holds every id,
// so all deciders choose the same leader.
//
// Only initiators decide: a list stops where it started, so a process that
// never started forwards lists but learns no leader (the chapter asks no more).
// Every initiator's list goes all the way round: k initiators send k*n
// messages, n*n when all start, and a list carries 1, 2, ..., n ids on its n
// hops, so the ids carried total k*n(n+1)/2 (see Messages). Size gives one
// message's size so a command can add them up.
//
// The tests check exact message counts and ids carried for every number of
// initiators, that every initiator decides the minimum and agrees, that
// non-initiators decide nothing, over random rings and delivery orders.
package idlist

import (
	"fmt"
	"slices"

	"ringlab/engine/node"
)

// TypeList is the list message's type; the chapter writes it [p : l].
const TypeList = "LIST"

// List is the message [p : l]: IDs[0] is the last process that added
// itself, the list's initiator is last. Receivers never modify IDs.
type List struct {
	IDs []int `json:"ids"`
}

// Type implements node.Msg.
func (List) Type() string { return TypeList }

// MessageTypes lists one value of every message type a node may send, under
// any schedule and fault: the registry a codec or a log reader decodes by.
func MessageTypes() []node.Msg { return []node.Msg{List{}} }

// Size is the number of ids m carries (0 for anything but a List).
func Size(m node.Msg) int {
	if l, ok := m.(List); ok {
		return len(l.IDs)
	}
	return 0
}

// Config is one process's configuration; Factory builds them from the ids.
type Config struct {
	Index int // the process's position, 1..N
	N     int // ring size
	ID    int // the process's id, p
}

// Node is one process.
type Node struct {
	index, next, id int  `ringlab:"fixed"`
	started         bool // it has sent its own list
	relayed         bool // it has forwarded a list
	decided         bool // a list of its own came back: leader is valid
	leader          int
}

// New builds one process.
func New(cfg Config) (*Node, error) {
	if cfg.N < 1 {
		return nil, fmt.Errorf("a ring needs at least 1 process, got %d", cfg.N)
	}
	if cfg.Index < 1 || cfg.Index > cfg.N {
		return nil, fmt.Errorf("process index %d is outside 1..%d", cfg.Index, cfg.N)
	}
	return &Node{index: cfg.Index, next: cfg.Index%cfg.N + 1, id: cfg.ID}, nil
}

// Step implements node.Node: CmdStart is "p thinks the leader is dead";
// other commands and timers are ignored.
func (n *Node) Step(in node.Input, out *node.Output) {
	switch in.Kind {
	case node.InCmd:
		if in.Cmd == node.CmdStart {
			n.started = true
			out.Send(n.next, List{IDs: []int{n.id}})
		}
	case node.InMsg:
		if l, ok := in.Msg.(List); ok {
			n.onList(l.IDs, out)
		}
	}
	out.Done = n.decided || (n.relayed && !n.started)
}

func (n *Node) onList(l []int, out *node.Output) {
	if !slices.Contains(l, n.id) {
		n.relayed = true
		next := make([]int, 0, len(l)+1)
		out.Send(n.next, List{IDs: append(append(next, n.id), l...)})
		return
	}
	n.decided, n.leader = true, slices.Min(l)
	out.Leader(n.leader)
}

// Status is a snapshot of a process for checkers and tests.
type Status struct {
	Index, ID int
	Started   bool // it sent its own list
	Decided   bool // a list came back to it; Leader is valid
	Leader    int
}

// Status returns the process's current status.
func (n *Node) Status() Status {
	return Status{Index: n.index, ID: n.id, Started: n.started, Decided: n.decided, Leader: n.leader}
}

// Factory validates the ring once (ids[i-1] is process i's id; at least one,
// all distinct, any int) and returns a node.Factory building process i.
func Factory(ids []int) (node.Factory, error) {
	if len(ids) == 0 {
		return nil, fmt.Errorf("a ring needs at least 1 process id, got none")
	}
	seen := make(map[int]int, len(ids))
	for i, id := range ids {
		if j, dup := seen[id]; dup {
			return nil, fmt.Errorf("process ids must be distinct: processes %d and %d both have id %d", j, i+1, id)
		}
		seen[id] = i + 1
	}
	ids = slices.Clone(ids)
	return func(i int) (node.Node, error) {
		if i < 1 || i > len(ids) {
			return nil, fmt.Errorf("process index %d is outside 1..%d", i, len(ids))
		}
		return New(Config{Index: i, N: len(ids), ID: ids[i-1]})
	}, nil
}

// Messages is the theory for k distinct initiators on a ring of n, in any
// delivery order: every list goes round once (k*n messages), carrying
// 1, 2, ..., n ids on its hops (k*n(n+1)/2 ids in all).
func Messages(n, k int) (messages, ids int) { return k * n, k * n * (n + 1) / 2 }
