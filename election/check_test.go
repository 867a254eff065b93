package election

import (
	"context"
	"encoding/json"
	"fmt"
	"ringlab/engine"
	"strings"
	"testing"

	"ringlab/election/anonymous"
	"ringlab/election/bully"
	"ringlab/election/changroberts"
	"ringlab/election/franklin"
	"ringlab/election/idlist"
	"ringlab/election/smallestid"
	"ringlab/election/yoyo"
	"ringlab/engine/cliutil"
	"ringlab/engine/node"
	"ringlab/engine/sim"
	"ringlab/engine/statespace"
)

// checkReplays runs a check that must find a violation after exactly
// steps steps, with the detail its replayed trace shows, runs the replay
// command it printed, and compares the replay's output with the check's
// trace byte for byte.
func checkReplays(t *testing.T, steps int, args ...string) {
	t.Helper()
	r := runCLI(t, args...)
	if r.code != cliutil.ExitViolation {
		t.Fatalf("%v: exit %d, want %d\n%s\n%s", args, r.code, cliutil.ExitViolation, r.out, r.errb)
	}
	head, trace, ok := strings.Cut(r.out, "\n\n")
	if !ok {
		t.Fatalf("no trace after the figures:\n%s", r.out)
	}
	want := fmt.Sprintf(" after %d steps (a shortest path)", steps)
	if !strings.Contains(head, want) {
		t.Errorf("%v: want a violation%s, got:\n%s", args, want, head)
	}
	// The check judges with the run's own properties: the violation it
	// reports is, word for word, the one the replayed trace shows.
	for line := range strings.SplitSeq(head, "\n") {
		if v, ok := strings.CutPrefix(line, "result: VIOLATION of "); ok {
			prop, rest, _ := strings.Cut(v, " after ")
			_, detail, _ := strings.Cut(rest, "(a shortest path): ")
			if !strings.Contains(trace, prop+": "+detail+"\n") {
				t.Errorf("%v: the check reports %q, which the replayed trace does not show:\n%s", args, prop+": "+detail, trace)
			}
		}
	}
	// The full search, without the partial-order reduction, finds one
	// as short.
	if full := runCLI(t, append(args[:len(args):len(args)], "--por=false")...); !strings.Contains(full.out, want) {
		t.Errorf("%v --por=false: want a violation%s, got:\n%s", args, want, full.out)
	}
	var replay string
	for line := range strings.SplitSeq(head, "\n") {
		if v, ok := strings.CutPrefix(line, "replay: "); ok {
			replay = v
		}
	}
	rr := runCLI(t, strings.Fields(strings.TrimPrefix(replay, "ringlab election "))...)
	if rr.code != cliutil.ExitViolation {
		t.Fatalf("replay %q: exit %d\n%s\n%s", replay, rr.code, rr.out, rr.errb)
	}
	if rr.out != trace {
		t.Errorf("replay %q differs from the check's trace:\n--- check\n%s\n--- replay\n%s", replay, trace, rr.out)
	}
}

// The chapter's election warnings as shortest counterexamples.
func TestCheckFindsShortestCounterexamples(t *testing.T) {
	// the anonymous ring: two candidates both win
	checkReplays(t, 8, "check", "anonymous", "--nodes", "3", "--initiators", "all")
	// Bully: a reply timeout that fires before the OK arrives
	checkReplays(t, 3, "check", "bully", "--nodes", "3", "--initiators", "2")
	// YoYo on a graph split in two: each piece elects its own leader
	checkReplays(t, 10, "check", "yoyo", "--graph", "1-2,3-4", "--allow-disconnected")
}

// subsets lists every non-empty set of initiators of n nodes, as flags.
func subsets(n int) []string {
	var out []string
	for mask := 1; mask < 1<<n; mask++ {
		var parts []string
		for i := range n {
			if mask&(1<<i) != 0 {
				parts = append(parts, fmt.Sprint(i+1))
			}
		}
		out = append(out, strings.Join(parts, ","))
	}
	return out
}

// The correct elections exhaust their small spaces with no violation: the
// specification's ring and Chang-Roberts at N = 4 and 5 with every initiator set,
// Franklin, Bully (timeouts longer than any delay) and YoYo at small N;
// with the partial-order reduction and without it, to the same verdict and
// terminal states.
func TestCheckExhaustsCorrectElections(t *testing.T) {
	var runs [][]string
	for _, n := range []int{4, 5} {
		for _, init := range subsets(n) {
			for _, algo := range []string{"ring", "chang-roberts"} {
				runs = append(runs, []string{algo, "--nodes", fmt.Sprint(n), "--layout", "random", "--initiators", init})
			}
		}
	}
	runs = append(runs,
		[]string{"ring", "--initiators", "all", "--fix", "extinction"},
		[]string{"franklin", "--nodes", "4", "--layout", "random"},
		[]string{"bully", "--nodes", "3", "--initiators", "1,2", "--timers", "quiet"},
		[]string{"bully", "--nodes", "4", "--initiators", "1", "--timers", "quiet"},
		[]string{"yoyo", "--graph", "1-2,2-3,3-1"},
		[]string{"yoyo", "--graph", "1-2,2-3,3-4", "--ids", "3,1,4,2"},
	)
	if testing.Short() {
		runs = runs[len(runs)-8:]
	}
	for _, args := range runs {
		var figs [2]checkFigures
		for k, por := range []string{"--por=true", "--por=false"} {
			r := runCLI(t, append([]string{"check", args[0], "--format", "json", por}, args[1:]...)...)
			if err := json.Unmarshal([]byte(r.out), &figs[k]); r.code != 0 || err != nil || !figs[k].Exhausted || figs[k].Property != "" {
				t.Errorf("%v %s: exit %d (%v)\n%s\n%s", args, por, r.code, err, r.out, r.errb)
			}
		}
		on, off := figs[0], figs[1]
		if on.Terminal != off.Terminal || on.Distinct > off.Distinct {
			t.Errorf("%v: with the reduction %+v, without %+v", args, on, off)
		}
	}
}

