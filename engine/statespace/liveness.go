package statespace

import (
	"fmt"
	"slices"
	"time"

	"ringlab/engine/check"
	"ringlab/engine/statespace/internal/fair"
	"ringlab/engine/trace"
)

// Fairness says, in words, what a liveness verdict of the checker
// assumes and what its ✓ means: the check.Eventually properties are
// judged over infinite schedules under weak fairness.
const Fairness = "weak fairness: a message that stays deliverable is eventually delivered (or lost, while the drop budget lasts), " +
	"and a node's command or timer that stays enabled is eventually taken; crashes, restarts and drops are never forced. " +
	"✓ means: on every fair infinite schedule within the fault budgets, every promise made is eventually kept"

// Lasso is a counterexample to a liveness property: Prefix leads from the
// initial state to a state of a fair cycle, and Cycle, taken from there,
// comes back to that state. On the cycle the promise to Node stays owed
// in every state and no step keeps it; every delivery, command and timer
// that stays enabled all the way round is taken on it (weak fairness), so
// the schedule prefix, cycle, cycle, ... is fair and the promise is never
// kept.
type Lasso struct {
	Property check.ID // the check.Eventually property whose promise is never kept
	Node     int      // the node it is owed to; 0 for a promise to the run as a whole (check.Whole)
	Detail   string   // in words
	Prefix   []Trans  // from the initial state to the cycle's first state
	Cycle    []Trans  // from that state back to it
}

// String is the lasso as a --path: the prefix, a "|", then the cycle.
func (l *Lasso) String() string { return FormatLasso(l.Prefix, l.Cycle) }

// LiveStats are the figures of a liveness pass.
type LiveStats struct {
	Edges      int64         // edges kept
	SCCs       int64         // strongly connected components of the whole graph
	Cyclic     int64         // of them, those with a cycle
	Fair       int64         // of those, the fair ones: a run that keeps to one never ends
	Promises   int           // promises (property, node) judged
	Candidates int64         // components where one promise stays owed, checked for fairness
	Elapsed    time.Duration // the pass after the search
	GraphBytes int64         // what the kept graph takes
	// Bypass is, for each promise made somewhere, the most promises of
	// the same property to other nodes kept while it stays owed, over
	// every schedule: how often a waiting node is overtaken.
	Bypass []Bypass
}

// Bypass is how often a node waiting for a promise of Property is
// overtaken, at most, over every schedule: Most promises to other nodes
// kept while its own stays owed (Unbounded: as often as you like, on a
// cycle, fair or not).
type Bypass struct {
	Property check.ID // the check.Eventually property
	Node     int      // the waiting node
	Most     int64    // the most times it is overtaken, or Unbounded
}

// livegraph is what the search keeps of the state graph for liveness
// (package fair): the owed promises of each state and the steps between
// them, labelled with their transitions.
type livegraph = fair.Graph[Trans]

func newLivegraph(n int) *livegraph { return fair.New(n, fairGroup) }

// cycleGraph is what a search with Config.Cycles keeps of its graph, to
// count the components that hold a cycle once it is exhausted (package
// fair).
type cycleGraph = fair.Cycles

// judgeLive judges the liveness graph the search recorded, promise by
// promise in promiseOrder: it looks for a fair cycle on which the promise
// stays owed (fair.Pass.Promise) and returns the first found as a lasso
// with its prefix, and the figures of the pass with each promise's bypass.
func (s *searcher) judgeLive() (*Lasso, LiveStats) {
	start := time.Now()
	p := s.lv.Judge(s.recs.DepthOf)
	n := s.cfg.Nodes
	var lasso *Lasso
	var bypass []Bypass
	ws := wholes(s.cfg)
	for _, b := range s.promiseOrder(p.Owed, n) {
		k, whole := b/n, isWhole(ws, b/n)
		look := lasso == nil && (s.cfg.Only == "" || s.liveName(k) == s.cfg.Only) // --property
		found, worst := p.Promise(b, look)
		if found != nil {
			lasso = &Lasso{Property: s.liveName(k), Node: b%n + 1, Prefix: s.path(found.At), Cycle: found.Cycle}
			if whole {
				lasso.Node, lasso.Detail = 0, ws[k]
			}
		}
		if !whole { // a promise to the run: nobody is overtaken
			bypass = append(bypass, Bypass{Property: s.liveName(k), Node: b%n + 1, Most: worst})
		}
	}
	f := p.Stats
	st := LiveStats{Edges: f.Edges, SCCs: f.SCCs, Cyclic: f.Cyclic, Fair: f.Fair, Promises: f.Promises,
		Candidates: f.Candidates, Elapsed: time.Since(start), GraphBytes: f.Bytes, Bypass: bypass}
	switch {
	case lasso != nil && lasso.Node == 0:
		lasso.Detail = fmt.Sprintf("a fair cycle of %d steps, reached after %d, on which %s, for ever",
			len(lasso.Cycle), len(lasso.Prefix), lasso.Detail)
	case lasso != nil:
		lasso.Detail = fmt.Sprintf("a fair cycle of %d steps, reached after %d, on which node %d's promise stays owed for ever",
			len(lasso.Cycle), len(lasso.Prefix), lasso.Node)
	}
	return lasso, st
}

