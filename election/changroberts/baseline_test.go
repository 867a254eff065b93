package changroberts

// The minimal hand-written goroutine Chang-Roberts that the live runtime is
// measured against (BenchmarkElection impl=baseline, TestBigBaseline): one
// goroutine per node, one 1-buffered int channel per node, every node
// starting, ids swallowed, the maximum's announcement round. No node
// machine, no events, no checkers.

import (
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// baseline elects on a ring of len(ids) goroutines (ids > 0) and returns
// the messages sent and the leader each node learnt. An ELECTION(q) is q,
// the announcement ELECTED(l) is -l. A channel holds one message; a node
// holds at most one, and messages never multiply, so a send cannot block
// for ever: every goroutine ends after the announcement passes it. Like
// internal/live's nodes, a node blocks on its own channels only (a select
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

func TestBaselineCounts(t *testing.T) {
	for _, ids := range [][]int{{5, 3, 7, 1, 4}, {1, 2, 3, 4, 5}, {5, 4, 3, 2, 1}, {42}} {
		e, a := Messages(ids)
		msgs, leaders := baseline(ids)
		if msgs != int64(e+a) {
			t.Errorf("ids %v: %d messages, want %d + %d", ids, msgs, e, a)
		}
		for i, l := range leaders {
			if l != slices.Max(ids) {
				t.Errorf("ids %v: node %d learnt %d", ids, i+1, l)
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

// TestBigBaseline is the million-node baseline, measured like the command:
//
//	go test -c -o /tmp/cr.test ./election/changroberts
//	RINGLAB_BIG=1 /usr/bin/time -v /tmp/cr.test -test.run '^TestBigBaseline$' -test.v
func TestBigBaseline(t *testing.T) {
	if os.Getenv("RINGLAB_BIG") != "1" {
		t.Skip("set RINGLAB_BIG=1 to run the million-node baseline")
	}
	const n = 1_000_000
	ids := randomIDs(n, 1)
	start := time.Now()
	msgs, leaders := baseline(ids)
	wall := time.Since(start)
	e, a := Messages(ids)
	if msgs != int64(e+a) || leaders[0] != n {
		t.Errorf("%d messages, leader %d; want %d, %d", msgs, leaders[0], e+a, n)
	}
	t.Logf("%d nodes, %d messages: %v (%.0f ns/msg), peak RSS %d MiB", n, msgs, wall.Round(time.Millisecond),
		float64(wall.Nanoseconds())/float64(msgs), peakRSS()>>20)
}

// peakRSS is the process's peak resident set size (VmHWM) in bytes.
func peakRSS() int64 {
	b, _ := os.ReadFile("/proc/self/status")
	for l := range strings.SplitSeq(string(b), "\n") {
		if rest, ok := strings.CutPrefix(l, "VmHWM:"); ok {
			var kb int64
			for _, c := range strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")) {
				kb = kb*10 + int64(c-'0')
			}
			return kb << 10
		}
	}
	return 0
}
