package mutex

import (
	"bytes"
	"context"
	"io"
	"strings"
	"testing"

	"github.com/urfave/cli/v2"

	"ringlab/engine/cliutil"
	"ringlab/internal/clitest"

	rcli "ringlab/engine/cli"
	"ringlab/engine/sim"
	"ringlab/mutex/central"
	"ringlab/mutex/kit"
	"ringlab/mutex/lamport"
	"ringlab/mutex/ricart"
)

// runSim runs p under the standard workload on the simulator and returns
// the figures, the messages sent and the run's error.
func runSim(t *testing.T, pl plan, requests int, cs, think int64, latency sim.Delay, seed uint64) (*stats, int64, error) {
	t.Helper()
	spec, last := newSpec("test", pl, kit.NewWorkload(pl.kit(), requests, cs, think))
	opts := rcli.Options{Runtime: "sim", Seed: seed, Format: "none", Latency: latency, MaxSteps: 10_000_000}
	out, err := rcli.Execute(context.Background(), spec, opts, "test", io.Discard, io.Discard)
	return last, out.Summary.Messages, err
}

// Exact messages per entry, whatever the latencies and the contention:
// central 4; Ricart-Agrawala 2(N-1), and 3(N-1) with the course variant's
// RELEASE broadcast; Lamport 3(N-1) (on FIFO links).
func TestExactMessagesPerEntry(t *testing.T) {
	seeds := uint64(20)
	if testing.Short() {
		seeds = 4
	}
	for _, tc := range []struct {
		name string
		plan func(n int) (plan, error)
		want func(n int) int64
	}{
		{"central", func(n int) (plan, error) { return centralPlan(central.Config{N: n}) }, func(int) int64 { return 4 }},
		{"ricart-agrawala", func(n int) (plan, error) { return ricartPlan(ricart.Config{N: n}) }, func(n int) int64 { return int64(2 * (n - 1)) }},
		{"ricart-agrawala --release-broadcast", func(n int) (plan, error) { return ricartPlan(ricart.Config{N: n, ReleaseBroadcast: true}) },
			func(n int) int64 { return int64(3 * (n - 1)) }},
		{"lamport", func(n int) (plan, error) { return lamportPlan(lamport.Config{N: n}) }, func(n int) int64 { return int64(3 * (n - 1)) }},
	} {
		for _, n := range []int{2, 3, 5, 9} {
			pl, err := tc.plan(n)
			if err != nil {
				t.Fatal(err)
			}
			for seed := uint64(1); seed <= seeds; seed++ {
				st, msgs, err := runSim(t, pl, 4, int64(seed%3), int64(seed%5), sim.Delay{Min: 1, Max: 1 + int64(seed%7)}, seed)
				if err != nil {
					t.Fatalf("%s n=%d seed %d: %v", tc.name, n, seed, err)
				}
				if st.entries != int64(4*len(pl.requesters)) || msgs != st.entries*tc.want(n) {
					t.Fatalf("%s n=%d seed %d: %d messages for %d entries, want %d per entry",
						tc.name, n, seed, msgs, st.entries, tc.want(n))
				}
			}
		}
	}
}

