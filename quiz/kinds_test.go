package quiz

import (
	"math"
	"slices"
	"strconv"
	"testing"

	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// Chang-Roberts with every node starting has closed forms: ids descending
// along the ring (each node sends to the next) send n(n+1)/2 ELECTION,
// ascending 2n-1; the announcement adds n ELECTED.
func TestChangRobertsClosedForms(t *testing.T) {
	for n := 3; n <= 5; n++ {
		var up, down, all []int
		for i := 1; i <= n; i++ {
			up, down, all = append(up, i), append(down, n+1-i), append(all, i)
		}
		for _, c := range []struct {
			ids  []int
			want int64
		}{{down, int64(n*(n+1)/2 + n)}, {up, int64(2*n - 1 + n)}} {
			got, _, _, err := ringCount(t.Context(), "chang-roberts", ringDraw{c.ids, all})
			if err != nil || got != c.want {
				t.Errorf("ids %v: %d messages (%v), want %d", c.ids, got, err, c.want)
			}
		}
	}
}

// The specification's ring with one initiator sends d + n ELECTION (d hops
// from the initiator to the smallest id, then a full turn) and n ELECTED.
func TestRingOneInitiator(t *testing.T) {
	ids := []int{3, 5, 1, 4, 2}
	for start := 1; start <= len(ids); start++ {
		d := (slices.Index(ids, 1) + 1 - start + len(ids)) % len(ids)
		got, _, _, err := ringCount(t.Context(), "ring", ringDraw{ids, []int{start}})
		if want := int64(d + 2*len(ids)); err != nil || got != want {
			t.Errorf("initiator %d: %d messages (%v), want %d", start, got, err, want)
		}
	}
}

// Bully elects the highest id that did not crash, whether the crashes come
// before the election or after a first leader was announced.
func TestBullyLeader(t *testing.T) {
	for _, c := range []struct {
		n       int
		crashed []int
		tick    int
		want    int
	}{{5, []int{5}, 0, 4}, {5, []int{4, 5}, 8, 3}, {4, []int{2, 4}, 0, 3}, {4, []int{3}, 8, 4}} {
		got, _, err := bullyRun(t.Context(), c.n, c.crashed, c.tick)
		if err != nil || got != c.want {
			t.Errorf("%+v: leader %d (%v), want %d", c, got, err, c.want)
		}
	}
}

// Every clock in a run's log is Lamport's, recomputed here from the sends
// and receives alone (FIFO links: the k-th receive on a link is the k-th
// send on it), so the clock a question asks is one a student can derive.
func TestLamportClocksRecomputed(t *testing.T) {
	for _, d := range []ringDraw{{[]int{4, 1, 3, 2, 5}, []int{2, 5}}, {[]int{2, 3, 1}, []int{1, 2, 3}}} {
		evs, err := runLog(t.Context(), "election chang-roberts "+d.flags()+" --seed 1")
		if err != nil {
			t.Fatal(err)
		}
		clock := map[int]int64{}
		sent := map[[2]int][]int64{}
		for _, e := range evs[1 : len(evs)-1] {
			c := clock[e.Node]
			if e.Kind == "recv" {
				link := [2]int{e.From, e.To}
				c, sent[link] = max(c, sent[link][0]), sent[link][1:]
			}
			clock[e.Node] = c + 1
			if e.Kind == "send" {
				link := [2]int{e.From, e.To}
				sent[link] = append(sent[link], c+1)
			}
			if e.LC != c+1 {
				t.Fatalf("%v: %s at node %d has lc=%d, Lamport's rule gives %d", d.ids, e.Kind, e.Node, e.LC, c+1)
			}
		}
	}
}

// Replayed, Lamport's shortest violating schedule on non-FIFO links breaks
// mutual exclusion, the same steps on FIFO links do not, and neither do
// its first steps; central's grant timeout lets a slow holder be joined.
func TestMutexPathReplayed(t *testing.T) {
	path, err := violating(t.Context(), "lamport --nodes 2 --policy random")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ config, path, want string }{
		{"lamport --nodes 2 --policy random", path, "yes"},
		{"lamport --nodes 2 --policy fifo", path, "no"},
		{"lamport --nodes 2 --policy random", "c1,c2,d2-1", "no"},
		{"central --nodes 3 --grant-timeout 2", "c2,c3,d2-1,t1:1,d1-2,d3-1,d1-3", "yes"},
		{"central --nodes 3 --grant-timeout 2", "c2,c3,d2-1,t1:1,d1-2,d3-1", "no"},
	} {
		got, _, _, _, err := replayPath(t.Context(), c.config, c.path)
		if err != nil || got != c.want {
			t.Errorf("%s --path %s: %q (%v), want %q", c.config, c.path, got, err, c.want)
		}
	}
}

