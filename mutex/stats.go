package mutex

import (
	"fmt"
	"math"

	"ringlab/engine/trace"
	"ringlab/mutex/kit"
)

// stats are the chapter's figures of one run, read from its events. Times
// are the events' t: ticks in the simulator (one hop = latency 1 = one
// tick), nanoseconds on the live runtime.
//
//   - response time: from a request ("cmd request") to its entry, mean
//     over all entries;
//   - synchronization delay: from an exit to the next entry, counted only
//     when some request was outstanding at the exit, mean;
//   - throughput: entries per 100 ticks from the first request to the last exit;
//   - fairness: Jain's index (Σx)²/(n·Σx²) over the nodes' mean waits
//     (1 = every node waits as long as every other), and the longest wait.
type stats struct {
	asked      map[int][]int64
	waiting    int
	lastExit   int64
	busyAtExit bool
	syncSum    int64
	syncN      int64
	respSum    int64
	entries    int64
	maxWait    int64
	nodeWait   map[int]int64
	nodeN      map[int]int64
	first      int64
	last       int64
	order      []int
}

func newStats() *stats {
	return &stats{asked: map[int][]int64{}, nodeWait: map[int]int64{}, nodeN: map[int]int64{}, lastExit: -1, first: -1}
}

func (s *stats) observe(e *trace.Event) {
	switch e.Kind {
	case trace.KindCmd:
		if kit.IsRequest(e.Cmd) {
			s.asked[e.Node] = append(s.asked[e.Node], e.T)
			s.waiting++
			if s.first < 0 {
				s.first = e.T
			}
		}
	case trace.KindEnterCS:
		s.entries++
		s.order = append(s.order, e.Node)
		if s.lastExit >= 0 && s.busyAtExit {
			s.syncSum += e.T - s.lastExit
			s.syncN++
		}
		if q := s.asked[e.Node]; len(q) > 0 {
			d := e.T - q[0]
			s.asked[e.Node] = q[1:]
			s.waiting--
			s.respSum += d
			s.maxWait = max(s.maxWait, d)
			s.nodeWait[e.Node] += d
			s.nodeN[e.Node]++
		}
	case trace.KindExitCS:
		s.lastExit, s.busyAtExit, s.last = e.T, s.waiting > 0, e.T
	case trace.KindCrash:
		s.waiting -= len(s.asked[e.Node])
		delete(s.asked, e.Node)
	}
}

func ratio(a, b int64) float64 {
	if b == 0 {
		return math.NaN()
	}
	return float64(a) / float64(b)
}

func (s *stats) response() float64  { return ratio(s.respSum, s.entries) }
func (s *stats) syncDelay() float64 { return ratio(s.syncSum, s.syncN) }

// throughput is entries per 100 time units.
func (s *stats) throughput() float64 {
	if s.first < 0 || s.last <= s.first {
		return math.NaN()
	}
	return 100 * ratio(s.entries, s.last-s.first)
}

// jain is Jain's fairness index over the nodes' mean waits.
func (s *stats) jain() float64 {
	var sum, sq float64
	nodes := 0
	for i, n := range s.nodeN {
		x := float64(s.nodeWait[i]) / float64(n)
		sum, sq, nodes = sum+x, sq+x*x, nodes+1
	}
	if nodes == 0 {
		return math.NaN()
	}
	if sq == 0 {
		return 1
	}
	return sum * sum / (float64(nodes) * sq)
}

// perEntry is the run's messages per CS entry.
func (s *stats) perEntry(messages int64) float64 { return ratio(messages, s.entries) }

// extra is the summary's figures.
func (s *stats) extra(sum *trace.Summary, pl plan) map[string]any {
	// A time: ticks in the simulator, a readable unit in a live run.
	span := func(x float64) string { return num(x) + " ticks" }
	if sum.Runtime == "live" || sum.Runtime == "amqp" {
		span = func(x float64) string {
			if math.IsNaN(x) {
				return "-"
			}
			return trace.Duration(int64(x))
		}
	}
	return map[string]any{
		"entries":                    s.entries,
		"messages per entry":         fmt.Sprintf("%s (theory %s)", num(s.perEntry(sum.Messages)), pl.theory),
		"response time":              span(s.response()) + ", mean from request to entry",
		"synchronization delay":      span(s.syncDelay()) + ", mean from an exit to the next entry while someone waits",
		"fairness (Jain, mean wait)": fmt.Sprintf("%s; longest wait %s", num(s.jain()), span(float64(s.maxWait))),
	}
}

// num prints a figure with up to two decimals, "-" when undefined.
func num(x float64) string {
	switch {
	case math.IsNaN(x):
		return "-"
	case x == math.Trunc(x) || math.Abs(x) >= 1000:
		return fmt.Sprintf("%.0f", x)
	}
	return fmt.Sprintf("%.2f", x)
}

// entryOrder names the nodes in the order they entered, by name(i).
func (s *stats) entryOrder(name func(int) string) []string {
	names := make([]string, len(s.order))
	for k, i := range s.order {
		names[k] = name(i)
	}
	return names
}
