package yoyo

import (
	"math/bits"

	"ringlab/engine/node"
)

// begin starts iteration n.iter+1 on the DAG as it is now.
func (n *Node) begin(out *node.Output) {
	ins, outs := n.edges(edgeIn), n.edges(edgeOut)
	switch {
	case len(ins) == 0 && len(outs) == 0:
		n.becomeLeader(out)
	case len(ins) == 0:
		n.setState(StateSource, out)
		n.min = n.id
		for _, j := range outs {
			out.Send(j, Msg{Kind: MsgYo, Id: n.id, Iter: n.iter + 1})
		}
	default:
		if len(outs) == 0 {
			n.setState(StateSink, out)
		} else {
			n.setState(StateInternal, out)
		}
		n.waiting = true
		n.tryValues(out)
	}
}

// onYo buffers a value by iteration: one for the next iteration can arrive
// while this one still waits for votes.
func (n *Node) onYo(from int, m Msg, out *node.Output) {
	if n.vals[m.Iter] == nil {
		n.vals[m.Iter] = map[int]int{}
	}
	n.vals[m.Iter][from] = m.Id
	if n.waiting && m.Iter == n.iter+1 {
		n.tryValues(out)
	}
}

// tryValues: "when p has received ids on all its in-edges, it takes the
// minimum m and sends it on all out-edges"; a sink answers at once.
func (n *Node) tryValues(out *node.Output) {
	vals := n.vals[n.iter+1]
	if len(vals) < len(n.edges(edgeIn)) {
		return
	}
	n.waiting = false
	first := true
	for _, v := range vals {
		if first || v < n.min {
			n.min, first = v, false
		}
	}
	outs := n.edges(edgeOut)
	if len(outs) == 0 {
		n.finish(true, out)
		return
	}
	for _, j := range outs {
		out.Send(j, Msg{Kind: MsgYo, Id: n.min, Iter: n.iter + 1})
	}
}

func (n *Node) onVote(from int, m Msg, out *node.Output) {
	n.votes[from] = m
	if len(n.votes) < len(n.edges(edgeOut)) {
		return
	}
	allYes := true
	for _, v := range n.votes {
		allYes = allYes && v.Kind == MsgYes
	}
	n.finish(allYes, out)
}

// finish ends the iteration: it applies the votes from below (a NO reverses
// the edge, a prune deletes it), answers the senders above, and prunes.
func (n *Node) finish(allYes bool, out *node.Output) {
	for j, v := range n.votes {
		switch {
		case v.Prune:
			n.dir[j] = edgeGone
		case v.Kind == MsgNo:
			n.dir[j] = edgeIn
		}
	}
	clear(n.votes)
	vals := n.vals[n.iter+1]
	delete(n.vals, n.iter+1)

	var answers []node.Send
	kept := map[int]bool{} // values whose first sender is kept
	for _, j := range n.nbrs {
		v, ok := vals[j]
		if !ok {
			continue
		}
		vote := Msg{Kind: MsgNo, Iter: n.iter + 1, Prune: kept[v]}
		if allYes && v == n.min {
			vote.Kind = MsgYes
		}
		kept[v] = true
		switch {
		case vote.Prune:
			n.dir[j] = edgeGone
		case vote.Kind == MsgNo:
			n.dir[j] = edgeOut
		}
		answers = append(answers, node.Send{To: j, Msg: vote})
	}
	pruned := false
	if left := append(n.edges(edgeIn), n.edges(edgeOut)...); len(left) == 1 && n.dir[left[0]] == edgeIn {
		for k := range answers {
			if answers[k].To == left[0] { // a leaf sink: ask the last neighbour to cut it too
				m := answers[k].Msg.(Msg)
				m.Prune = true
				answers[k].Msg = m
				n.dir[left[0]], pruned = edgeGone, true
			}
		}
	}
	for _, a := range answers {
		out.Send(a.To, a.Msg)
	}
	n.iter++
	if pruned {
		n.setState(StatePruned, out)
		return
	}
	n.begin(out)
}

func (n *Node) becomeLeader(out *node.Output) {
	n.setState(StateLeader, out)
	n.leader, n.done = n.id, true
	out.Leader(n.id)
	out.Note("leader after %d iterations", n.iter)
	for _, j := range n.nbrs {
		out.Send(j, Msg{Kind: MsgLeader, Id: n.id})
	}
}

// edges lists the neighbours whose edge has direction d, ascending.
func (n *Node) edges(d int) []int {
	var s []int
	for _, j := range n.nbrs {
		if dir, ok := n.dir[j]; ok && dir == d {
			s = append(s, j)
		}
	}
	return s
}

// IDMessages is the exact phase-1 count on a graph of m edges: one ID each
// way on every edge.
func IDMessages(m int) int { return 2 * m }

// LeaderMessages is the exact announcement count on a connected graph of n
// nodes and m edges: each node sends LEADER to every neighbour but the one
// it first heard it from, and the leader to all.
func LeaderMessages(n, m int) int { return 2*m - (n - 1) }

// IterationBound is the loose bound on phase-2 iterations the tests check,
// ceil(log2 n)+1; each iteration costs at most 2m messages (YO and a vote
// per live edge), which gives the O(m log n) of the chapter.
func IterationBound(n int) int {
	if n <= 1 {
		return 1
	}
	return bits.Len(uint(n-1)) + 1
}
