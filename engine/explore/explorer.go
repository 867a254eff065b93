package explore

import (
	"fmt"
	"reflect"
	"slices"
	"strings"

	"ringlab/engine/check"
	"ringlab/engine/lang"
	"ringlab/engine/node"
	"ringlab/engine/statespace"
	"ringlab/engine/trace"
)

// Explorer lets a caller be the scheduler: At replays a path of transitions
// from the initial state and describes the state it reaches (every node, every
// message in flight, each property's status) and every step enabled there, with
// the state that step leads to. It takes the same statespace.Config as
// statespace.Search and steps the same real node code, so a path the caller
// builds replays with statespace.Replay, with `check --path`, and through every
// renderer.
//
// A state's key (View.Key, Step.Next) is that of the state the search keeps for
// it (statespace.Machine.Key): with the exact reductions the search applies
// (the clock shift, identifiers renamed, values never read forgotten), so two
// states with the same key have the same futures, and a workload with no end
// whose clocks or request numbers grow stays finite for Analyze.
//
// An Explorer is not safe for concurrent use.
type Explorer struct {
	cfg   statespace.Config
	m     *statespace.Machine
	names func(int) string

	// Lang is the language of the words of a step (English when zero);
	// set it before the first call.
	Lang lang.Lang
}

// NewExplorer checks cfg as statespace.Search does and returns an Explorer over its
// system. names, if set, names node i in the words of a step ("P2");
// nil: "node i".
func NewExplorer(cfg statespace.Config, names func(int) string) (*Explorer, error) {
	m, err := statespace.NewMachine(cfg)
	if err != nil {
		return nil, err
	}
	if names == nil {
		names = func(i int) string { return fmt.Sprintf("node %d", i) }
	}
	return &Explorer{cfg: cfg, m: m, names: names}, nil
}

// View is one state as a user who schedules sees it.
type View struct {
	Path     []statespace.Trans // the path from the initial state
	Nodes    []NodeView         // every node, node i at index i-1
	InFlight []Flight           // every message in flight, link by link
	// Steps are the transitions enabled here, in the order the search
	// takes them; none in a terminal state.
	Steps []Step
	// Violation is the first property the path violated, at a step or,
	// in a terminal state, at its end; nil: none.
	Violation *statespace.Violation
	// ViolatedAt is the number of the step (1-based) that violated it,
	// or len(Path)+1 for a verdict at the end of the run.
	ViolatedAt int
	Terminal   bool
	// Properties are each property's status here.
	Properties []PropertyStatus
	// Messages counts the messages sent along the path.
	Messages int64
	// Key identifies the state: two paths that reach the same state have
	// the same Key (within one Explorer).
	Key uint64
	// Keys are the Keys of every state along the path: Keys[0] the
	// initial state's, Keys[len(Path)] this one's.
	Keys []uint64
	// PathWords says what each step of Path did, in the words Step.Words
	// uses for it where it was taken.
	PathWords []string
}

// NodeView is one node in a state.
type NodeView struct {
	Index int    // 1-based
	Name  string // as the system names it: "P2"
	Alive bool   // false once crashed, until a restart
	// Done is whether the node's last step said it had finished its part.
	Done bool
	// State is the node's variables, printed with %+v.
	State string
	// Shown is the node's state as a person reads it (Show).
	Shown node.Shown
	// Pending lists its pending commands and timers ("request", "timer 1").
	Pending []string
}

// Flight is a message in flight on the link From -> To; K is its
// position on the link (the label's .K under the random policy).
type Flight struct {
	From, To, K int      // the link and the position on it (0: the head)
	Msg         node.Msg // the message itself
	Text        string   // the message in short form: REQUEST(T=3)
	// Sent is the position in the replayed run (trace.Event.Seq) of the
	// event that sent it: the messages of a link in the order sent are
	// those in the order of Sent (0: not known).
	Sent int64
}

// Step is one enabled transition and what it leads to.
type Step struct {
	Trans statespace.Trans // the transition, as statespace.Replay and statespace.FormatPath take it
	Label string           // the transition's label in a --path: d2-1
	Words string           // the same in words: "deliver REQUEST(T=3) from P2 to P1"
	// Next is the Key of the state the step leads to.
	Next uint64
	// Violation is the property the step itself violates, if any.
	Violation *statespace.Violation
	// Messages is the number of messages the step sends.
	Messages int
}