// fairGroup is the key of t's fairness group: one per message on a link
// (delivering or losing it takes it, wherever it stands on the link), one
// per node's commands, one per node's timer; false for a fault, which
// fairness never forces.
func fairGroup(t Trans) (Trans, bool) {
	switch t.Kind {
	case Deliver, Drop:
		return Trans{Kind: Deliver, Node: t.Node, From: t.From, Msg: t.Msg}, true
	case Command:
		return Trans{Kind: Command, Node: t.Node}, true
	case Fire:
		return Trans{Kind: Fire, Node: t.Node, Timer: t.Timer}, true
	}
	return Trans{}, false
}

// promiseOrder lists the bits of the promises owed somewhere (any), in
// the order the liveness pass tries them (n promises a property): the
// property's order, but termination's last, since every fair cycle is a
// run that does not end, and a property more particular that the same
// cycle refutes says more of it.
func (s *searcher) promiseOrder(any uint64, n int) []int {
	var first, last []int
	for b := range 64 {
		switch {
		case any&(1<<b) == 0:
		case s.liveName(b/n) == check.IDTermination:
			last = append(last, b)
		default:
			first = append(first, b)
		}
	}
	return append(first, last...)
}

// liveName is the ID of the k-th check.Eventually property of the run.
func (s *searcher) liveName(k int) check.ID {
	if s.cfg.Checks == nil {
		return ""
	}
	for _, p := range s.cfg.Checks() {
		if _, ok := p.(check.Eventually); ok {
			if k == 0 {
				return p.ID()
			}
			k--
		}
	}
	return ""
}

// CycleNote is the note a replayed lasso shows where its cycle begins
// (trace.CycleNote): every renderer draws it, the SVG and the page mark
// the cycle from there on.
const CycleNote = trace.CycleNote

// StutterNote is the note a replayed lasso with an empty cycle shows
// where its prefix ends: a state where no step is enabled, in which an
// infinite behaviour stays for ever (TLC's "stuttering"), so that a
// promise owed there is never kept.
const StutterNote = "⟳ stutters: nothing can happen here, so the run stays in this state for ever"

// ReplayLasso replays prefix, then one turn of cycle, reporting every
// event to sink (nil: none) and, between the two, a note (CycleNote) at
// the node of the cycle's first step. An empty cycle is a stutter: the
// prefix must end in a terminal state, where the note is StutterNote (at
// the node of the prefix's last step). It fails when a label is not
// enabled where it comes or when the cycle does not come back to the
// state it began in: the same state, or, where the search shifts clocks
// and renames identifiers (internal/reduction: shift.go, rename.go), one with the same shift,
// which takes the same steps again (the next turn with every clock higher,
// or new request numbers). The states are compared without their
// check.OrderDependent properties, which a search for one other property
// leaves out (history.go).
func ReplayLasso(cfg Config, prefix, cycle []Trans, sink func(*trace.Event)) (ReplayResult, error) {
	var at *state
	canon := func(s *state) *state { return s }
	rr, err := replayMarked(cfg, append(slices.Clone(prefix), cycle...), len(prefix), sink, func(m *machine, s *state) {
		at = s
		if shiftable(cfg) {
			canon = m.shift
		}
		if sink != nil {
			who, note := 1, StutterNote
			switch {
			case len(cycle) > 0:
				who, note = int(cycle[0].Node), CycleNote
			case len(prefix) > 0:
				who = int(prefix[len(prefix)-1].Node)
			}
			m.fill(trace.KindNote, who)
			m.ev.Note = note
			sink(&m.ev)
		}
	})
	if err != nil {
		return rr, err
	}
	if len(cycle) == 0 && !rr.Terminated {
		return rr, fmt.Errorf("nothing after \"|\" (a stutter), but the prefix %q does not end where nothing can happen: give the cycle's labels", FormatPath(prefix))
	}
	if at == nil || string(loopKey(canon(at), rr.in)) != string(loopKey(canon(rr.end), rr.in)) {
		return rr, fmt.Errorf("the cycle %s does not come back to the state it starts in", FormatPath(cycle))
	}
	return rr, nil
}
