package amqp

import "testing"

// A message into a crashed node waits in its queue and does not hold the
// run; once the node is back (a later status without Crash), it does
// again. The tracker counts crashed nodes instead of scanning every link
// at every step, so the count must follow each node's latest status.
func TestTrackerLinksIntoCrashedNodes(t *testing.T) {
	tr := newTracker(2)
	one := &status{Node: 1, Sent: map[int]int64{2: 1}, Recv: map[int]int64{}, Done: true}
	steps := []struct {
		s    *status
		over bool
	}{
		{one, false}, // node 2 has not reported
		{&status{Node: 2, Sent: map[int]int64{}, Recv: map[int]int64{}, Done: true}, false}, // 1 -> 2 in flight
		{&status{Node: 2, Sent: map[int]int64{}, Recv: map[int]int64{}, Done: true, Crash: true}, true},
		{&status{Node: 2, Sent: map[int]int64{}, Recv: map[int]int64{}, Done: true}, false}, // restarted
		{&status{Node: 2, Sent: map[int]int64{}, Recv: map[int]int64{1: 1}, Done: true}, true},
	}
	for k, st := range steps {
		if got := tr.update(st.s); got != st.over {
			t.Fatalf("status %d (node %d, crashed %v): over = %v, want %v", k+1, st.s.Node, st.s.Crash, got, st.over)
		}
	}
}
