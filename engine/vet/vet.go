// Package vet is a lint for a user's algorithm, in the manner of DSLabs'
// --checks: it catches the faults that make the engine's tools quietly
// wrong rather than loudly broken. The exhaustive checker takes two node
// states with equal keys for one state, the simulator replays a seed bit
// for bit, and a RabbitMQ run or a saved log types messages back through
// the registry; all of that holds only if the node keeps the contract of
// engine/node. vet checks it:
//
//   - determinism: Step on two clones of one state, given the same input,
//     gives identical outputs and identical keys afterwards;
//   - clone: stepping a Clone leaves the original's whole value as it was,
//     every field and every slice up to its capacity, compared when the
//     search takes the step (Clone shares no slice, map or pointer with
//     its original that a step changes in place or appends into);
//   - key: two states with one AppendKey key behave the same (same
//     outputs, same next key) on the inputs the search met in that key;
//   - codec: every message type in System.Messages, and every message the
//     search saw (told apart by value, not by how they print), comes back equal from the broker's codec and from the
//     NDJSON log;
//   - clock: the node's package source calls no wall clock, random source,
//     or process environment (time.Now, math/rand, os.Getenv, ...).
//
// The node states and inputs are those the exhaustive checker
// (engine/statespace) meets in a bounded search of the checked System
// (Algorithm.ForCheck), so a fault shows up with a state and an input that
// the algorithm really reaches.
package vet

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"ringlab/engine"
	"ringlab/engine/node"
	"ringlab/engine/sim"
	"ringlab/engine/statespace"
)

// The checks' names, as a Finding's Check gives them.
const (
	CheckDeterminism = "determinism"
	CheckClone       = "clone"
	CheckKey         = "key"
	CheckCodec       = "codec"
	CheckClock       = "clock"
)

// Checks lists every check's name, in the order vet runs them.
func Checks() []string {
	return []string{CheckDeterminism, CheckClone, CheckKey, CheckCodec, CheckClock}
}

// DefaultMaxStates bounds the search that collects the inputs when
// Options.MaxStates is 0.
const DefaultMaxStates = 3000

// Finding is one fault: which check found it, at which node (0: a check of
// the algorithm as a whole, codec or clock), in which method, on which
// input, and what differed.
type Finding struct {
	Check  string // one of Checks()
	Node   int    // the node's index (1-based); 0: none
	Method string // "Step", "Clone", "AppendKey", "amqp codec", "NDJSON log", "time.Now", ...
	Input  string // the input or message, as text ("" where there is none)
	Detail string // what differed, or where the source does what it must not
}

// String is the finding on one line:
// "CHECK: node N: METHOD on INPUT: DETAIL".
func (f Finding) String() string {
	var b strings.Builder
	b.WriteString(f.Check)
	b.WriteString(": ")
	if f.Node > 0 {
		fmt.Fprintf(&b, "node %d: ", f.Node)
	}
	b.WriteString(f.Method)
	if f.Input != "" {
		b.WriteString(" on ")
		b.WriteString(f.Input)
	}
	b.WriteString(": ")
	b.WriteString(f.Detail)
	return b.String()
}

// Options bound a vet.
type Options struct {
	// MaxStates bounds the distinct states of the search that collects
	// the node states and inputs (0: DefaultMaxStates).
	MaxStates int64
	// Crashes and Restarts are the search's fault budgets (0: none): a
	// restart gives the nodes node.CmdRecover, a crash drops messages.
	Crashes, Restarts int
}

// Skip is a check that did not run, and why: a check skipped is not a
// check passed.
type Skip struct {
	Check string // the check that did not run: "clock"
	Why   string // why it could not, as the report prints it
}

// Report is what a vet found and how much it looked at.
type Report struct {
	Findings []Finding // every fault found, check by check
	Skipped  []Skip    // the checks that could not run, and why
	States   int64     // distinct states the search visited
	Inputs   int       // distinct (node state, input) pairs the checks stepped
	Messages int       // distinct messages the codec check round-tripped
	// Interrupted says that ctx ended the search early: the findings are
	// over the states it met by then.
	Interrupted bool
}

// Check lints alg: it builds the checked System (alg.ForCheck().Build(p,
// env)) and returns every finding. An error means the lint could not run
// (Build refused p, the search failed); a check it had to skip is no
// finding (Run says which).
func Check(ctx context.Context, alg engine.Algorithm, p engine.Params) ([]Finding, error) {
	r, err := Run(ctx, alg, p, Options{})
	return r.Findings, err
}

