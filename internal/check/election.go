package check

import (
	"fmt"

	"ringlab/internal/trace"
)

// leaders tracks, per node, the leader it takes and whether it is alive,
// in slices indexed by node (a million-node run sends a million leader
// events), and keeps the set of live self-declared leaders as it goes.
type leaders struct {
	ids     []int // ids[i-1] is node i's algorithm id; nil means ids are indices
	current []int
	has     []bool
	crashed []bool
	// self is the set of live nodes that take themselves as leader, kept
	// only when trackSelf (Uniqueness; agreement and correctness need it not).
	self      map[int]bool
	trackSelf bool
}

func (l *leaders) grow(node int) {
	if node < len(l.current) {
		return
	}
	n := max(node+1, len(l.ids)+1, 2*len(l.current))
	l.current = append(l.current, make([]int, n-len(l.current))...)
	l.has = append(l.has, make([]bool, n-len(l.has))...)
	l.crashed = append(l.crashed, make([]bool, n-len(l.crashed))...)
}

func (l *leaders) observe(e *trace.Event) {
	switch e.Kind {
	case trace.KindLeader:
		l.grow(e.Node)
		l.current[e.Node], l.has[e.Node] = e.LeaderID(), true
		if l.trackSelf {
			if !l.crashed[e.Node] && e.LeaderID() == l.id(e.Node) {
				if l.self == nil {
					l.self = map[int]bool{}
				}
				l.self[e.Node] = true
			} else {
				l.unself(e.Node)
			}
		}
	case trace.KindCrash:
		l.grow(e.Node)
		l.crashed[e.Node] = true
		l.unself(e.Node)
	case trace.KindRecover:
		l.grow(e.Node)
		l.crashed[e.Node], l.has[e.Node] = false, false // amnesia: it knows no leader any more
		l.unself(e.Node)
	}
}

// leaderKinds are the events that change who takes whom as leader.
var leaderKinds = trace.KindsOf(trace.KindLeader, trace.KindCrash, trace.KindRecover)

func (l *leaders) unself(node int) {
	if len(l.self) > 0 {
		delete(l.self, node)
	}
}

func (l *leaders) id(node int) int {
	if node >= 1 && node <= len(l.ids) {
		return l.ids[node-1]
	}
	return node
}

// known returns node's leader, if it is alive and takes one.
func (l *leaders) known(node int) (int, bool) {
	if node >= len(l.current) || l.crashed[node] || !l.has[node] {
		return 0, false
	}
	return l.current[node], true
}

func (l *leaders) dead(node int) bool { return node < len(l.crashed) && l.crashed[node] }

// Uniqueness: at most one live node considers itself the leader (the course
// chapter on leader election: "only one does"). Ids[i-1] is node i's id; nil means ids are indices.
type Uniqueness struct {
	Names
	l     leaders
	worst int
}

// NewUniqueness returns the uniqueness checker for nodes with these ids.
func NewUniqueness(ids []int) *Uniqueness { return &Uniqueness{l: leaders{ids: ids, trackSelf: true}} }

func (*Uniqueness) Wants() trace.Kinds { return leaderKinds }

func (*Uniqueness) Property() string { return "uniqueness" }

func (u *Uniqueness) Observe(e *trace.Event) string {
	u.l.observe(e)
	if e.Kind != trace.KindLeader {
		return ""
	}
	if len(u.l.self) > 1 && len(u.l.self) > u.worst {
		u.worst = len(u.l.self)
		return fmt.Sprintf("%s each consider themselves leader (split-brain)", u.ListSet(u.l.self))
	}
	return ""
}

func (u *Uniqueness) Finish(End) trace.Verdict {
	v := trace.Verdict{Property: u.Property(), OK: u.worst < 2 && len(u.l.self) <= 1}
	if len(u.l.self) > 1 {
		v.Detail = fmt.Sprintf("%s end as leaders", u.ListSet(u.l.self))
	}
	return v
}

// Agreement: at the end every live node takes the same leader.
type Agreement struct {
	Names
	l leaders
	n int
}

// NewAgreement returns the agreement checker for n nodes.
func NewAgreement(n int, ids []int) *Agreement { return &Agreement{l: leaders{ids: ids}, n: n} }

func (*Agreement) Wants() trace.Kinds { return leaderKinds }

func (*Agreement) Property() string { return "agreement" }

func (a *Agreement) Observe(e *trace.Event) string { a.l.observe(e); return "" }

func (a *Agreement) Finish(End) trace.Verdict {
	v := trace.Verdict{Property: a.Property(), OK: true}
	seen := map[int]int{} // leader -> how many nodes take it
	none, firstNone := 0, 0
	last, lastCount := 0, 0 // a run of nodes taking the same leader, not yet in seen
	for nd := 1; nd <= a.n; nd++ {
		if a.l.dead(nd) {
			continue
		}
		lead, ok := a.l.known(nd)
		if !ok {
			if none == 0 {
				firstNone = nd
			}
			none++
			continue
		}
		if lastCount > 0 && lead != last {
			seen[last] += lastCount
			lastCount = 0
		}
		last = lead
		lastCount++
	}
	if lastCount > 0 {
		seen[last] += lastCount
	}
	switch {
	case none > 0:
		v.OK, v.Detail = false, fmt.Sprintf("%d live node(s) know no leader (first: %s)", none, a.Name(firstNone))
	case len(seen) > 1:
		v.OK = false
		v.Detail = "live nodes disagree:"
		for _, lead := range sortedKeys(seen) {
			v.Detail += fmt.Sprintf(" %d take id %d;", seen[lead], lead)
		}
	}
	return v
}

// Correctness: the leader is the id the algorithm promises. Want is
// computed by the caller (min id, max id, max live id, ...); Rule says which.
type Correctness struct {
	Names
	l           leaders
	Want        int
	Rule        string
	highestLive bool // Want is the highest id of a node alive at the end
}

// NewCorrectness returns the correctness checker.
func NewCorrectness(ids []int, want int, rule string) *Correctness {
	return &Correctness{l: leaders{ids: ids}, Want: want, Rule: rule}
}

// NewHighestLive returns the correctness checker of an election whose
// leader must be the highest id among the nodes alive at the end (Bully):
// the want is worked out from the crashes and recoveries that really
// happened in the run, not from the ones that were scripted.
func NewHighestLive(ids []int) *Correctness {
	return &Correctness{l: leaders{ids: ids}, Rule: "the highest live id", highestLive: true}
}

func (*Correctness) Wants() trace.Kinds { return leaderKinds }

func (*Correctness) Property() string { return "correctness" }

func (c *Correctness) Observe(e *trace.Event) string { c.l.observe(e); return "" }

func (c *Correctness) Finish(End) trace.Verdict {
	if c.highestLive {
		c.Want = 0
		for nd := 1; nd <= len(c.l.ids); nd++ {
			if !c.l.dead(nd) {
				c.Want = max(c.Want, c.l.id(nd))
			}
		}
	}
	v := trace.Verdict{Property: c.Property(), OK: true, Detail: fmt.Sprintf("leader should be id %d (%s)", c.Want, c.Rule)}
	found := false
	for nd := range c.l.current {
		lead, ok := c.l.known(nd)
		if !ok {
			continue
		}
		found = true
		if lead != c.Want {
			v.OK = false
			v.Detail = fmt.Sprintf("%s takes id %d, %s is %d", c.Name(nd), lead, c.Rule, c.Want)
			break
		}
	}
	if !found {
		v.OK, v.Detail = false, "no live node took a leader"
	}
	return v
}
