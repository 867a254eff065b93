// Package enginetest runs a user's algorithm through ringlab's tools from
// inside `go test`: Sweep runs it on the simulator under many seeded
// schedules, Exhaust searches every state of a small system. Both report a
// violated property with its detail and a command that replays the failing
// run and prints its whole trace, ready to paste:
//
//	RINGLAB_SEED=7 go test -run '^TestMutex$' ./mymutex
//	RINGLAB_PATH=c1,c2,d1-2,d2-1 go test -run '^TestMutex$' ./mymutex
//
// With RINGLAB_SEED set, Sweep runs that seed alone and logs its trace;
// with RINGLAB_PATH set, Exhaust replays that path alone and logs its
// trace, instead of searching. A test that calls both reads each variable
// only in the helper it belongs to.
package enginetest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"ringlab/engine"
	"ringlab/engine/check"
	"ringlab/engine/node"
	"ringlab/engine/run"
	"ringlab/engine/sim"
	"ringlab/engine/statespace"
	"ringlab/engine/trace"
	"ringlab/engine/vet"
)

// SeedEnv names the environment variable that makes Sweep replay one
// seed and log its trace.
const SeedEnv = "RINGLAB_SEED"

// PathEnv names the environment variable that makes Exhaust replay one
// path (its labels, as a failure prints them) and log its trace.
const PathEnv = "RINGLAB_PATH"

// sweepDelay is the latency Sweep's simulator draws each message's from,
// in ticks: per-link FIFO, as the command line's runs are, with latencies
// spread enough that different seeds interleave the nodes differently.
var sweepDelay = sim.Delay{Min: 1, Max: 10}

// MaxSteps is Sweep's step budget per run: a run that needs more is
// reported as not terminating.
const MaxSteps = 1_000_000

// MaxStates bounds Exhaust's search, in distinct states: a space larger
// than this is reported as not exhausted rather than searched for ever.
const MaxStates = 5_000_000

// Sweep builds alg afresh from p for each seed 1..seeds and runs it on the
// simulator with that seed (through run.Run, every property of the System
// judged), each message's latency drawn from 1..10 ticks, per-link FIFO. At the first run that breaks a property or does not end, it
// reports the property, its detail and the replay command with t.Errorf
// and returns; a Build that fails is reported the same way. With the
// environment variable RINGLAB_SEED set to a seed, it runs that seed
// alone and logs its trace with t.Log.
func Sweep(t testing.TB, alg engine.Algorithm, p engine.Params, seeds int) {
	t.Helper()
	if seeds < 1 {
		t.Errorf("enginetest.Sweep: seeds must be at least 1, got %d", seeds)
		return
	}
	first, last, verbose := uint64(1), uint64(seeds), false
	if s, ok := os.LookupEnv(SeedEnv); ok {
		n, err := strconv.ParseUint(strings.TrimSpace(s), 10, 64)
		if err != nil {
			t.Errorf("%s=%q: want a seed, a whole number", SeedEnv, s)
			return
		}
		first, last, verbose = n, n, true
	}
	for seed := first; seed <= last; seed++ {
		replay := fmt.Sprintf("%s=%d %s", SeedEnv, seed, goTest(t))
		sys, err := alg.Build(p, engine.Env{Seed: seed, Runtime: "sim", MaxDelay: sweepDelay.Max})
		if err != nil {
			t.Errorf("%s: Build (seed %d): %v", alg.Name, seed, err)
			return
		}
		rt := sim.Runtime{Seed: seed, Delay: sweepDelay, MaxSteps: MaxSteps, Messages: true}
		var log bytes.Buffer
		err = judge(t.Context(), sys, rt, seed, replay, verbose, &log)
		if verbose {
			t.Logf("%s, seed %d:\n%s", alg.Name, seed, log.String())
		}
		if err != nil {
			t.Errorf("%s, seed %d of %d..%d: %v\nreplay (prints the run): %s", alg.Name, seed, first, last, describe(err), replay)
			return
		}
	}
}

