package check

import (
	"fmt"

	"ringlab/internal/trace"
)

// leaders tracks, per node, the leader it takes and whether it is alive.
type leaders struct {
	ids     []int // ids[i-1] is node i's algorithm id
	current map[int]int
	crashed map[int]bool
}

func (l *leaders) observe(e *trace.Event) {
	if l.current == nil {
		l.current, l.crashed = map[int]int{}, map[int]bool{}
	}
	switch e.Kind {
	case trace.KindLeader:
		l.current[e.Node] = e.LeaderID()
	case trace.KindCrash:
		l.crashed[e.Node] = true
	case trace.KindRecover:
		delete(l.crashed, e.Node)
		delete(l.current, e.Node) // amnesia: it knows no leader any more
	}
}

func (l *leaders) id(node int) int {
	if node >= 1 && node <= len(l.ids) {
		return l.ids[node-1]
	}
	return node
}

// selfLeaders returns the live nodes that take themselves as leader.
func (l *leaders) selfLeaders() map[int]bool {
	out := map[int]bool{}
	for nd, lead := range l.current {
		if !l.crashed[nd] && lead == l.id(nd) {
			out[nd] = true
		}
	}
	return out
}

// Uniqueness: at most one live node considers itself the leader (SPEC §3:
// "only one does"). Ids[i-1] is node i's id; nil means ids are indices.
type Uniqueness struct {
	l     leaders
	worst int
}

// NewUniqueness returns the uniqueness checker for nodes with these ids.
func NewUniqueness(ids []int) *Uniqueness { return &Uniqueness{l: leaders{ids: ids}} }

func (*Uniqueness) Property() string { return "uniqueness" }

func (u *Uniqueness) Observe(e *trace.Event) string {
	u.l.observe(e)
	if e.Kind != trace.KindLeader {
		return ""
	}
	self := u.l.selfLeaders()
	if len(self) > 1 && len(self) > u.worst {
		u.worst = len(self)
		return fmt.Sprintf("nodes %s each consider themselves leader (split-brain)", nodeList(self))
	}
	return ""
}

func (u *Uniqueness) Finish(End) trace.Verdict {
	self := u.l.selfLeaders()
	v := trace.Verdict{Property: u.Property(), OK: u.worst < 2 && len(self) <= 1}
	if len(self) > 1 {
		v.Detail = fmt.Sprintf("nodes %s end as leaders", nodeList(self))
	}
	return v
}

// Agreement: at the end every live node takes the same leader.
type Agreement struct {
	l leaders
	n int
}

// NewAgreement returns the agreement checker for n nodes.
func NewAgreement(n int, ids []int) *Agreement { return &Agreement{l: leaders{ids: ids}, n: n} }

func (*Agreement) Property() string { return "agreement" }

func (a *Agreement) Observe(e *trace.Event) string { a.l.observe(e); return "" }

func (a *Agreement) Finish(End) trace.Verdict {
	v := trace.Verdict{Property: a.Property(), OK: true}
	seen := map[int][]int{} // leader -> nodes
	var none []int
	for nd := 1; nd <= a.n; nd++ {
		if a.l.crashed[nd] {
			continue
		}
		lead, ok := a.l.current[nd]
		if !ok {
			none = append(none, nd)
			continue
		}
		seen[lead] = append(seen[lead], nd)
	}
	switch {
	case len(none) > 0:
		v.OK, v.Detail = false, fmt.Sprintf("%d live node(s) know no leader (first: node %d)", len(none), none[0])
	case len(seen) > 1:
		v.OK = false
		v.Detail = "live nodes disagree:"
		for _, lead := range sortedKeys(seen) {
			v.Detail += fmt.Sprintf(" %d take id %d;", len(seen[lead]), lead)
		}
	}
	return v
}

// Correctness: the leader is the id the algorithm promises. Want is
// computed by the caller (min id, max id, max live id, ...); Rule says which.
type Correctness struct {
	l    leaders
	Want int
	Rule string
}

// NewCorrectness returns the correctness checker.
func NewCorrectness(ids []int, want int, rule string) *Correctness {
	return &Correctness{l: leaders{ids: ids}, Want: want, Rule: rule}
}

func (*Correctness) Property() string { return "correctness" }

func (c *Correctness) Observe(e *trace.Event) string { c.l.observe(e); return "" }

func (c *Correctness) Finish(End) trace.Verdict {
	v := trace.Verdict{Property: c.Property(), OK: true, Detail: fmt.Sprintf("leader should be id %d (%s)", c.Want, c.Rule)}
	for _, nd := range sortedKeys(c.l.current) {
		if !c.l.crashed[nd] && c.l.current[nd] != c.Want {
			v.OK = false
			v.Detail = fmt.Sprintf("node %d takes id %d, %s is %d", nd, c.l.current[nd], c.Rule, c.Want)
			break
		}
	}
	if len(c.l.current) == 0 {
		v.OK, v.Detail = false, "no node took a leader"
	}
	return v
}
