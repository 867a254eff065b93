package amqp

import "sync"

// status is what a node reports about itself after every step: its
// transport counters per link (the last sequence number it sent to each
// peer, the last it handled from each), whether the algorithm said Done,
// and whether it is quiet (no timer and no action pending).
type status struct {
	Node   int              `json:"node"`
	Sent   map[int]int64    `json:"sent"` // to -> last seq sent (and confirmed)
	Recv   map[int]int64    `json:"recv"` // from -> last seq handled
	Done   bool             `json:"done"`
	Crash  bool             `json:"crashed,omitempty"` // crashed (Done unless a restart of it is pending)
	Quiet  bool             `json:"quiet"`
	Steps  int64            `json:"steps"`
	ByType map[string]int64 `json:"by_type"`
}

// tracker decides the end of a run from the nodes' latest statuses, as
// the channel-counting method of termination detection (Mattern's "four
// counters", per link): the run is over when every node has reported,
// every link is balanced — the last sequence number its sender reported
// equals the last its receiver reported handled — and every node is done
// (or every node is quiet). Reports may be late, but each is a snapshot of
// one node: a message sent after its sender's snapshot must have been
// caused by a message handled after the handler's snapshot, and following
// that chain back ends at a timer or an action, which a quiet or done
// report excludes (done nodes' timers are ignored, as the in-process
// runtimes ignore them). Sequence numbers, not counts, make a redelivered
// message count once.
type tracker struct {
	mu         sync.Mutex
	n          int
	last       []*status // by node, nil until it reports
	reported   int
	links      map[[2]int]*link
	unbalanced int
	notDone    int
	notQuiet   int
	crashed    int // nodes whose latest status says crashed
}

type link struct{ sent, recv int64 }

func newTracker(n int) *tracker {
	return &tracker{n: n, last: make([]*status, n+1), links: map[[2]int]*link{}, notDone: n, notQuiet: n}
}

// update records s (which the tracker keeps: do not modify it later) and
// reports whether the run is over.
func (t *tracker) update(s *status) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	old := t.last[s.Node]
	if old == nil {
		t.reported++
	} else {
		t.count(old, +1)
	}
	t.count(s, -1)
	t.last[s.Node] = s
	for to, q := range s.Sent {
		t.set([2]int{s.Node, to}, func(l *link) { l.sent = q })
	}
	for from, q := range s.Recv {
		t.set([2]int{from, s.Node}, func(l *link) { l.recv = q })
	}
	return t.overLocked()
}

func (t *tracker) count(s *status, d int) {
	if s.Done {
		t.notDone += d
	}
	if s.Quiet {
		t.notQuiet += d
	}
	if s.Crash {
		t.crashed -= d
	}
}

func (t *tracker) set(k [2]int, f func(*link)) {
	l := t.links[k]
	if l == nil {
		l = &link{}
		t.links[k] = l
	}
	was := l.sent == l.recv
	f(l)
	switch is := l.sent == l.recv; {
	case was && !is:
		t.unbalanced++
	case !was && is:
		t.unbalanced--
	}
}

// over reports whether the run is over, by the statuses so far.
func (t *tracker) over() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.overLocked()
}

// overLocked applies the rule. Messages to a crashed node wait in its
// queue for a restart and are not in flight (the in-process runtimes drop
// them): links into crashed nodes do not count. Only then does it look
// at the links one by one: a run without a crashed node costs no scan of
// its N links at every step (at 1,000 nodes that scan was 8% of the
// process's CPU over a ring election).
func (t *tracker) overLocked() bool {
	if t.reported < t.n || (t.notDone > 0 && t.notQuiet > 0) {
		return false
	}
	if t.unbalanced == 0 || t.crashed == 0 {
		return t.unbalanced == 0
	}
	for k, l := range t.links {
		if l.sent != l.recv && !t.last[k[1]].Crash {
			return false
		}
	}
	return true
}

// totals sums the latest reports: steps and messages by type.
func (t *tracker) totals() (steps int64, byType map[string]int64) {
	t.mu.Lock()
	defer t.mu.Unlock()
	byType = map[string]int64{}
	for _, s := range t.last {
		if s == nil {
			continue
		}
		steps += s.Steps
		for k, v := range s.ByType {
			byType[k] += v
		}
	}
	return steps, byType
}