// judge runs sys on rt, writes its trace as text to log if verbose, and
// returns what the run broke (nil: nothing).
func judge(ctx context.Context, sys engine.System, rt engine.Runtime, seed uint64, replay string, verbose bool, log *bytes.Buffer) error {
	opts := run.Options{Seed: seed, Replay: replay,
		Header: trace.NewHeader(sys.Name, rt.Name(), sys.Nodes, seed, sys.Names, sys.Topology, sys.Edges, replay)}
	var r trace.Renderer
	if verbose {
		r, _ = trace.NewRenderer("text", log) // "text" is a format
		opts.Renderers = []trace.Renderer{r}
	}
	out, err := run.Run(ctx, sys, rt, opts)
	if r != nil {
		if ferr := r.Flush(); err == nil {
			err = ferr
		}
	}
	if err != nil {
		return fmt.Errorf("the run could not be carried out: %w", err)
	}
	return out.Err()
}

// describe says what a run's error means, without the replay the caller
// prints on a line of its own.
func describe(err error) string {
	if v, ok := errors.AsType[*run.Violation](err); ok {
		if v.Liveness {
			return fmt.Sprintf("no progress: %s violated: %s", v.Property, v.Detail)
		}
		return fmt.Sprintf("%s violated: %s", v.Property, v.Detail)
	}
	if nt, ok := errors.AsType[*run.NoTermination](err); ok {
		return "no termination: " + nt.Why
	}
	return err.Error()
}

// Exhaust searches every reachable state of alg's checked System
// (alg.ForCheck(), built from p, which are that algorithm's parameters),
// as `ringlab AREA check ALGO` does with its defaults: per-link FIFO
// delivery, timers that may fire at any moment, partial-order reduction,
// no faults, at most MaxStates distinct states. It reports with t.Errorf a
// violated property with its detail, the shortest path to it (labels and
// the trace in words) and the replay command; and a search that stops
// before it has exhausted the space; and, for nodes with their own Clone
// and AppendKey, what engine/vet finds wrong with them (determinism,
// clone, key). With the environment variable
// RINGLAB_PATH set to a path's labels, it replays that path alone and
// logs its trace.
func Exhaust(t testing.TB, alg engine.Algorithm, p engine.Params) {
	t.Helper()
	ExhaustWith(t, alg, p, Options{})
}

// Options are the choices of ExhaustWith's search that Exhaust leaves at
// the command line's defaults; the zero value is Exhaust's search.
type Options struct {
	// AnyOrder delivers any message in flight next, not only a link's
	// oldest (`check --policy random`): links that are not FIFO.
	AnyOrder bool
	// QuietTimers lets a pending timer fire only when no message is in
	// flight (`check --timers quiet`): timeouts longer than any delay.
	QuietTimers bool
	// Crashes, Drops and Restarts are fault budgets, as check's flags:
	// any node may crash, any message in flight be lost, any crashed node
	// restart with its state lost, at any point, up to this many times on
	// a path.
	Crashes, Drops, Restarts int
	// Want, when set, is the property the search must find violated: a
	// test that a known counterexample exists (a protocol that needs FIFO
	// links breaks on links that are not). The test passes, logging the
	// shortest path, its trace and its replay command, when the search
	// finds it; it fails when the search exhausts the space without it or
	// finds another property violated first.
	Want check.ID
	// Only, when set, is the one property the search looks for
	// violations of (`check --property`): the others are not judged, and
	// the report says so. A test of what a protocol keeps when it is
	// known to give up another (progress after a crash, by a timeout that
	// also breaks mutual exclusion) names the one it keeps.
	Only check.ID
	// Liveness also judges the promises (check.Eventually: no deadlock,
	// no starvation) over every fair cycle, as `check --liveness` does: a
	// run without end (a workload that asks for ever) where a promise
	// stays owed is reported as a lasso, the prefix then the cycle. The
	// search keeps the whole graph, without the partial-order reduction.
	Liveness bool
	// EndedRunsOnly accepts runs that never end. Exhaust fails a test
	// whose workload ends when some of its runs do not (a fair cycle, or
	// no path that ends): the properties judged where a run ends
	// (termination, agreement) were not judged on them. A test whose
	// timer model is looser than its real timeouts (QuietTimers lets any
	// pending timer fire first, where a shorter timeout would) may have
	// such runs that the real system has not: with EndedRunsOnly it judges
	// those properties on the runs that end only, and logs what it left
	// unjudged: how many fair cycles, and the first lasso on which a
	// promise stays owed (with Liveness, such a lasso still fails).
	EndedRunsOnly bool
}

