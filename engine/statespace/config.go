package statespace

import (
	"fmt"
	"time"

	"ringlab/engine"
	"ringlab/engine/check"
	"ringlab/engine/node"
	"ringlab/engine/sim"
)

// TimerModel says when a pending timer may fire.
type TimerModel int

const (
	TimersAny   TimerModel = iota // at any moment: the asynchronous model
	TimersQuiet                   // only when no message is in flight: timeouts longer than any delay
)

// String returns the model's name: "any" or "quiet".
func (t TimerModel) String() string {
	if t == TimersQuiet {
		return "quiet"
	}
	return "any"
}

// ParseTimers reads a timer model name.
func ParseTimers(s string) (TimerModel, error) {
	switch s {
	case "any", "":
		return TimersAny, nil
	case "quiet":
		return TimersQuiet, nil
	}
	return 0, fmt.Errorf("unknown timer model %q (want any or quiet)", s)
}

// Config is one search: the System searched and how to search it.
type Config struct {
	// System is what is searched. The search reads its Nodes (at most
	// MaxNodes), Factory (how a node is copied and keyed: see Derived),
	// Script, Workload, Within and Bound, as documented below; the rest
	// of it (its name, properties, goals, runtimes' options) is the
	// caller's.
	//
	// Script holds the environment's first commands; each node gets its
	// own in order of At (times are not modelled). A crash at tick 0 makes
	// the node start crashed.
	//
	// Workload is the environment's initial state (nil: none). The search
	// never changes it: each state holds its own clone. It sees the same
	// node events a run's workload does, at a virtual time (the step's
	// depth); the actions it answers with must be for the node whose event
	// it answers, and their At is ignored (time is not modelled). A
	// workload that is a check.Wanter is shown only the kinds it wants.
	//
	// Within, when set, is a state constraint, as TLC's: a state where
	// some node's state fails it is counted, and its safety judged on the
	// step that reached it, but it is neither expanded nor judged as
	// terminal. A constraint over each node's own state commutes with the
	// partial-order reduction (a step at another node leaves that node's
	// state as it is); Bound names it in the report ("--max-clock 6").
	engine.System
	// Checks are the run's properties. Those that are a check.Snapshot
	// are carried in every state and judged at every step, shown the same
	// trace.Event a run shows them (without clocks); every property is
	// judged at every terminal state, by replaying the path that reached
	// it. It is a function, not System.Properties, because properties
	// hold what they observed: each replay needs its own.
	Checks func() []check.Property

	Policy                   sim.Policy // which message may be delivered next: a link's head (FIFO) or any
	Timers                   TimerModel // when a pending timer may fire
	Crashes, Drops, Restarts int        // fault budgets: how many of each a path may hold

	// MaxFlight, when positive, is a state constraint on the network (see
	// flight.go): a state with more than MaxFlight messages in flight on
	// one link is beyond it, counted and not expanded, as for Within.
	// Bound names it too.
	MaxFlight int

	MaxDepth  int           // 0: none
	MaxStates int64         // distinct states; 0: none
	MaxMemory uint64        // bytes of Go heap and the search's tables held off it; 0: none
	Timeout   time.Duration // wall clock; 0: none
	POR       bool          // partial-order reduction: ample sets and sleep sets
	sleepOnly bool          // POR with sleep sets only (the shortest-path search after an ample one)
	Only      check.ID      // look for violations of this property only ("": any)
	Exact     bool          // store whole keys, not 64-bit fingerprints
	// Liveness judges the check.Eventually properties over cycles as well
	// (see Lasso): the search keeps the state graph's edges and, once the
	// space is exhausted, looks for a fair cycle that keeps a promise owed
	// for ever. It turns the partial-order reduction off.
	Liveness bool
	// Cycles counts, once the space is exhausted, the strongly connected
	// components of the graph searched that hold a cycle (Result.Cyclic):
	// with none, every run ends. The search keeps its steps for it (8
	// bytes a step), and counts those to a state no deeper than the one
	// they leave (Result.Back): with none there is no cycle (depth grows
	// along every path) and the components are not computed. Under the
	// reduction the graph searched has a cycle if the full graph has one:
	// the ample sets' proviso fully expands a state of every cycle, and the
	// sleep sets leave, of every path, one as long through independent
	// steps reordered, so a cycle's repeated rounds find a state twice.
	Cycles bool
	// From, when set, stages the search: it starts from the state this
	// path reaches (taken under the asynchronous timer model, its own
	// faults allowed), with the fault budgets and timer model above
	// counted afresh from there. Every path the search reports, and every
	// replay of one, is relative to that state.
	From []Trans
	// Goal, when set, is what the search looks for instead of a violation
	// (it still stops at one): the first state where it holds, reached by
	// a shortest path (Result.Goal). The partial-order reduction is off
	// for a goal, which may read any node's state.
	Goal *engine.Goal
	// NoShift turns off the clock shift (internal/reduction/shift.go): by default a search
	// whose nodes declare their values (node.Valuer), under FIFO links and no Within
	// constraint, keeps each state shifted down by its least clock.
	NoShift bool
	// Symmetry, when set, is the symmetry the search reduces by (usually
	// the System's own, System.Symmetry, which this field hides: a System
	// that declares one is searched without it unless it is set here): the
	// search keeps one representative state of every orbit under it and
	// rebuilds every path it reports as a concrete one from the initial
	// state. It is refused with Liveness, a Goal, From or CheckClones,
	// turns the partial-order reduction off and runs on one goroutine.
	Symmetry *engine.Symmetry
	// Workers is how many goroutines compute successors (0: one per
	// core, runtime.GOMAXPROCS). The result is the same whatever their
	// number: the same verdict, counts and shortest path (par.go says
	// how a tie between equally short paths is broken). A search with
	// Liveness, a Goal, OnStep or CheckClones runs on one goroutine.
	Workers int
	// Progress, if set, is called about once a second from the
	// goroutine that called Search with the figures so far.
	Progress func(Progress)
	// SpillDir is where a BFS level larger than 4 MiB is kept, and the
	// parent links of all but the latest 131,072 states, in temporary
	// files removed when the search returns ("": os.TempDir).
	SpillDir string
	spillAt  int64 // the level size from which it goes to disk (0: spillAt)
	linkMem  int   // the parent links kept in memory (0: linkMem)
	// CheckClones is a test of the nodes' copy and key: every new
	// state is rebuilt from the initial state along its path and its key
	// compared (a Clone that shares memory with its original, or a key that
	// misses a field, shows up as a difference). Slow: O(depth) per state.
	CheckClones bool
	// OnStep, if set, is called before every step of a node with the
	// node's index, a clone of its state before the step (the callee's to
	// keep) and the input it is about to handle: a lint (engine/vet)
	// collects from it the inputs the search met. It is called again for
	// a step taken again (a state expanded twice, a path replayed), from
	// the goroutine that called Search; unset, it costs nothing.
	OnStep func(i int, before node.Node, in node.Input)
	// Derived copies and keys every node state by its Go value
	// (engine/internal/derive), ignoring a node.Snapshot's own Clone and
	// AppendKey, which are otherwise used. Either way, the counts and
	// verdicts are the same when those methods are right: a test of them,
	// and of what they save.
	Derived bool
}

