package election

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"

	"ringlab/engine"
	"ringlab/engine/explore"
	"ringlab/engine/statespace"
)

// crRange analyses the whole state space of Chang-Roberts with ids in ring
// order and the given initiators ("all" or a list of indices), and
// returns the fewest and most messages a whole run sends over every
// schedule, from the state after path.
func crRange(t *testing.T, ids []int, initiators, path string) (int64, int64) {
	t.Helper()
	return crMessages(t, map[string]any{"ids": joinInts(ids), "initiators": initiators}, len(ids), path)
}

// permutations calls f with every arrangement of 1..n.
func permutations(n int, f func([]int)) {
	a := make([]int, n)
	for i := range a {
		a[i] = i + 1
	}
	var rec func(k int)
	rec = func(k int) {
		if k == n {
			f(append([]int(nil), a...))
			return
		}
		for i := k; i < n; i++ {
			a[k], a[i] = a[i], a[k]
			rec(k + 1)
			a[k], a[i] = a[i], a[k]
		}
	}
	rec(0)
}

// hops is the ELECTION messages of Chang-Roberts when every node has
// started before any message arrives: each id travels from its node,
// along the ring (node i sends to node i+1), to the first node with a
// larger id, which swallows it; the largest travels all the way round.
func hops(ids []int) int64 {
	n, sum := len(ids), int64(0)
	for i, id := range ids {
		d := 1
		for ; d < n && ids[(i+d)%n] < id; d++ {
		}
		sum += int64(d)
	}
	return sum
}

// Chang-Roberts over every arrangement of ids 1..n and every schedule,
// n = 3..5, and 6 with RINGLAB_CR6=1 (two minutes).
//
// Once every node has initiated (every start taken before any delivery:
// the textbook's setting), a run sends the same number of messages on
// every schedule: hops(ids) ELECTION messages plus n ELECTED. Over the
// arrangements its most is the textbook's worst case, n(n+1)/2 + n, and
// its fewest the best case, 2n-1 + n, each attained exactly by the
// rotations of the descending and ascending arrangements. From the
// initial state, where a start may come after a larger id has passed
// (the node then never sends its own), the most is the same and the
// fewest is 2n: the largest id's n hops and the n announcements.
//
// With a subset of initiators the count depends on the schedule: for
// every arrangement and every non-empty subset (n <= 4), the exact range
// lies within [2n, hops(ids) + n]; the ranges of the 4-node descending
// ring are logged.
func TestChangRobertsExtremesOverEveryArrangement(t *testing.T) {
	top := 5
	if os.Getenv("RINGLAB_CR6") == "1" {
		top = 6 // 720 arrangements: about two minutes
	}
	for n := 3; n <= top; n++ {
		best, worst := int64(2*n-1+n), int64(n*(n+1)/2+n)
		all := make([]string, n)
		for i := range all {
			all[i] = "c" + strconv.Itoa(i+1)
		}
		started := strings.Join(all, ",")
		var most, fewest int64 = 0, 1 << 62
		var mostAt, fewestAt [][]int
		permutations(n, func(ids []int) {
			want := hops(ids) + int64(n)
			lo, hi := crRange(t, ids, "all", started)
			if lo != want || hi != want {
				t.Errorf("ids %v, every node initiated: %d..%d messages, want %d", ids, lo, hi, want)
			}
			switch {
			case hi > most:
				most, mostAt = hi, [][]int{ids}
			case hi == most:
				mostAt = append(mostAt, ids)
			}
			switch {
			case lo < fewest:
				fewest, fewestAt = lo, [][]int{ids}
			case lo == fewest:
				fewestAt = append(fewestAt, ids)
			}
			lo, hi = crRange(t, ids, "all", "")
			if lo != int64(2*n) || hi != want {
				t.Errorf("ids %v, from the start: %d..%d messages, want %d..%d", ids, lo, hi, 2*n, want)
			}
			if n > 4 {
				return
			}
			for set := 1; set < 1<<n; set++ {
				var ini []string
				for i := range n {
					if set&(1<<i) != 0 {
						ini = append(ini, strconv.Itoa(i+1))
					}
				}
				lo, hi := crRange(t, ids, strings.Join(ini, ","), "")
				if lo < int64(2*n) || hi > want || lo > hi {
					t.Errorf("ids %v, initiators %v: %d..%d messages, outside [%d, %d]", ids, ini, lo, hi, 2*n, want)
				}
				if fmt.Sprint(ids) == "[4 3 2 1]" {
					t.Logf("ids %v, initiators %v: %d..%d messages", ids, ini, lo, hi)
				}
			}
		})
		if most != worst || fewest != best || !rotations(mostAt, n, true) || !rotations(fewestAt, n, false) {
			t.Errorf("n=%d: most %d at %v, fewest %d at %v; want %d (n(n+1)/2+n) at the descending rotations, %d (2n-1+n) at the ascending",
				n, most, mostAt, fewest, fewestAt, worst, best)
		}
		t.Logf("n=%d: every node initiated, most %d messages at %v, fewest %d at %v", n, most, mostAt, fewest, fewestAt)
	}
}