// ExhaustWith is Exhaust with the delivery order, timer model and fault
// budgets of o, or, with o.Want set, the test that a violation of o.Want
// is reachable. RINGLAB_PATH replays a path under the same options.
func ExhaustWith(t testing.TB, alg engine.Algorithm, p engine.Params, o Options) {
	t.Helper()
	alg = alg.ForCheck()
	env := engine.Env{Runtime: "sim", MaxDelay: 1, AnyOrder: o.AnyOrder}
	sys, err := alg.Build(p, env)
	if err != nil {
		t.Errorf("%s: Build: %v", alg.Name, err)
		return
	}
	if sys.Nodes > statespace.MaxNodes {
		t.Errorf("%s: an exhaustive check takes at most %d nodes, got %d", alg.Name, statespace.MaxNodes, sys.Nodes)
		return
	}
	fresh := func() []check.Property { // each terminal state is judged by properties of their own
		again, _ := alg.Build(p, env) // built once already from the same parameters
		cs := again.Properties
		if len(cs) == 0 {
			cs = []check.Property{check.Termination{}}
		}
		if sys.Names != nil {
			check.NewSet(cs...).SetNames(sys.Names)
		}
		return cs
	}
	sc := statespace.Config{System: sys, Checks: fresh, POR: true, MaxStates: MaxStates,
		Crashes: o.Crashes, Drops: o.Drops, Restarts: o.Restarts}
	if o.AnyOrder {
		sc.Policy = sim.PolicyRandom
	}
	if o.QuietTimers {
		sc.Timers = statespace.TimersQuiet
	}
	sc.Only, sc.Liveness = o.Only, o.Liveness

	if s, ok := os.LookupEnv(PathEnv); ok {
		prefix, cycle, err := statespace.ParseLasso(s, sys.Nodes) // a path, or a lasso's prefix|cycle
		if err != nil {
			t.Errorf("%s=%q: %v", PathEnv, s, err)
			return
		}
		path := append(prefix, cycle...)
		words, err := replayPath(t.Context(), sys, sc, path, "")
		if _, cut := errors.AsType[*run.NoTermination](err); cut && cycle != nil {
			err = nil // a lasso stops after one turn of a cycle that never ends
		}
		t.Logf("%s, path %s:\n%s", alg.Name, statespace.FormatPath(path), words)
		if err != nil && o.Want == "" {
			t.Errorf("%s, path %s: %s", alg.Name, statespace.FormatPath(path), describe(err))
		}
		if addr, ok := os.LookupEnv(ServeEnv); ok {
			explore(t, alg.Name, sys, sc, s, addr)
		}
		return
	}

	sc.Cycles = !o.Liveness && sys.Endless == "" // a workload that ends: look for runs that do not
	res, err := statespace.Search(t.Context(), sc)
	if err != nil {
		t.Errorf("%s: the search could not be carried out: %v", alg.Name, err)
		return
	}
	if res.Violation == nil && res.Lasso != nil {
		reportLasso(t, searched(alg.Name, o.Only), sys, sc, res.Lasso)
		return
	}
	if res.Violation == nil && res.Exhausted && o.Want == "" && !neverEnds(t, searched(alg.Name, o.Only), sys, sc, res, o.EndedRunsOnly) {
		return
	}
	report(t, searched(alg.Name, o.Only), sys, sc, res, o.Want)
}