// Test is Check as a test helper: each finding is a t.Errorf naming the
// check, method, input and what differed; a skipped check is logged, and
// an error that stops the lint is fatal.
func Test(t testing.TB, alg engine.Algorithm, p engine.Params) {
	t.Helper()
	r, err := Run(context.Background(), alg, p, Options{})
	if err != nil {
		t.Fatalf("vet %s: %v", alg.Name, err)
	}
	for _, f := range r.Findings {
		t.Errorf("vet %s: %s", alg.Name, f)
	}
	for _, s := range r.Skipped {
		t.Logf("vet %s: %s check skipped: %s", alg.Name, s.Check, s.Why)
	}
}

// Run lints alg with p under opts and says what it found, what it
// skipped, and how much it looked at.
func Run(ctx context.Context, alg engine.Algorithm, p engine.Params, opts Options) (Report, error) {
	alg = alg.ForCheck()
	sys, err := alg.Build(p, engine.Env{Runtime: "sim", MaxDelay: 1})
	if err != nil {
		return Report{}, err
	}
	return RunSystem(ctx, sys, opts)
}

// RunSystem lints an already built System: the checked System of an
// algorithm, as Run builds it.
func RunSystem(ctx context.Context, sys engine.System, opts Options) (Report, error) {
	if sys.Factory == nil || sys.Nodes < 1 {
		return Report{}, fmt.Errorf("the System has no nodes (Nodes %d, Factory set: %v)", sys.Nodes, sys.Factory != nil)
	}
	if sys.Nodes > statespace.MaxNodes {
		return Report{}, fmt.Errorf("vet searches at most %d nodes, got %d", statespace.MaxNodes, sys.Nodes)
	}
	l := &linter{ctx: ctx, sys: sys, seen: map[string]bool{}, met: map[metKey][]int{}}
	var r Report
	first := make([]node.Node, sys.Nodes+1)
	for i := 1; i <= sys.Nodes; i++ {
		nd, err := sys.Factory(i)
		if err != nil {
			return r, fmt.Errorf("the Factory of node %d: %v", i, err)
		}
		if err := l.ops.Check(nd); err != nil {
			return r, err
		}
		first[i] = nd
		l.checkHand(i, nd) // the states the search steps are clones: this one is not
	}
	cfg := statespace.Config{System: sys, Policy: sim.PolicyRandom,
		Crashes: opts.Crashes, Restarts: opts.Restarts,
		MaxStates: opts.MaxStates, OnStep: l.record}
	if cfg.MaxStates == 0 {
		cfg.MaxStates = DefaultMaxStates
	}
	res, err := statespace.Search(ctx, cfg)
	if err != nil {
		return r, err
	}
	// Interrupted, the checks stop at once: the report is partial, its
	// findings those stepped so far, and the checks that stepping runs
	// are said to be cut short (the clock check reads the source: it runs).
	r.States = res.Distinct
	r.Inputs = len(l.recs)
	l.stepAll()
	r.Findings = append(r.Findings, l.determinism...)
	r.Findings = append(r.Findings, l.clone...)
	r.Findings = append(r.Findings, l.hand...)
	switch {
	case ctx.Err() != nil:
		// the pairs after the cut have no step to compare with: the key
		// check would see differences that are not there
	case len(l.determinism) > 0:
		r.Skipped = append(r.Skipped, Skip{CheckKey, "Step is not deterministic, so equal keys cannot promise equal steps"})
	case len(l.clone) > 0:
		r.Skipped = append(r.Skipped, Skip{CheckKey, "Clone shares memory with its original, so the states met are not the states reached"})
	default:
		r.Findings = append(r.Findings, l.keys(first)...)
	}
	codec, n := l.codec()
	r.Findings = append(r.Findings, codec...)
	r.Messages = n
	if ctx.Err() != nil {
		r.Interrupted = true
		for _, c := range []string{CheckDeterminism, CheckClone, CheckKey, CheckCodec} {
			if !slices.ContainsFunc(r.Skipped, func(s Skip) bool { return s.Check == c }) {
				r.Skipped = append(r.Skipped, Skip{c, "interrupted before it stepped every state and input the search met"})
			}
		}
	}
	clock, skip := clockOf(first[1])
	r.Findings = append(r.Findings, clock...)
	if skip != "" {
		r.Skipped = append(r.Skipped, Skip{CheckClock, skip})
	}
	return r, nil
}
