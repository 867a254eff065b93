package changroberts

// The minimal hand-written goroutine Chang-Roberts that the live runtime is
// measured against (BenchmarkElection impl=baseline): one
// goroutine per node, one 1-buffered int channel per node, every node
// starting, ids swallowed, the maximum's announcement round. No node
// machine, no events, no checkers.

import (
	"math/rand/v2"
	"slices"
	"sync"
	"sync/atomic"
	"testing"

	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// baseline elects on a ring of len(ids) goroutines (ids > 0) and returns
// the messages sent and the leader each node learnt. An ELECTION(q) is q,
// the announcement ELECTED(l) is -l. A channel holds one message; a node
// holds at most one, and messages never multiply, so a send cannot block
// for ever: every goroutine ends after the announcement passes it. Like
// engine/live's nodes, a node blocks on its own channels only (a select
// on a shared ctx.Done() costs each of a million goroutines a lock on one
// channel); it cannot be cancelled.
func baseline(ids []int) (msgs int64, leaders []int) {
	n := len(ids)
	ch := make([]chan int, n)
	for i := range ch {
		ch[i] = make(chan int, 1)
	}
	leaders = make([]int, n)
	var sent atomic.Int64
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			id, in, out := ids[i], ch[i], ch[(i+1)%n]
			count := int64(1)
			out <- id
			for {
				q := <-in
				switch {
				case q < 0: // the announcement: forward it once, then stop
					leaders[i] = -q
					if -q != id {
						count++
						out <- q
					}
					sent.Add(count)
					return
				case q == id: // own id came back: leader; announce
					leaders[i] = id
					q = -id
				case q < id:
					continue // swallowed
				}
				count++
				out <- q
			}
		})
	}
	wg.Wait()
	return sent.Load(), leaders
}

// TestBaselineCounts checks both hand-written elections: the goroutine
// baseline and the single-threaded floor (floor_test.go).
func TestBaselineCounts(t *testing.T) {
	for name, elect := range map[string]func([]int) (int64, []int){"baseline": baseline, "floor": floor} {
		for _, ids := range [][]int{{5, 3, 7, 1, 4}, {1, 2, 3, 4, 5}, {5, 4, 3, 2, 1}, {42}, randomIDs(1000, 1)} {
			e, a := Messages(ids)
			msgs, leaders := elect(ids)
			if msgs != int64(e+a) {
				t.Errorf("%s, ids %v: %d messages, want %d + %d", name, ids[:min(len(ids), 5)], msgs, e, a)
			}
			for i, l := range leaders {
				if l != slices.Max(ids) {
					t.Errorf("%s, ids %v: node %d learnt %d", name, ids[:min(len(ids), 5)], i+1, l)
				}
			}
		}
	}
}

// randomIDs is the layout of `ringlab election --nodes n --layout random
// --seed seed`: ids 1..n shuffled by the same PCG stream.
func randomIDs(n int, seed uint64) []int {
	ids := make([]int, n)
	for i := range ids {
		ids[i] = i + 1
	}
	rng := rand.New(rand.NewPCG(seed, 0x6c61796f7574)) // "layout"
	rng.Shuffle(n, func(i, j int) { ids[i], ids[j] = ids[j], ids[i] })
	return ids
}