// neverEnds judges what a search exhausted without a violation could not:
// the properties judged only where a run ends (termination among them),
// when some runs of a workload that ends never end. A state graph where
// no path ends, or with a cycle (res.Cyclic, sc.Cycles), is searched
// again, whole, for its fair cycles (`check` does the same): one on which
// a promise stays owed is reported as a lasso; one that keeps every
// promise still leaves those properties unjudged on the runs that stay on
// it, and the test fails saying so, unless accept (Options.EndedRunsOnly)
// makes it a note in the log. It reports whether the test may go on to say
// the space was exhausted.
func neverEnds(t testing.TB, name string, sys engine.System, sc statespace.Config, res statespace.Result, accept bool) bool {
	t.Helper()
	judged := res.AtEnds
	if asksTermination(sc) && !slices.Contains(judged, check.IDTermination) {
		judged = append(slices.Clone(judged), check.IDTermination)
	}
	if !sc.Cycles || len(judged) == 0 || res.Terminal > 0 && res.Cyclic == 0 {
		return true
	}
	lsc := sc
	lsc.Liveness, lsc.POR, lsc.Cycles = true, false, false
	lres, err := statespace.Search(t.Context(), lsc)
	switch {
	case err != nil:
		t.Errorf("%s: the search for runs that never end could not be carried out: %v", name, err)
		return false
	case lres.Lasso != nil && accept:
		t.Logf("%s: not judged: a run that never ends, on which %s stays owed (lasso %s), and maybe more: judged on the runs that end only (Options.EndedRunsOnly)", name, lres.Lasso.Property, lres.Lasso)
		return true
	case lres.Lasso != nil:
		reportLasso(t, name, sys, sc, lres.Lasso)
		return false
	case !lres.Exhausted:
		t.Errorf("%s: not proved: the search for runs that never end stopped by %s after %d distinct states", name, lres.Stop, lres.Distinct)
		return false
	}
	var ids []string
	for _, id := range judged {
		ids = append(ids, string(id))
	}
	names := strings.Join(ids, ", ") + " were"
	if len(ids) == 1 {
		names = ids[0] + " was"
	}
	fail := t.Errorf
	if accept {
		fail = t.Logf
	}
	switch {
	case res.Terminal == 0:
		fail("%s: not proved: no run ends (no path of the %d states reaches one where the run is over, though the workload ends), so %s not judged", name, res.Distinct, names)
	case lres.Live.Fair > 0:
		fail("%s: not proved: some runs never end: %d strongly connected components of the %d states hold a fair cycle, where a run can stay for ever, so %s not judged on the runs that stay there", name, lres.Live.Fair, res.Distinct, names)
	default:
		return true // every cycle is unfair: every fair run ends
	}
	if accept {
		t.Logf("%s: judged on the runs that end only (Options.EndedRunsOnly)", name)
	}
	return accept
}

// asksTermination reports whether the search of sc judges termination:
// among its properties, and not left out by sc.Only.
func asksTermination(sc statespace.Config) bool {
	if sc.Only != "" && sc.Only != check.IDTermination {
		return false
	}
	return slices.ContainsFunc(sc.Checks(), func(p check.Property) bool { return p.ID() == check.IDTermination })
}

// searched names what a search looked at: the algorithm, and the one
// property it judged if only one.
func searched(name string, only check.ID) string {
	if only == "" {
		return name
	}
	return fmt.Sprintf("%s (%s only)", name, only)
}