// rotations reports whether as is exactly the n rotations of the
// descending (desc) or ascending arrangement of 1..n.
func rotations(as [][]int, n int, desc bool) bool {
	if len(as) != n {
		return false
	}
	for _, a := range as {
		for i := range a {
			next := a[(i+1)%n]
			if desc && next != a[i]-1 && !(a[i] == 1 && next == n) || !desc && next != a[i]+1 && !(a[i] == n && next == 1) {
				return false
			}
		}
	}
	return true
}

// The paths Fates.Extremes gives attain the fewest and most messages:
// replayed from the start, each sends exactly that many and ends the run.
// `check --extremes` reports the same figures in its JSON.
func TestExtremesPathsAttainTheirCounts(t *testing.T) {
	for _, ids := range [][]int{{4, 3, 2, 1}, {1, 2, 3, 4}, {2, 4, 1, 3}} {
		alg, _ := engine.Find(Algorithms(), "chang-roberts")
		p := alg.ForCheck().Defaults()
		if err := p.Give("ids", joinInts(ids)); err != nil {
			t.Fatal(err)
		}
		sys, cfg, err := statespace.For(alg, p, engine.Env{Runtime: "sim", MaxDelay: 1})
		if err != nil {
			t.Fatal(err)
		}
		x, err := explore.NewExplorer(cfg, sys.Names)
		if err != nil {
			t.Fatal(err)
		}
		f, err := x.Analyze(context.Background(), 1_000_000)
		if err != nil {
			t.Fatal(err)
		}
		e, ok := f.Extremes()
		if !ok || e.Fewest != 8 || e.Most != hops(ids)+4 {
			t.Errorf("ids %v: %+v (ok %v), want fewest 8 (2n), most %d", ids, e, ok, hops(ids)+4)
		}
		for _, c := range []struct {
			path []statespace.Trans
			want int64
		}{{e.FewestPath, e.Fewest}, {e.MostPath, e.Most}} {
			rr, err := statespace.Replay(cfg, c.path, nil)
			if err != nil || rr.Messages != c.want || !rr.Terminated {
				t.Errorf("ids %v: %s sends %d messages (ends %v, %v), want %d", ids, statespace.FormatPath(c.path), rr.Messages, rr.Terminated, err, c.want)
			}
		}
		r := runCLI(t, "check", "chang-roberts", "--ids", joinInts(ids), "--extremes", "--format", "json")
		var rep struct {
			Messages struct{ Fewest, Most int64 }
		}
		if err := json.Unmarshal([]byte(r.out), &rep); err != nil || r.code != 0 || rep.Messages.Fewest != e.Fewest || rep.Messages.Most != e.Most {
			t.Errorf("check --extremes, ids %v: exit %d %v %+v\n%s\n%s", ids, r.code, err, rep, r.out, r.errb)
		}
	}
}