// The comparison's exact figures (latency 1 = one hop, saturated): central
// 4 messages and a synchronization delay of 2 hops (RequestFree, then
// ResponseOK); the token ring 1 message and 1 hop; Ricart-Agrawala 2(N-1)
// and 1 hop (the deferred REPLY); Lamport 3(N-1) and 1 hop (the RELEASE);
// an uncontended entry takes 2 hops in every algorithm with a request and
// an answer. At N = 3, over every schedule of one request each, central,
// Ricart-Agrawala and Lamport send exactly their formula per entry, a
// waiting process sees at most the N-1 = 2 others enter, and at most 3
// (central: the three requests) or 6 (the N(N-1) REQUESTs) messages are
// in flight at once; at N = 5 none of that is computed.
//
// The command runs at N = 5; the rows at N = 3 are measured as it
// measures them (compareOne), but for quorum: its figures over every
// schedule at N = 3 take the longest of the whole package under -race,
// and its row at N = 3 (these figures and those) is the root package's
// TestREADMEOutputs', in mutex/README.md's `mutex compare --nodes 3,5,9`.
func TestCompareFigures(t *testing.T) {
	out, _, code := runCLI(t, "compare", "--nodes", "5", "--requests", "10", "--format", "json")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	var rows []row
	for _, a := range list() {
		if a.name == "quorum" {
			continue
		}
		r, err := compareOne(context.Background(), a, 3, 10, 1, 0)
		if err != nil {
			t.Fatalf("%s at N=3: %v", a.name, err)
		}
		rows = append(rows, r)
	}
	var three bytes.Buffer
	if err := printRows(&three, rows, "json"); err != nil {
		t.Fatal(err)
	}
	out += three.String()
	for _, want := range []string{
		`"algorithm":"central","n":5,"msgs_per_entry":4,"theory":"4","sync_delay_hops":2,"response_light_hops":2,`,
		`"algorithm":"token-ring","n":5,"msgs_per_entry":1,"theory":"1..N = 1..5","sync_delay_hops":1,`,
		`"algorithm":"ricart-agrawala","n":5,"msgs_per_entry":8,"theory":"2(N-1) = 8","sync_delay_hops":1,"response_light_hops":2,`,
		`"algorithm":"lamport","n":5,"msgs_per_entry":12,"theory":"3(N-1) = 12","sync_delay_hops":1,"response_light_hops":2,`,
		`"algorithm":"quorum","n":5,"msgs_per_entry":15,"theory":"2n+m..3n = 13..15","sync_delay_hops":2,"response_light_hops":2,`,
		`"algorithm":"central","n":3,`, `"msgs_per_entry_every_schedule_min":4,"msgs_per_entry_every_schedule_max":4,"most_overtaken_every_schedule":2,"most_in_flight_every_schedule":3}`,
		`"msgs_per_entry_every_schedule_min":4,"msgs_per_entry_every_schedule_max":4,"most_overtaken_every_schedule":2,"most_in_flight_every_schedule":6}`,
		`"msgs_per_entry_every_schedule_min":6,"msgs_per_entry_every_schedule_max":6,"most_overtaken_every_schedule":2,"most_in_flight_every_schedule":6}`,
		`"algorithm":"ricart-agrawala","n":5,`, `"msgs_per_entry_every_schedule_min":-1,"msgs_per_entry_every_schedule_max":-1,"most_overtaken_every_schedule":-1,"most_in_flight_every_schedule":-1}`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("compare lacks %s in:\n%s", want, out)
		}
	}
	if strings.Contains(out, `"problem"`) {
		t.Errorf("a comparison run failed a verdict:\n%s", out)
	}
}

// The quorum formula gives ~7.35e-59 for n=32, m=24, P=0.0001; the
// simulated trials agree with it for n=5, m=3, P=0.3 (P_v = 1 - 0.7^3 =
// 0.657). The seed is fixed, so the estimate is the same on every run and
// the check cannot flake; with 2000 trials the Wilson interval is about
// ±0.02 wide.
func TestQuorumProbability(t *testing.T) {
	out, _, code := runCLI(t, "quorum-probability", "--n", "32", "--m", "24", "--p", "0.0001")
	if code != 0 || !strings.Contains(out, "= 7.35e-59") {
		t.Fatalf("exit %d:\n%s", code, out)
	}
	out, _, code = runCLI(t, "quorum-probability", "--n", "5", "--m", "3", "--p", "0.3", "--monte-carlo", "2000", "--seed", "1")
	if code != 0 || !strings.Contains(out, "= 0.657") || !strings.Contains(out, "formula inside: yes") {
		t.Fatalf("exit %d:\n%s", code, out)
	}
	// No violation is possible when fewer than 2m-n coordinators can forget.
	if bad, _, err := monteCarlo(t.Context(), 5, 3, 0, 200, 1); err != nil || bad != 0 {
		t.Fatalf("P=0: %d violations, %v", bad, err)
	}
	if bad, _, err := monteCarlo(t.Context(), 5, 3, 1, 50, 1); err != nil || bad != 50 {
		t.Fatalf("P=1: %d of 50 violations, %v", bad, err)
	}
}

