package central

import "ringlab/engine/node"

// Clone implements node.Snapshot. The copy shares the queue: a step never
// changes it in place, it builds a new one (enqueue, grant).
//
// Hand-written: the check is 1.32x faster than with the derived copy and
// key (median of BenchmarkKeys/algo=central).
func (n *Node) Clone() node.Node {
	c := *n
	return &c
}

// AppendKey implements node.Snapshot: the participant's and the
// coordinator's state (the configuration is fixed).
//
// Hand-written: the check is 1.32x faster than with the derived copy and
// key (median of BenchmarkKeys/algo=central).
func (n *Node) AppendKey(b []byte) []byte {
	b = node.AppendString(b, n.state)
	b = node.AppendInt(b, n.pending)
	b = node.AppendBool(b, n.freeing)
	b = node.AppendBool(b, n.busy)
	b = node.AppendInt(b, n.holder)
	return node.AppendInts(b, n.queue)
}

// Values implements node.Valuer: the node's index, the coordinator's, the
// holder (0: none) and the queued participants are node indices, renamed
// under permutations of the participants (engine.Symmetry; the queue
// keeps its order, and Symmetric's group never moves the coordinator).
func (n *Node) Values(v *node.Values) {
	v.Index(&n.cfg.Index)
	v.Index(&n.cfg.Coordinator)
	v.Index(&n.holder)
	for k := range n.queue {
		v.Index(&n.queue[k])
	}
}

// Values implements node.Valuer: a message carries only its kind.
func (m *Msg) Values(*node.Values) {}

// Symmetric returns the participants of cfg that are interchangeable
// (engine.Symmetry): every node but the coordinator, unless Favour tells
// some of them apart.
func Symmetric(cfg Config) []int {
	if cfg.Favour > 1 || cfg.N < 3 {
		return nil
	}
	coord := cfg.Coordinator
	if coord == 0 {
		coord = 1
	}
	var ps []int
	for i := 1; i <= cfg.N; i++ {
		if i != coord {
			ps = append(ps, i)
		}
	}
	return ps
}