// PropertyStatus is one property at one state.
type PropertyStatus struct {
	ID       check.ID // the property's name
	Liveness bool     // a liveness property (check.Eventually): it makes promises
	// Status is "violated", "holds" (judged at the end of a run, or a
	// property judged at every state not broken so far) or "not reached"
	// (judged only where a run ends, and the path stops before).
	Status string
	Detail string
}

// At replays path from the initial state and describes the state it
// reaches. A label that is not enabled where it comes is an error naming
// the step and what was enabled there.
func (x *Explorer) At(path []statespace.Trans) (*View, error) { return x.at(path, nil) }

// AtLasso is At for a lasso, the state after prefix and one turn of
// cycle, judged as the lasso's replay judges it: one turn of the cycle
// does not reach what is judged where a run ends (LassoCut), and a fair
// cycle that comes back refutes what Refuted says (with
// statespace.Config.Liveness) or, without, every promise owed where the turn ends.
func (x *Explorer) AtLasso(prefix, cycle []statespace.Trans) (*View, error) {
	if len(cycle) == 0 {
		return x.At(prefix)
	}
	lasso := func(end *check.End) {
		end.Terminated, end.Cut, end.Why = false, true, LassoCut
		if _, err := statespace.ReplayLasso(x.cfg, prefix, cycle, nil); err != nil {
			return // it does not come back: one turn of nothing
		}
		if _, unfair, err := UnfairCycle(x.cfg, prefix, cycle); err != nil || unfair {
			return
		}
		if !x.cfg.Liveness {
			end.RefutesOwed = true
		} else if id, words, err := Refuted(x.cfg, prefix, cycle, "", x.names); err == nil {
			end.Refutes, end.Refuted = id, words
		}
	}
	return x.at(append(slices.Clone(prefix), cycle...), lasso)
}

// at is At, with lasso, if set, completing how the end is judged.
func (x *Explorer) at(path []statespace.Trans, lasso func(*check.End)) (*View, error) {
	var set *check.Set
	if x.cfg.Checks != nil {
		set = check.NewSet(x.cfg.Checks()...)
		set.SetNames(x.names)
	}
	var sent sends
	observe := func(e *trace.Event) {
		sent.observe(e)
		if set != nil {
			set.Observe(e)
		}
	}
	rr, s, err := x.m.Replay(path, observe)
	if err != nil {
		return nil, err
	}
	v := &View{Path: path, Terminal: x.m.Terminal(s), Messages: rr.Messages, Key: x.m.Key(s)}
	var at int
	v.Keys, v.PathWords, at = x.walk(path)
	end := check.End{Terminated: v.Terminal, Messages: rr.Messages}
	if !v.Terminal {
		end.Cut, end.Why = true, PathCut
	}
	if lasso != nil {
		lasso(&end)
	}
	v.Properties = x.statuses(set, end)
	// The violation shown is the one the check reports on this path (the
	// first, of --property alone if given, in the words of the step that
	// broke it); with none, the first property the state's verdicts break
	// where the path ends (a terminal state, a lasso).
	if rr.Violation != nil {
		v.Violation, v.ViolatedAt = inWords(set, rr.Violation), at
	}
	for _, p := range v.Properties {
		if v.Violation == nil && p.Status == "violated" && (x.cfg.Only == "" || p.ID == x.cfg.Only) {
			v.Violation, v.ViolatedAt = &statespace.Violation{Property: p.ID, Detail: p.Detail}, len(path)+1
			for _, e := range set.Violations {
				if check.ID(e.Property) == p.ID {
					v.ViolatedAt = int(e.T)
					break
				}
			}
			break
		}
	}
	v.Nodes = x.nodes(s)
	v.InFlight = x.flights(s)
	sent.number(v.InFlight)
	for _, t := range x.m.Enabled(s, nil) {
		next, viol, err := x.m.Step(s, t)
		if err != nil {
			return nil, err
		}
		v.Steps = append(v.Steps, Step{Trans: t, Label: t.String(), Words: x.words(s, t), Next: x.m.Key(next),
			Violation: viol, Messages: len(x.m.Sent())})
	}
	return v, nil
}