// Ctrl-C stops the Monte Carlo trials: the command prints the estimate over
// the trials run so far, says it was interrupted, and exits 130.
func TestQuorumProbabilityStops(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	var out, errb bytes.Buffer
	err := clitest.Run(ctx, []*cli.Command{Command()}, &out, &errb,
		[]string{"ringlab", "mutex", "quorum-probability", "--n", "5", "--m", "3", "--p", "0.3", "--monte-carlo", "1000000"})
	if cliutil.Code(err) != cliutil.ExitInterrupted || !strings.Contains(out.String(), "Monte Carlo: interrupted after 0 of 1000000 trials") {
		t.Fatalf("exit %d (%v):\n%s", cliutil.Code(err), err, out.String())
	}
	// Stopped part-way, the estimate covers the trials run in full.
	ctx, cancel = context.WithCancel(t.Context())
	defer cancel()
	bad, done, err := monteCarlo(ctx, 5, 3, 1, 50, 1)
	if err != nil || done != 50 || bad != 50 {
		t.Fatalf("uncancelled: %d of %d, %v", bad, done, err)
	}
	cancel()
	if bad, done, err = monteCarlo(ctx, 5, 3, 1, 50, 1); err != nil || done != 0 || bad != 0 {
		t.Fatalf("cancelled: %d of %d, %v", bad, done, err)
	}
}

// explore finds the violations the chapter says exist, and none in the
// correct algorithms under their assumptions (FIFO links, no crashes; the
// quorum with its retry timer). 10,000 schedules per algorithm were run by
// hand (README); the test keeps the package under -race fast.
func TestExplore(t *testing.T) {
	schedules := "2000"
	if testing.Short() {
		schedules = "50"
	}
	common := []string{"--nodes", "3", "--requests", "2", "--latency", "1-10", "--schedules", schedules, "--format", "none", "--seed", "1"}
	for _, a := range Area().Names() {
		args := append([]string{"explore", a}, common...)
		if a == "quorum" {
			args = append(args, "--retry-timeout", "60")
		}
		out, errb, code := runCLI(t, args...)
		if code != 0 || out != "" || !strings.HasPrefix(errb, "no violation in "+schedules+" schedules") { // --format none: all on stderr
			t.Errorf("%v: exit %d\n%s%s", args, code, out, errb)
		}
	}
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"lamport", "--policy", "random"}, 3, "violated"},
		{[]string{"ricart-agrawala", "--reply-timeout", "3", "--cs-time", "5"}, 3, "mutual exclusion violated"},
		{[]string{"central", "--grant-timeout", "3", "--cs-time", "5"}, 3, "mutual exclusion violated"},
		{[]string{"token-ring", "--regen-timeout", "3", "--cs-time", "5"}, 3, "violated"},
		{[]string{"quorum", "--coordinators", "3", "--cs-time", "8", "--crash", "2@4", "--restart", "2@5"}, 3, "mutual exclusion violated"},
		{[]string{"quorum", "--coordinators", "3"}, 4, "no progress: no deadlock violated"},
	} {
		args := append(append([]string{"explore"}, tc.args...), common...)
		out, errb, code := runCLI(t, args...)
		if code != tc.code || !strings.Contains(errb, tc.want) || !strings.Contains(errb, "violation found by schedule") {
			t.Errorf("%v: exit %d (want %d), want %q:\n%s%s", args, code, tc.code, tc.want, head(out), errb)
		}
	}
}

func head(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i+1]
	}
	return s
}
