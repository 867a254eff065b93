package election

import (
	"fmt"
	"slices"

	"ringlab/election/anonymous"
	"ringlab/engine/check"
	"ringlab/engine/trace"
)

// agreementAmong is agreement restricted to the nodes that can learn the
// leader: in the id-list ring only initiators decide.
// At the end every live node in nodes takes a leader, and the same one.
type agreementAmong struct {
	check.Names
	nodes   []int
	ids     []int
	leader  map[int]int
	crashed map[int]bool
}

func (*agreementAmong) ID() check.ID { return IDAgreement }

func (*agreementAmong) Wants() trace.Kinds {
	return trace.KindsOf(trace.KindLeader, trace.KindCrash, trace.KindRecover)
}

func (a *agreementAmong) Observe(e *trace.Event) string {
	if a.leader == nil {
		a.leader, a.crashed = map[int]int{}, map[int]bool{}
	}
	switch e.Kind {
	case trace.KindLeader:
		a.leader[e.Node] = e.LeaderID()
	case trace.KindCrash:
		a.crashed[e.Node] = true
	case trace.KindRecover:
		delete(a.crashed, e.Node)
		delete(a.leader, e.Node)
	}
	return ""
}

func (a *agreementAmong) Finish(check.End) trace.Verdict {
	v := trace.Verdict{Property: string(a.ID()), OK: true}
	seen := map[int][]int{} // leader -> nodes
	for _, i := range a.nodes {
		if a.crashed[i] {
			continue
		}
		l, ok := a.leader[i]
		if !ok {
			v.OK, v.Detail = false, fmt.Sprintf("%s (id %d) started but knows no leader", a.Name(i), a.ids[i-1])
			return v
		}
		seen[l] = append(seen[l], i)
	}
	if len(seen) > 1 {
		v.OK, v.Detail = false, fmt.Sprintf("the deciders disagree: %s", disagreement(seen))
	}
	return v
}

func disagreement(seen map[int][]int) string {
	keys := make([]int, 0, len(seen))
	for k := range seen {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	s := ""
	for _, k := range keys {
		s += fmt.Sprintf(" %d take id %d;", len(seen[k]), k)
	}
	return s[1:]
}

// anonAgreement is agreement for the anonymous ring: a
// Follower cannot name the leader (nobody has an id), so it "knows who it
// is" when it has relayed WeHaveALeader; the Installed processes must be
// one. At the end every live process is Installed or has relayed, and at
// most one is Installed.
type anonAgreement struct {
	check.Names
	n         int
	installed map[int]bool
	relayed   map[int]bool
	crashed   map[int]bool
}

func (*anonAgreement) ID() check.ID { return IDAgreement }

func (*anonAgreement) Wants() trace.Kinds {
	return trace.KindsOf(trace.KindLeader, trace.KindSend, trace.KindCrash)
}

func (a *anonAgreement) Observe(e *trace.Event) string {
	if a.installed == nil {
		a.installed, a.relayed, a.crashed = map[int]bool{}, map[int]bool{}, map[int]bool{}
	}
	switch e.Kind {
	case trace.KindLeader:
		a.installed[e.Node] = true
	case trace.KindSend:
		if e.Msg != nil && e.Msg.Type() == anonymous.TypeWeHaveALeader {
			a.relayed[e.Node] = true
		}
	case trace.KindCrash:
		a.crashed[e.Node] = true
	}
	return ""
}

func (a *anonAgreement) Finish(check.End) trace.Verdict {
	v := trace.Verdict{Property: string(a.ID()), OK: true}
	var unaware, leaders []int
	for i := 1; i <= a.n; i++ {
		switch {
		case a.crashed[i]:
		case a.installed[i]:
			leaders = append(leaders, i)
		case !a.relayed[i]:
			unaware = append(unaware, i)
		}
	}
	switch {
	case len(leaders) > 1:
		v.OK, v.Detail = false, fmt.Sprintf("%s each take themselves as leader", a.List(leaders))
	case len(unaware) > 0:
		v.OK, v.Detail = false, fmt.Sprintf("%d live process(es) never heard WeHaveALeader (first: %s)", len(unaware), a.Name(unaware[0]))
	case len(leaders) == 0:
		v.OK, v.Detail = false, "no process is Installed"
	}
	return v
}