// walk steps path again from the initial state: the key of every state
// along it, the words of every step, and the number of the first step
// (1-based) whose transition reported a violation (0: none).
func (x *Explorer) walk(path []statespace.Trans) (keys []uint64, words []string, violatedAt int) {
	s := x.m.Initial()
	keys = append(make([]uint64, 0, len(path)+1), x.m.Key(s))
	words = make([]string, 0, len(path))
	for k, t := range path {
		u, ok := x.m.Find(s, t)
		if !ok {
			return keys, words, violatedAt
		}
		words = append(words, x.words(s, u))
		next, v, err := x.m.Step(s, u)
		if err != nil {
			return keys, words, violatedAt
		}
		if v != nil && violatedAt == 0 {
			violatedAt = k + 1
		}
		s = next
		keys = append(keys, x.m.Key(s))
	}
	return keys, words, violatedAt
}

// Enabled is the number of steps of path, from the first, that can be
// taken in turn from the initial state: len(path) when every one can.
func (x *Explorer) Enabled(path []statespace.Trans) int {
	keys, _, _ := x.walk(path)
	return len(keys) - 1
}

// Interned is the number of distinct node states, messages, commands and
// environments the Explorer has met and keeps: what its memory grows
// with. A caller that must bound its memory makes a new Explorer past a
// bound (Keys then change).
func (x *Explorer) Interned() int {
	return x.m.Interned()
}

// PathCut and LassoCut are why a path that stops before a terminal
// state, and one turn of a lasso's cycle, do not judge what is judged
// where a run ends: the detail of those verdicts (check.End.Why), on the
// explorer's page as in a replayed trace.
const (
	PathCut  = "the path ends before the run does"
	LassoCut = "the lasso's cycle repeats for ever: one turn of it is shown"
)

// statuses says where each property stands after the events set saw:
// the verdicts check.Set.Finish gives the state (those a replayed trace
// of the same path prints), as "violated", "holds" or "not reached".
func (x *Explorer) statuses(set *check.Set, end check.End) []PropertyStatus {
	if set == nil {
		return nil
	}
	var out []PropertyStatus
	for k, vd := range set.Finish(end) {
		ps := PropertyStatus{ID: check.ID(vd.Property), Detail: vd.Detail}
		_, ps.Liveness = set.Properties[k].(check.Eventually)
		switch {
		case vd.NotReached:
			ps.Status = "not reached"
		case !vd.OK:
			ps.Status = "violated"
		default:
			ps.Status = "holds"
		}
		out = append(out, ps)
	}
	return out
}

// nodes describes every node of s.
func (x *Explorer) nodes(s statespace.State) []NodeView {
	ns := x.m.Nodes(s)
	vs := make([]NodeView, len(ns))
	for k, n := range ns {
		vs[k] = NodeView{Index: k + 1, Name: x.names(k + 1), Alive: n.Alive, Done: n.Done, State: printState(n.Node), Shown: x.inLang(Show(n.Node, len(ns), x.names)), Pending: n.Pending}
	}
	return vs
}

// printState prints a node's variables as %+v does, through the pointers
// and one-field wrappers (an adapter that embeds the algorithm's *Node)
// that would otherwise print as an address, and leaving out fields that
// hold functions or channels (configuration, not state, and only an
// address in print).
func printState(nd any) string {
	v := reflect.ValueOf(nd)
	for range 8 {
		switch {
		case v.Kind() == reflect.Pointer || v.Kind() == reflect.Interface:
			if v.IsNil() {
				return "<nil>"
			}
			v = v.Elem()
		case v.Kind() == reflect.Struct && v.NumField() == 1 &&
			(v.Field(0).Kind() == reflect.Pointer || v.Field(0).Kind() == reflect.Interface || v.Field(0).Kind() == reflect.Struct):
			v = v.Field(0)
		default:
			var b strings.Builder
			writeValue(&b, v, 0)
			return b.String()
		}
	}
	var b strings.Builder
	writeValue(&b, v, 0)
	return b.String()
}