// MaxNodes bounds Config.Nodes (states keep node sets as 64-bit masks).
const MaxNodes = 64

// Result is what a search found.
type Result struct {
	Explored    int64         // states expanded
	Distinct    int64         // distinct states seen
	Transitions int64         // steps taken (successors computed)
	Terminal    int64         // distinct terminal states judged
	Depth       int           // deepest state seen
	Elapsed     time.Duration // wall time of the search
	MemBytes    uint64        // memory the Go runtime holds from the OS at the end, and the tables held off its heap
	Spilled     int64         // bytes of BFS levels written to disk (Config.SpillDir)
	Exhausted   bool          // every reachable state was explored (within the Within constraint)
	Stop        string        // what stopped it short: max-depth, max-states, timeout, interrupted
	Violation   *Violation    // the property broken, nil if none was
	Path        []Trans       // the shortest path to the violation
	Reduced     int64         // states expanded by an ample set smaller than their enabled set
	Beyond      int64         // distinct states outside the Within constraint, not expanded
	Back        int64         // with Config.Cycles: steps to a state no deeper than the one they leave
	Cyclic      int64         // with Config.Cycles: strongly connected components with a cycle
	// Goal reports that Config.Goal holds in the state Path reaches.
	Goal bool
	// Covered is the depth fully covered: every state within that many
	// steps of the initial state was reached and checked (what a search
	// stopped short still proves).
	Covered int
	// Workers is how many goroutines computed successors.
	Workers int
	// ShortestStates is the distinct states of the second search that
	// finds a shortest path to a violation the ample sets found (0: none).
	ShortestStates int64
	// With Config.Liveness: Lasso is the first fair cycle found on which
	// a promise stays owed for ever (nil: none); Live the figures of the
	// liveness pass.
	Lasso *Lasso
	Live  LiveStats
	// AtEnds are the properties judged only where a path ends, those not
	// carried in the states (no check.Snapshot): at each terminal state,
	// on the one path that first reached it. A verdict of theirs that
	// depends on the path taken, not only on the state reached, is judged
	// on that path alone; with no terminal state, they are not judged.
	AtEnds []check.ID
}

// Progress is a running search's figures (Config.Progress).
type Progress struct {
	Distinct int64         // distinct states so far
	Elapsed  time.Duration // since the search began
	Frontier int           // states queued and not yet expanded
	Depth    int           // of the level being expanded
	Heap     uint64        // the live Go heap and the search's tables held off it
}

// StatesPerSecond is distinct states per second so far.
func (p Progress) StatesPerSecond() float64 {
	if p.Elapsed <= 0 {
		return 0
	}
	return float64(p.Distinct) / p.Elapsed.Seconds()
}

// Omission is the chance that among n distinct states two share a 64-bit
// fingerprint (so that what only the second leads to goes unexplored):
// about n²/2⁶⁵.
func Omission(n int64) float64 { return float64(n) * float64(n) / (1 << 65) }

// StatesPerSecond is distinct states per second of wall clock.
func (r Result) StatesPerSecond() float64 {
	if r.Elapsed <= 0 {
		return 0
	}
	return float64(r.Distinct) / r.Elapsed.Seconds()
}

// For builds alg's checked System (alg.ForCheck) from p in env and the
// Config that searches it: the System's nodes, script, workload and state
// constraint, and its properties, built afresh (by Build again) for every
// terminal state judged. The search's own bounds and options are left for
// the caller to set.
func For(alg engine.Algorithm, p engine.Params, env engine.Env) (engine.System, Config, error) {
	alg = alg.ForCheck()
	sys, err := alg.Build(p, env)
	if err != nil {
		return sys, Config{}, err
	}
	fresh := func() []check.Property {
		again, err := alg.Build(p, env)
		if err != nil { // it built once from the same parameters
			panic(fmt.Sprintf("statespace: %s built once, then failed: %v", alg.Name, err))
		}
		return again.Properties
	}
	return sys, Config{System: sys, Checks: fresh}, nil
}

// AtEnds are the properties of cfg that a search judges only where a path
// ends (Result.AtEnds), known before it runs: a caller can refuse a check
// whose runs never end and that asks for one of them alone.
func AtEnds(cfg Config) []check.ID { return atEnds(cfg) }
