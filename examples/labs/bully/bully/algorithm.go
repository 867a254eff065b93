package bully

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"ringlab/election"
	"ringlab/engine"
	"ringlab/engine/check"
	"ringlab/engine/cliutil"
	"ringlab/engine/node"
	"ringlab/engine/trace"
)

// This file is the lab's, not the students': it builds the system every
// test runs (who is down, who suspects the leader, the timeouts) and
// names the properties it is judged by.

// MaxNodes bounds --nodes: an exhaustive search of more is too large.
const MaxNodes = 8

// Algorithm is the lab's algorithm value, for every tool. Its parameters:
// nodes (ids 1..nodes), down (a node crashed from the start, 0: none) and
// starters (the nodes that suspect the leader at tick 0).
func Algorithm() engine.Algorithm {
	return engine.Algorithm{
		Name:  "bully",
		Usage: "Bully: ELECTION to higher ids, OK, COORD; timers as inputs; the highest live id wins",
		Params: []engine.Param{
			{Name: "nodes", Default: 4, Usage: fmt.Sprintf("nodes, ids 1..nodes (2..%d)", MaxNodes)},
			{Name: "down", Default: 0, Usage: "a node crashed from the start, as the old leader (0: none)"},
			{Name: "starters", Default: "1", Usage: "the nodes that suspect the leader at tick 0: a list like 1,2, or all"},
		},
		Build: build,
	}
}

// build is the system of p: the down node crashed at tick 0, the
// starters told to start, timeouts that outlast a round trip of env's
// longest message.
func build(p engine.Params, env engine.Env) (engine.System, error) {
	n, down := p.Int("nodes"), p.Int("down")
	if n < 2 || n > MaxNodes {
		return engine.System{}, cliutil.Usagef("--nodes must be between 2 and %d, got %d", MaxNodes, n)
	}
	if down < 0 || down > n {
		return engine.System{}, cliutil.Usagef("--down must be a node 1..%d, or 0, got %d", n, down)
	}
	starters, err := parseStarters(p.String("starters"), n)
	if err != nil {
		return engine.System{}, err
	}
	var script []node.Action
	if down > 0 {
		script = append(script, node.Action{At: 0, Node: down, Cmd: node.CmdCrash})
	}
	for _, i := range starters {
		script = append(script, node.Action{At: 0, Node: i, Cmd: node.CmdStart})
	}
	reply := 2*max(env.MaxDelay, 1) + 1 // longer than a round trip
	coord := reply + 2*max(env.MaxDelay, 1)
	return engine.System{
		Name: "bully", Nodes: n, Topology: trace.TopoComplete,
		Factory: func(i int) (node.Node, error) {
			if i < 1 || i > n {
				return nil, fmt.Errorf("bully: node index must be 1..%d, got %d", n, i)
			}
			return New(n, i, reply, coord), nil
		},
		Messages:   MessageTypes(),
		Script:     script,
		Properties: []check.Property{election.NewUniqueness(nil), &Rightful{Nodes: n}, election.NewAgreement(n, nil), check.Termination{}},
	}, nil
}

// parseStarters reads "all" or a list of nodes like "1,3".
func parseStarters(s string, n int) ([]int, error) {
	if s == "all" {
		all := make([]int, n)
		for i := range all {
			all[i] = i + 1
		}
		return all, nil
	}
	var list []int
	for f := range strings.SplitSeq(s, ",") {
		i, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || i < 1 || i > n {
			return nil, cliutil.Usagef("--starters: want all or nodes 1..%d like 1,2, got %q", n, s)
		}
		if !slices.Contains(list, i) {
			list = append(list, i)
		}
	}
	return list, nil
}

// IDRightful names the Rightful property.
const IDRightful check.ID = "rightful leader"

// Rightful is the safety property that a node declares itself leader
// only when every node with a higher id has crashed: with the agreement
// of every live node at the end, the leader is the highest id alive when
// it declared. (A leader that crashes after declaring is followed by the
// others until someone suspects it again: that next election is not this
// lab's.) It is a check.Snapshot: the search judges it at every step.
type Rightful struct {
	Nodes   int // the nodes are 1..Nodes, each with its index as id
	crashed check.NodeSet
}

// ID names the property.
func (*Rightful) ID() check.ID { return IDRightful }

// Wants is the events it follows: leaders, crashes and recoveries.
func (*Rightful) Wants() trace.Kinds {
	return trace.KindsOf(trace.KindLeader, trace.KindCrash, trace.KindRecover)
}

// Observe judges every node that takes itself as leader.
func (r *Rightful) Observe(e *trace.Event) string {
	switch e.Kind {
	case trace.KindCrash:
		r.crashed.Add(e.Node)
	case trace.KindRecover:
		r.crashed.Remove(e.Node)
	case trace.KindLeader:
		if e.LeaderID() != e.Node {
			return ""
		}
		for j := e.Node + 1; j <= r.Nodes; j++ {
			if !r.crashed.Has(j) {
				return fmt.Sprintf("node %d declares itself leader while node %d, a higher id, is alive", e.Node, j)
			}
		}
	}
	return ""
}

// Finish holds if no declaration broke it.
func (*Rightful) Finish(check.End) trace.Verdict {
	return trace.Verdict{Property: string(IDRightful), OK: true, Detail: "every leader declared with no higher id alive"}
}

// Clone copies the property's state for the search.
func (r *Rightful) Clone() check.Snapshot {
	c := *r
	c.crashed = slices.Clone(r.crashed)
	return &c
}

// AppendKey encodes the crashed nodes.
func (r *Rightful) AppendKey(b []byte) []byte { return r.crashed.AppendKey(b) }