// writeValue writes v as %+v would, without function and channel fields.
func writeValue(b *strings.Builder, v reflect.Value, depth int) {
	if depth > 8 {
		b.WriteString("…")
		return
	}
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			b.WriteString("<nil>")
			return
		}
		writeValue(b, v.Elem(), depth+1)
	case reflect.Struct:
		b.WriteByte('{')
		first := true
		for i := range v.NumField() {
			f := v.Field(i)
			if k := f.Kind(); k == reflect.Func || k == reflect.Chan || k == reflect.UnsafePointer {
				continue
			}
			if !first {
				b.WriteByte(' ')
			}
			first = false
			b.WriteString(v.Type().Field(i).Name)
			b.WriteByte(':')
			writeValue(b, f, depth+1)
		}
		b.WriteByte('}')
	case reflect.Slice, reflect.Array:
		b.WriteByte('[')
		for i := range v.Len() {
			if i > 0 {
				b.WriteByte(' ')
			}
			writeValue(b, v.Index(i), depth+1)
		}
		b.WriteByte(']')
	case reflect.Func, reflect.Chan, reflect.UnsafePointer:
		b.WriteString("…")
	default:
		fmt.Fprintf(b, "%+v", v)
	}
}

// flights lists the messages in flight in s, link by link.
func (x *Explorer) flights(s statespace.State) []Flight {
	var fs []Flight
	for _, m := range x.m.AppendFlights(nil, s) {
		fs = append(fs, Flight{From: m.From, To: m.To, K: m.K, Msg: m.Msg, Text: trace.Short(trace.WrapMsg(m.Msg))})
	}
	return fs
}

// inLang is sh with the words Show writes itself (showWords: "none") in
// x.Lang; the algorithm's own words stay as they are.
func (x *Explorer) inLang(sh node.Shown) node.Shown {
	if x.Lang.Tag() == lang.EN.Tag() {
		return sh
	}
	none := x.Lang.T("show.none")
	if sh.State == showWords["none"] {
		sh.State = none
	}
	sh.Fields = slices.Clone(sh.Fields) // a Shower's own slice stays as it was
	for i, f := range sh.Fields {
		if f.Value == showWords["none"] {
			sh.Fields[i].Value = none
		}
	}
	return sh
}

// words says what transition t does in state s, in the words of the
// system's names: "deliver REQUEST(T=3) from P2 to P1", "fire P1's timer
// 1", "give P2 its command request", "crash P3", "restart P3", "drop the
// REPLY from P2 to P1".
func (x *Explorer) words(s statespace.State, t statespace.Trans) string {
	i := int(t.Node)
	msg, cmd := x.m.Input(s, t)
	switch t.Kind {
	case statespace.Deliver, statespace.Drop:
		text := trace.Short(trace.WrapMsg(msg))
		if t.Kind == statespace.Drop {
			return x.Lang.T("step.drop", text, x.names(int(t.From)), x.names(i))
		}
		return x.Lang.T("step.deliver", text, x.names(int(t.From)), x.names(i))
	case statespace.Fire:
		if name := x.timerName(s, i, int(t.Timer)); name != "" {
			return x.Lang.T("step.fireNamed", x.names(i), t.Timer, x.Lang.Term("timer", name))
		}
		return x.Lang.T("step.fire", x.names(i), t.Timer)
	case statespace.Command:
		return x.Lang.T("step.command", x.names(i), cmd)
	case statespace.Crash:
		return x.Lang.T("step.crash", x.names(i))
	case statespace.Restart:
		return x.Lang.T("step.restart", x.names(i))
	}
	return t.String()
}

// timerName is what node i of s says its timer id means ("grant
// timeout"), "" when it does not say (node.TimerNamer), looking through
// the wrappers an area puts around a node (an Unwrap method).
func (x *Explorer) timerName(s statespace.State, i, id int) string {
	ns := x.m.Nodes(s)
	if i < 1 || i > len(ns) {
		return ""
	}
	nd := ns[i-1].Node
	for range 8 { // through the wrappers that say what they wrap
		switch w := nd.(type) {
		case node.TimerNamer:
			return w.TimerName(id)
		case interface{ Unwrap() node.Node }:
			nd = w.Unwrap()
		default:
			return ""
		}
	}
	return ""
}

// inWords is viol in the words of set, the properties the path was
// replayed through: the first violation of that property they report
// (viol itself if none, or set is nil).
func inWords(set *check.Set, viol *statespace.Violation) *statespace.Violation {
	if set == nil {
		return viol
	}
	for _, e := range set.Violations {
		if check.ID(e.Property) == viol.Property {
			return &statespace.Violation{Property: viol.Property, Detail: e.Detail}
		}
	}
	return viol
}