// report says what a search found: a violation with its shortest path, its
// replay and its trace (an error, or the log of a test that wants it), a
// search cut short, or the space exhausted.
func report(t testing.TB, name string, sys engine.System, sc statespace.Config, res statespace.Result, want check.ID) {
	t.Helper()
	if v := res.Violation; v != nil {
		labels := statespace.FormatPath(res.Path)
		replay := fmt.Sprintf("%s=%s %s", PathEnv, labels, goTest(t))
		words, _ := replayPath(t.Context(), sys, sc, res.Path, replay) // the search found it: the replay shows it
		msg := fmt.Sprintf("%s: %s violated after %d steps (a shortest path): %s\npath: %s\nreplay (prints the run): %s\nin the browser: %s\nthe path in words:\n%s",
			name, v.Property, len(res.Path), v.Detail, labels, replay, browse(replay), indent(words))
		switch {
		case want == "":
			t.Errorf("%s", msg)
		case v.Property == want:
			t.Logf("as it should be: %s", msg)
		default:
			t.Errorf("%s, not %s as it should be\n%s", v.Property, want, msg)
		}
		return
	}
	if !res.Exhausted {
		t.Errorf("%s: not exhausted: stopped by %s after %d distinct states; no violation in the states explored",
			name, res.Stop, res.Distinct)
		return
	}
	if want != "" {
		t.Errorf("%s: exhausted, and %s holds in every state: %d distinct states, %d terminal, depth %d; it should be violated",
			name, want, res.Distinct, res.Terminal, res.Depth)
		return
	}
	t.Logf("%s: exhausted, no violation: %d distinct states, %d terminal, depth %d", name, res.Distinct, res.Terminal, res.Depth)
	handWritten(t, name, sys)
}

// handWritten reports, for nodes with their own Clone and AppendKey
// (node.Snapshot, a fast path the search took), what engine/vet finds
// wrong with them: the contract's checks (determinism, clone, key), which
// compare them with the copy and the key derived from the node's value.
// A search over a clone short of a field, or a key that splits a state,
// counts states that are not the node's.
func handWritten(t testing.TB, name string, sys engine.System) {
	t.Helper()
	nd, err := sys.Factory(1)
	if _, ok := nd.(node.Snapshot); err != nil || !ok {
		return
	}
	r, err := vet.RunSystem(t.Context(), sys, vet.Options{})
	if err != nil {
		t.Errorf("%s: vetting the node's own Clone and AppendKey: %v", name, err)
		return
	}
	for _, f := range r.Findings {
		if f.Check == vet.CheckDeterminism || f.Check == vet.CheckClone || f.Check == vet.CheckKey {
			t.Errorf("%s: the node's own Clone or AppendKey breaks the contract (the counts above are not the node's): %s", name, f)
		}
	}
}

// replayPath runs one path of the search through run.Run, the trace
// written as text, and returns the text and what the run broke.
func replayPath(ctx context.Context, sys engine.System, sc statespace.Config, path []statespace.Trans, replay string) (string, error) {
	var log bytes.Buffer
	err := judge(ctx, sys, run.Path{Config: sc, Steps: path}, 0, replay, true, &log)
	return log.String(), err
}

// indent indents every line of s by two spaces.
func indent(s string) string {
	s = strings.TrimRight(s, "\n")
	return "  " + strings.ReplaceAll(s, "\n", "\n  ")
}

// goTest is the command that runs t alone: go test with -run matching its
// name (each subtest level anchored), in its package's directory written
// from the module's root.
func goTest(t testing.TB) string {
	parts := strings.Split(t.Name(), "/")
	for i, p := range parts {
		parts[i] = "^" + regexp.QuoteMeta(p) + "$"
	}
	return fmt.Sprintf("go test -run '%s' %s", strings.Join(parts, "/"), packageDir())
}

// packageDir is the directory go test runs a test in (its package's),
// relative to the module's root, as `go test` takes it from there: "./x/y",
// or "." at the root or when no go.mod is found above it.
func packageDir() string {
	wd, err := os.Getwd()
	if err != nil {
		return "."
	}
	for dir := wd; ; {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			rel, err := filepath.Rel(dir, wd)
			if err != nil || rel == "." {
				return "."
			}
			return "./" + filepath.ToSlash(rel)
		}
		up := filepath.Dir(dir)
		if up == dir {
			return "."
		}
		dir = up
	}
}
