package election

import (
	"fmt"
	"maps"
	"slices"

	"ringlab/engine/check"
	"ringlab/engine/trace"
)

// The IDs of the election's properties.
const (
	IDUniqueness  check.ID = "uniqueness"
	IDAgreement   check.ID = "agreement"
	IDCorrectness check.ID = "correctness"
)

// leaders tracks, per node, the leader it takes and whether it is alive,
// in slices indexed by node (a million-node run sends a million leader
// events), and keeps the set of live self-declared leaders as it goes.
type leaders struct {
	ids     []int // ids[i-1] is node i's algorithm id; nil means ids are indices
	current []int
	has     []bool
	crashed []bool
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
	case trace.KindCrash:
		l.grow(e.Node)
		l.crashed[e.Node] = true
	case trace.KindRecover:
		l.grow(e.Node)
		l.crashed[e.Node], l.has[e.Node] = false, false // amnesia: it knows no leader any more
	}
}

// leaderKinds are the events that change who takes whom as leader.
var leaderKinds = trace.KindsOf(trace.KindLeader, trace.KindCrash, trace.KindRecover)

func (l *leaders) id(node int) int { return idOf(l.ids, node) }

// idOf is node's algorithm id: ids[node-1], or node itself when ids is nil.
func idOf(ids []int, node int) int {
	if node >= 1 && node <= len(ids) {
		return ids[node-1]
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
// chapter on leader election: "only one does"). Ids[i-1] is node i's id; nil
// means ids are indices.
//
// Its state is the set of live nodes that take themselves as leader (a
// sorted small slice: O(1) per event of a million-node announcement round,
// where every node takes another as leader) and the largest such set seen:
// a check.Snapshot the exhaustive checker carries in every state.
type Uniqueness struct {
	check.Names
	selfLeaders
	worst int
	first string // the first violation, for the verdict
}

// selfLeaders is the set of live nodes that take themselves as leader,
// which uniqueness bounds and termination asks to be non-empty.
type selfLeaders struct {
	ids  []int // shared, never changed
	self check.NodeSet
}

// observe follows e and reports whether it made its node a self-declared
// leader.
func (s *selfLeaders) observe(e *trace.Event) bool {
	switch e.Kind {
	case trace.KindLeader:
		if e.LeaderID() == idOf(s.ids, e.Node) {
			s.self.Add(e.Node)
			return true
		}
		s.self.Remove(e.Node)
	case trace.KindCrash, trace.KindRecover:
		s.self.Remove(e.Node) // a dead leader leads nothing; a recovered one has forgotten
	}
	return false
}

// NewUniqueness returns the uniqueness property for nodes with these ids.
func NewUniqueness(ids []int) *Uniqueness { return &Uniqueness{selfLeaders: selfLeaders{ids: ids}} }

func (*Uniqueness) Wants() trace.Kinds { return leaderKinds }

func (*Uniqueness) ID() check.ID { return IDUniqueness }

// Observe reports the event that makes more live nodes take themselves as
// leader than ever before, when they are two or more.
func (u *Uniqueness) Observe(e *trace.Event) string {
	if u.observe(e) && len(u.self) > 1 && len(u.self) > u.worst {
		u.worst = len(u.self)
		d := fmt.Sprintf("%s each consider themselves leader (split-brain)", u.List(u.self))
		if u.first == "" {
			u.first = d
		}
		return d
	}
	return ""
}

func (u *Uniqueness) Finish(check.End) trace.Verdict {
	v := trace.Verdict{Property: string(u.ID()), OK: u.worst < 2 && len(u.self) <= 1}
	switch {
	case len(u.self) > 1:
		v.Detail = fmt.Sprintf("%s end as leaders", u.List(u.self))
	case !v.OK:
		v.Detail = u.first
	}
	return v
}

// Clone returns an independent copy (the exhaustive checker's snapshot).
func (u *Uniqueness) Clone() check.Snapshot {
	c := *u
	c.self = slices.Clone(u.self)
	return &c
}

// RenameNodes implements check.NodeRenamer for the exhaustive checker's
// symmetry reduction: the self-declared leaders and the ids by node are
// renamed.
func (u *Uniqueness) RenameNodes(perm []int) {
	u.self = slices.Clone(u.self)
	u.self.RenameNodes(perm)
	if u.ids != nil {
		ids := make([]int, len(u.ids))
		for i, id := range u.ids {
			ids[perm[i+1]-1] = id
		}
		u.ids = ids
	}
}

// AppendKey encodes the self-declared leaders. The largest number of them
// seen is left out: it changes only on a step that reports a violation,
// which the exhaustive checker either stops at or (checking another
// property) treats as visible, and two states that differ in it alone are
// the same state of the system.
func (u *Uniqueness) AppendKey(b []byte) []byte { return u.self.AppendKey(b) }

// Agreement: at the end every live node takes the same leader.
type Agreement struct {
	check.Names
	l leaders
	n int
}

// NewAgreement returns the agreement checker for n nodes.
func NewAgreement(n int, ids []int) *Agreement { return &Agreement{l: leaders{ids: ids}, n: n} }

func (*Agreement) Wants() trace.Kinds { return leaderKinds }

func (*Agreement) ID() check.ID { return IDAgreement }

func (a *Agreement) Observe(e *trace.Event) string { a.l.observe(e); return "" }

// Promise is the property's liveness, as the exhaustive checker judges it
// on runs without end: every live node eventually takes a leader, at the
// start and again after a restart with amnesia (a crash cancels the
// promise to the node). That the leader it takes is alive and the same as
// the others' is judged where runs end (Finish).
func (a *Agreement) Promise() check.Promise {
	var all uint64
	if a.n < 64 {
		all = 1<<a.n - 1
	} else {
		all = ^uint64(0)
	}
	return &check.Owed{
		Ask:    func(e *trace.Event) bool { return e.Kind == trace.KindRecover },
		Answer: func(e *trace.Event) bool { return e.Kind == trace.KindLeader },
		Kinds:  leaderKinds, Start: all,
	}
}

func (a *Agreement) Finish(check.End) trace.Verdict {
	v := trace.Verdict{Property: string(a.ID()), OK: true}
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
		for _, lead := range slices.Sorted(maps.Keys(seen)) {
			v.Detail += fmt.Sprintf(" %d take id %d;", seen[lead], lead)
		}
	}
	return v
}

// Correctness: the leader is the id the algorithm promises. Want is
// computed by the caller (min id, max id, max live id, ...); Rule says which.
type Correctness struct {
	check.Names
	l           leaders
	Want        int
	Rule        string
	highestLive bool // Want is the highest id of a node alive at the end
	anyLeader   bool // every node may be the leader (Want is 0)
}

// NewAnyCorrectness returns the correctness checker of an election where
// any node is a right leader (the anonymous ring with every process a
// candidate): it asks only that some live node took one. Unlike a Want
// of one node, it is the same for every renaming of the nodes, as a
// declared engine.Symmetry needs.
func NewAnyCorrectness(rule string) *Correctness {
	return &Correctness{Rule: rule, anyLeader: true}
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

func (*Correctness) ID() check.ID { return IDCorrectness }

func (c *Correctness) Observe(e *trace.Event) string { c.l.observe(e); return "" }

func (c *Correctness) Finish(check.End) trace.Verdict {
	if c.highestLive {
		c.Want = 0
		for nd := 1; nd <= len(c.l.ids); nd++ {
			if !c.l.dead(nd) {
				c.Want = max(c.Want, c.l.id(nd))
			}
		}
	}
	v := trace.Verdict{Property: string(c.ID()), OK: true, Detail: fmt.Sprintf("leader should be id %d (%s)", c.Want, c.Rule)}
	if c.anyLeader {
		v.Detail = "any leader (" + c.Rule + ")"
	}
	found := false
	for nd := range c.l.current {
		lead, ok := c.l.known(nd)
		if !ok {
			continue
		}
		found = true
		if lead != c.Want && !c.anyLeader {
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

// Termination: the run ends by itself and, where it ends, some live
// process considers itself leader (the course chapter: "some process
// eventually considers itself leader"). A run that ends quietly with
// nobody in charge, because the message that would have made a leader
// was lost or the would-be leader crashed, has not terminated the
// election: it has stopped without one. When every process has crashed
// the promise is owed to nobody, and termination holds (agreement and
// correctness, judged over the live processes, say the rest).
//
// It is judged where a run ends (it is no check.Snapshot): the
// exhaustive checker judges it at every terminal state.
type Termination struct {
	selfLeaders
	n       int
	crashed check.NodeSet
	// deciders, when not nil, are the live nodes that took any leader:
	// where the leader need not learn that it won (the id-list ring,
	// whose initiators decide), one of them is enough.
	deciders *check.NodeSet
}

// NewTermination returns the termination property for n nodes with
// these ids (nil: ids are indices).
func NewTermination(n int, ids []int) *Termination {
	return &Termination{selfLeaders: selfLeaders{ids: ids}, n: n}
}

// NewDecidedTermination is termination for an election whose leader may
// never hear that it won (the id-list ring: only initiators decide, and
// the smallest id learns it only if it started): some live node taking a
// leader is enough.
func NewDecidedTermination(n int, ids []int) *Termination {
	t := NewTermination(n, ids)
	t.deciders = &check.NodeSet{}
	return t
}

func (*Termination) Wants() trace.Kinds { return leaderKinds }

func (*Termination) ID() check.ID { return check.IDTermination }

// Observe reports nothing: termination is judged at the end.
func (t *Termination) Observe(e *trace.Event) string {
	t.observe(e)
	switch e.Kind {
	case trace.KindLeader:
		if t.deciders != nil {
			t.deciders.Add(e.Node)
		}
	case trace.KindCrash:
		t.crashed.Add(e.Node)
	case trace.KindRecover:
		t.crashed.Remove(e.Node)
	}
	if t.deciders != nil && e.Kind != trace.KindLeader {
		t.deciders.Remove(e.Node) // dead, or back with amnesia
	}
	return ""
}

// Finish fails a run that did not end by itself (end.Why says why), and
// one that ended with live processes and none of them its own leader.
func (t *Termination) Finish(end check.End) trace.Verdict {
	v := trace.Verdict{Property: string(check.IDTermination), OK: end.Terminated, Detail: end.Why}
	switch {
	case !end.Terminated, len(t.self) > 0, t.deciders != nil && len(*t.deciders) > 0:
	case len(t.crashed) >= t.n:
		v.Detail = "every process crashed: no live process is owed a leader"
	default:
		v.OK, v.Detail = false, "the run ended and no live process considers itself leader"
		if t.deciders != nil {
			v.Detail = "the run ended and no live process took a leader"
		}
	}
	return v
}
