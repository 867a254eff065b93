// Package ringspec is the fixed part of the ring-election lab: what the
// students' node talks with (the two messages and the two notes that the
// specification's lines are printed from), the Algorithm value every
// ringlab tool takes, and the properties the lab grades by. Students hand
// in only the node (package ringelection); they never edit this package.
//
// The ring is unidirectional: node i sends to node i+1, node N to node 1.
// Ids are distinct integers given in ring order (node indices are 1-based)
// and the smallest id must win.
package ringspec

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"ringlab/election"
	"ringlab/engine"
	"ringlab/engine/check"
	"ringlab/engine/node"
	"ringlab/engine/trace"
)

// Message types, as the specification names them on the wire.
const (
	TypeElection = "ELECTION"
	TypeElected  = "ELECTED"
)

// Election is ELECTION(candidate_id), sent by rules 1, 2 and 3.
type Election struct {
	CandidateID int `json:"candidate_id"`
}

// Type names the message type.
func (Election) Type() string { return TypeElection }

// Elected is ELECTED(leader_id), sent by rules 4 and 5.
type Elected struct {
	LeaderID int `json:"candidate_id"`
}

// Type names the message type.
func (Elected) Type() string { return TypeElected }

// MessageTypes lists one value of every message type a node sends.
func MessageTypes() []node.Msg { return []node.Msg{Election{}, Elected{}} }

// The notes a node writes (out.NoteText) where the specification prints a
// line that no message or leader event gives.
const (
	NoteStarted  = "started election"  // rule 1: "ID=5 iniciando eleição"
	NoteComplete = "election complete" // rule 6: "Eleição completa!"
)

// NewNode builds node i (1-based) of a ring whose ids, in ring order, are
// ids, in its initial state.
type NewNode func(ids []int, i int) node.Node

// The properties the lab judges, by the name the "properties" parameter
// takes.
const (
	PropTranscript   = "transcript"   // the specification's lines, node by node
	PropUniqueness   = "uniqueness"   // at most one live node takes itself as leader
	PropCorrectness  = "correctness"  // the leader taken is the smallest id
	PropAgreement    = "agreement"    // every node takes the same leader
	PropTermination  = "termination"  // the run ends with a leader
	PropAnnouncement = "announcement" // as many ELECTION and ELECTED as the rules send
)

// allProps are the properties "all" stands for: the transcript only where
// the specification gives one (Expected).
var allProps = []string{PropTranscript, PropUniqueness, PropCorrectness, PropAgreement, PropTermination, PropAnnouncement}

// Algorithm is the lab's algorithm value, named name, whose nodes newNode
// builds. Its parameters: ids (in ring order), initiators (1-based node
// indices, or all) and properties (all, or a comma-separated list of the
// Prop names: what a test grades).
func Algorithm(name string, newNode NewNode) engine.Algorithm {
	return engine.Algorithm{
		Name:  name,
		Usage: "the specification's ring election: six rules, the smallest id wins",
		Params: []engine.Param{
			{Name: "ids", Usage: "the ids in ring order", Default: "5,3,7,1,4"},
			{Name: "initiators", Usage: "the nodes that start (1-based indices), or all", Default: "1"},
			{Name: "properties", Usage: "all, or a comma-separated list of " + strings.Join(allProps, ", "), Default: "all"},
		},
		Build: func(p engine.Params, _ engine.Env) (engine.System, error) {
			return build(name, newNode, p)
		},
	}
}

// build makes one run's System from the parameters.
func build(name string, newNode NewNode, p engine.Params) (engine.System, error) {
	ids, err := ParseIDs(p.String("ids"))
	if err != nil {
		return engine.System{}, fmt.Errorf("ids: %w", err)
	}
	starters, err := parseInitiators(p.String("initiators"), len(ids))
	if err != nil {
		return engine.System{}, fmt.Errorf("initiators: %w", err)
	}
	props, err := properties(p.String("properties"), ids, starters)
	if err != nil {
		return engine.System{}, fmt.Errorf("properties: %w", err)
	}
	script := make([]node.Action, len(starters))
	for k, i := range starters {
		script[k] = node.Action{At: 0, Node: i, Cmd: node.CmdStart}
	}
	return engine.System{
		Name:  name,
		Nodes: len(ids),
		Factory: func(i int) (node.Node, error) {
			if i < 1 || i > len(ids) {
				return nil, fmt.Errorf("node index %d is outside 1..%d", i, len(ids))
			}
			return newNode(slices.Clone(ids), i), nil
		},
		Messages:   MessageTypes(),
		Script:     script,
		Properties: props,
		Topology:   trace.TopoRing,
	}, nil
}

// properties builds the properties list names asks for.
func properties(list string, ids, starters []int) ([]check.Property, error) {
	want := allProps
	all := list == "all"
	if !all {
		want = strings.Split(list, ",")
	}
	var props []check.Property
	for _, w := range want {
		switch w {
		case PropTranscript:
			lines, ok := Expected(ids, starters)
			switch {
			case ok:
				props = append(props, &Transcript{IDs: ids, Want: lines})
			case !all:
				return nil, fmt.Errorf("the specification gives no transcript for ids %v started by %v", ids, starters)
			}
		case PropUniqueness:
			props = append(props, election.NewUniqueness(ids))
		case PropCorrectness:
			props = append(props, election.NewCorrectness(ids, slices.Min(ids), "the smallest id"))
		case PropAgreement:
			props = append(props, election.NewAgreement(len(ids), ids))
		case PropTermination:
			props = append(props, election.NewTermination(len(ids), ids))
		case PropAnnouncement:
			props = append(props, NewAnnouncement(ids, starters))
		default:
			return nil, fmt.Errorf("unknown property %q (want all or some of %s)", w, strings.Join(allProps, ", "))
		}
	}
	return props, nil
}

// ParseIDs reads distinct ids in ring order: "5,3,7".
func ParseIDs(s string) ([]int, error) {
	var ids []int
	for f := range strings.SplitSeq(s, ",") {
		id, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil {
			return nil, fmt.Errorf("%q is not an id", f)
		}
		if slices.Contains(ids, id) {
			return nil, fmt.Errorf("id %d appears twice: ids must be distinct", id)
		}
		ids = append(ids, id)
	}
	if len(ids) < 2 {
		return nil, fmt.Errorf("a ring needs at least 2 nodes, got %d", len(ids))
	}
	return ids, nil
}

// parseInitiators reads "all" or 1-based node indices "1,3" of n nodes.
func parseInitiators(s string, n int) ([]int, error) {
	var out []int
	if s == "all" {
		for i := 1; i <= n; i++ {
			out = append(out, i)
		}
		return out, nil
	}
	for f := range strings.SplitSeq(s, ",") {
		i, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || i < 1 || i > n {
			return nil, fmt.Errorf("%q is not a node index 1..%d", f, n)
		}
		if !slices.Contains(out, i) {
			out = append(out, i)
		}
	}
	return out, nil
}