// Ricart-Agrawala sends 2(N-1) messages per entry; for every algorithm the
// figure is the run's sends over its entries, counted here in its log.
func TestPerEntry(t *testing.T) {
	for _, c := range []struct {
		algo    string
		n, seed int
	}{{"ricart-agrawala", 3, 1}, {"ricart-agrawala", 5, 2}, {"maekawa", 4, 3}, {"token-ring", 5, 4}, {"lamport", 3, 5}} {
		ans, _, line, err := perEntryOf(t.Context(), c.algo, c.n, c.seed)
		if err != nil {
			t.Fatal(err)
		}
		evs, err := runLog(t.Context(), line)
		if err != nil {
			t.Fatal(err)
		}
		var sends, entries float64
		for _, e := range evs {
			sends += b2f(e.Kind == "send")
			entries += b2f(e.Kind == "enter_cs")
		}
		got, _ := strconv.ParseFloat(ans, 64)
		if want := sends / entries; math.Abs(got-want) > 0.005*want {
			t.Errorf("%s: %s per entry, the log says %d/%d", line, ans, int(sends), int(entries))
		}
		if c.algo == "ricart-agrawala" && got != float64(2*(c.n-1)) {
			t.Errorf("%s: %s per entry, want 2(N-1) = %d", line, ans, 2*(c.n-1))
		}
	}
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// The quorum question's answer is the binomial tail, summed here term by
// term with plain products; with m = n it is P^n.
func TestQuorumProbability(t *testing.T) {
	choose := func(m, k int) float64 {
		c := 1.0
		for i := 0; i < k; i++ {
			c = c * float64(m-i) / float64(i+1)
		}
		return c
	}
	for _, c := range []struct {
		n, m int
		p    float64
	}{{5, 3, 0.3}, {3, 2, 0.05}, {9, 6, 0.2}, {4, 4, 0.1}} {
		want := 0.0
		for k := 2*c.m - c.n; k <= c.m; k++ {
			want += choose(c.m, k) * math.Pow(c.p, float64(k)) * math.Pow(1-c.p, float64(c.m-k))
		}
		if c.m == c.n && math.Abs(want-math.Pow(c.p, float64(c.n))) > 1e-15 {
			t.Fatalf("m = n: %g, want P^n", want)
		}
		if got := quorumAnswer(c.n, c.m, c.p); !formFloat.same(got, strconv.FormatFloat(want, 'g', -1, 64)) {
			t.Errorf("n=%d m=%d p=%g: answer %s, the sum gives %g", c.n, c.m, c.p, got, want)
		}
	}
}

// Two goroutines deadlock only when both nest their locks in opposite
// orders; the model finds it by exploring every interleaving.
func TestTwoLocksModel(t *testing.T) {
	for _, c := range []struct {
		o1, o2   int
		n1, n2   bool
		deadlock bool
	}{{1, 2, true, true, true}, {2, 1, true, true, true}, {1, 1, true, true, false}, {2, 2, true, true, false},
		{1, 2, false, false, false}, {1, 2, true, false, false}} {
		got := deadlocks(lockProgram(c.o1, 3-c.o1, c.n1), lockProgram(c.o2, 3-c.o2, c.n2))
		if got != c.deadlock {
			t.Errorf("%+v: deadlock %v", c, got)
		}
	}
}