// checkFigures is what these tests read of a check's JSON figures.
type checkFigures struct {
	Distinct, Terminal int64
	Exhausted          bool
	Property           string
}

// Every election node's Clone is independent of its original and its key
// is canonical: every state of a small space (random delivery order, one
// crash and one restart), rebuilt from the start along its path, has the
// key the search computed.
func TestSnapshotsAreIndependent(t *testing.T) {
	ids := []int{3, 1, 4, 2}
	edges, n, err := parseEdges("1-2,2-3,3-4,4-1")
	if err != nil {
		t.Fatal(err)
	}
	topo, err := graphOf(n, edges)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		f    func() (node.Factory, error)
	}{
		{"ring", func() (node.Factory, error) { return smallestid.Factory(smallestid.Ring{IDs: ids}) }},
		{"anonymous", func() (node.Factory, error) { return anonymous.Factory(len(ids)) }},
		{"idlist", func() (node.Factory, error) { return idlist.Factory(ids) }},
		{"chang-roberts", func() (node.Factory, error) { return changroberts.Factory(ids) }},
		{"franklin", func() (node.Factory, error) { return franklin.Factory(franklin.Config{Ids: ids}) }},
		{"bully", func() (node.Factory, error) {
			return bully.Factory(bully.Config{Ids: ids, ReplyTimeout: 3, CoordTimeout: 5})
		}},
		{"yoyo", func() (node.Factory, error) { return yoyo.Factory(yoyo.Config{Topology: topo, Ids: ids}) }},
	} {
		f, err := tc.f()
		if err != nil {
			t.Fatal(err)
		}
		var script []node.Action
		for i := 1; i <= len(ids); i++ {
			script = append(script, node.Action{Node: i, Cmd: node.CmdStart})
		}
		cfg := statespace.Config{System: engine.System{Nodes: len(ids), Factory: f, Script: script}, POR: true, CheckClones: true,
			MaxStates: 3000, Crashes: 1, Restarts: 1, Policy: sim.PolicyRandom}
		if _, err := statespace.Search(context.Background(), cfg); err != nil {
			t.Errorf("%s: %v", tc.name, err)
		}
	}
	// YoYo's votes come late: the whole space of a triangle, no faults.
	tri, err := graphOf(3, [][2]int{{1, 2}, {2, 3}, {3, 1}})
	if err != nil {
		t.Fatal(err)
	}
	f, err := yoyo.Factory(yoyo.Config{Topology: tri, Ids: []int{2, 3, 1}})
	if err != nil {
		t.Fatal(err)
	}
	cfg := statespace.Config{System: engine.System{Nodes: 3, Factory: f, Script: []node.Action{{Node: 1, Cmd: node.CmdStart}, {Node: 2, Cmd: node.CmdStart}, {Node: 3, Cmd: node.CmdStart}}}, POR: true, CheckClones: true, Policy: sim.PolicyRandom}
	if res, err := statespace.Search(context.Background(), cfg); err != nil || !res.Exhausted {
		t.Errorf("yoyo triangle: %v (exhausted %v)", err, res.Exhausted)
	}
}

// Completeness on the chapter's ring, counted by hand: with one initiator
// exactly one message is in flight at any time, so the states form one
// chain, as long as the simulator's run: its 8 steps (the start, then
// every delivery) give 9 states, 1 of them terminal.
func TestCheckRingWithOneInitiatorIsAChain(t *testing.T) {
	onSim := runCLI(t, "ring", "--ids", "3,1,2", "--initiators", "1", "--format", "none", "--seed", "1")
	onSim.want(t, 0, ": 8 steps,")
	r := runCLI(t, "check", "ring", "--ids", "3,1,2", "--initiators", "1")
	r.want(t, 0, "states: 9 distinct, 8 explored (0 by an ample set), 8 transitions, 1 terminal; depth 8", "result: exhausted, no violation")
}

// The help of every check command has a runnable example.
func TestCheckHelpHasExample(t *testing.T) {
	for _, a := range Algorithms() {
		r := runCLI(t, "check", a.Name, "--help")
		r.want(t, 0, "ringlab election check "+a.Name, "exhaustive")
	}
}
