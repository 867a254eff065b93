package changroberts

// The floor the simulator is measured against (BenchmarkElection
// impl=floor): the same election as a plain single-threaded program, with
// no goroutines, no engine and no node machines. One FIFO queue of letters
// stands for every link at once; handling a letter is the rule of
// baseline_test.go's nodes.

// letter is an ELECTION(q) (q > 0) or ELECTED(-q) (q < 0) on its way to
// node to (0-based).
type letter struct{ to, q int }

// floor elects on a ring of len(ids) nodes (ids > 0) and returns the
// messages sent and the leader each node learnt. The queue is two slices
// taken in turn: the letters of one pass, and those they send, so it
// never holds more than two passes' worth (2n letters) and stays FIFO.
func floor(ids []int) (msgs int64, leaders []int) {
	n := len(ids)
	leaders = make([]int, n)
	now := make([]letter, 0, n)
	for i, id := range ids {
		now = append(now, letter{(i + 1) % n, id})
	}
	next := make([]letter, 0, n)
	for len(now) > 0 {
		for _, l := range now {
			msgs++
			id, q := ids[l.to], l.q
			switch {
			case q < 0: // the announcement: forward it once
				leaders[l.to] = -q
				if -q == id {
					continue
				}
			case q == id: // own id came back: leader; announce
				leaders[l.to] = id
				q = -id
			case q < id:
				continue // swallowed
			}
			next = append(next, letter{(l.to + 1) % n, q})
		}
		now, next = next, now[:0]
	}
	return msgs, leaders
}
