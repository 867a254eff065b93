package maekawa

import (
	"slices"

	"ringlab/engine/node"
)

// The requester's side.

// request ticks and sends REQUEST(T, id) to every quorum member.
func (n *Node) request(out *node.Output) {
	if n.state != StateReleased {
		n.later++
		out.Note("request remembered until release: one outstanding request at a time")
		return
	}
	n.clock++
	n.reqT, n.failed = n.clock, false
	clear(n.granted)
	clear(n.inquired)
	n.state = StateWanted
	out.State(n.state)
	for _, q := range n.quorum {
		n.send(q, MsgRequest, n.reqT, n.id, out)
	}
}

// onLocked counts a lock; with every member's, the node enters.
func (n *Node) onLocked(from int, m Msg, out *node.Output) {
	if n.state != StateWanted || m.ReqT != n.reqT {
		return
	}
	n.granted[from] = true
	if len(n.granted) < len(n.quorum) {
		return
	}
	clear(n.inquired) // dropped: the RELEASE answers them
	n.state = StateHeld
	out.State(n.state)
	out.EnterCS()
}

// onFailed: a higher request is ahead somewhere; give back kept INQUIREs.
func (n *Node) onFailed(m Msg, out *node.Output) {
	if n.state != StateWanted || m.ReqT != n.reqT {
		return
	}
	n.failed = true
	for _, q := range n.quorum { // quorum order: deterministic
		if n.inquired[q] {
			n.relinquish(q, out)
		}
	}
}

// onInquire: relinquish if this request has failed somewhere, else keep it.
func (n *Node) onInquire(from int, m Msg, out *node.Output) {
	if n.state != StateWanted || m.ReqT != n.reqT || !n.granted[from] {
		return // HELD (the RELEASE will answer) or about an older request
	}
	if n.failed {
		n.relinquish(from, out)
		return
	}
	n.inquired[from] = true
}

func (n *Node) relinquish(arbiter int, out *node.Output) {
	delete(n.granted, arbiter)
	delete(n.inquired, arbiter)
	n.send(arbiter, MsgRelinquish, n.reqT, n.id, out)
}

// release sends RELEASE to every quorum member.
func (n *Node) release(out *node.Output) {
	if n.state != StateHeld {
		out.Note("release ignored: not in the critical section (%s)", n.state)
		return
	}
	n.state = StateReleased
	out.ExitCS()
	out.State(n.state)
	clear(n.granted)
	for _, q := range n.quorum {
		n.send(q, MsgRelease, n.reqT, n.id, out)
	}
	if n.later > 0 {
		n.later--
		n.request(out)
	}
}

// The arbiter's side.

// onRequest locks for r if free; otherwise queues it and sends FAILED or
// INQUIRE (see the package doc).
func (n *Node) onRequest(r Request, out *node.Output) {
	if n.lock == nil {
		n.grant(r, out)
		return
	}
	k, _ := slices.BinarySearchFunc(n.waiting, r, compare)
	n.waiting = slices.Insert(n.waiting, k, r)
	if k > 0 || !r.Before(*n.lock) {
		n.fail(k, out)
		return
	}
	for j := 1; j < len(n.waiting); j++ {
		if !n.waiting[j].Failed { // the request r displaced from the top
			n.fail(j, out)
		}
	}
	if !n.asked {
		n.asked = true
		n.send(n.lock.Index, MsgInquire, n.lock.T, n.lock.ID, out)
	}
}

func (n *Node) fail(k int, out *node.Output) {
	n.waiting[k].Failed = true
	n.send(n.waiting[k].Index, MsgFailed, n.waiting[k].T, n.waiting[k].ID, out)
}

// onRelinquish queues the old lock (it has failed) and locks for the head.
func (n *Node) onRelinquish(from int, m Msg, out *node.Output) {
	if n.lock == nil || n.lock.Index != from || n.lock.T != m.ReqT {
		return
	}
	old := *n.lock
	old.Failed = true
	k, _ := slices.BinarySearchFunc(n.waiting, old, compare)
	n.waiting = slices.Insert(n.waiting, k, old)
	n.next(out)
}

// onRelease frees the lock and locks for the head of the queue.
func (n *Node) onRelease(from int, m Msg, out *node.Output) {
	if n.lock == nil || n.lock.Index != from || n.lock.T != m.ReqT {
		return
	}
	n.next(out)
}

func (n *Node) next(out *node.Output) {
	n.lock, n.asked = nil, false
	if len(n.waiting) > 0 {
		r := n.waiting[0]
		n.waiting = slices.Delete(n.waiting, 0, 1)
		n.grant(r, out)
	}
}

func (n *Node) grant(r Request, out *node.Output) {
	n.lock = &r
	n.send(r.Index, MsgLocked, r.T, r.ID, out)
}

func compare(a, b Request) int {
	switch {
	case a.Before(b):
		return -1
	case b.Before(a):
		return 1
	}
	return 0
}

// Status is a snapshot of a node for checkers and tests.
type Status struct {
	ID       int
	State    string
	Clock    int
	RequestT int       // timestamp of the outstanding (or last) request
	Locks    int       // LOCKED held for it
	Failed   bool      // a FAILED arrived for it
	Lock     *Request  // as arbiter: the request holding the lock, or nil
	Waiting  []Request // as arbiter: queued requests, highest first
}

// Status returns a snapshot of the node.
func (n *Node) Status() Status {
	s := Status{ID: n.id, State: n.state, Clock: n.clock, RequestT: n.reqT, Locks: len(n.granted),
		Failed: n.failed, Waiting: slices.Clone(n.waiting)}
	if n.lock != nil {
		l := *n.lock
		s.Lock = &l
	}
	return s
}
