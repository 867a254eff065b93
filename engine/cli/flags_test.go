package cli

import (
	"bytes"
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	ucli "github.com/urfave/cli/v2"

	"ringlab/engine/cliutil"
	"ringlab/engine/live"
	"ringlab/engine/node"
	"ringlab/engine/sim"
)

// parse runs Parse for 4 nodes over a command line of engine flags (and,
// with explore, ExploreStart), as a command does.
func parse(t *testing.T, explore bool, args ...string) (Options, error) {
	t.Helper()
	return parseN(t, 4, explore, args...)
}

// parseN is parse for a run of n nodes.
func parseN(t *testing.T, n int, explore bool, args ...string) (Options, error) {
	t.Helper()
	var o Options
	var perr error
	flags := Flags()
	if explore {
		flags = append(flags, ExploreFlags()...)
	}
	app := &ucli.App{Name: "ringlab", Writer: &bytes.Buffer{}, ErrWriter: &bytes.Buffer{},
		Commands: []*ucli.Command{{Name: "x", Flags: flags, Action: func(c *ucli.Context) error {
			if o, perr = Parse(c, n); perr != nil || !explore {
				return perr
			}
			_, _, perr = ExploreStart(c, o, &bytes.Buffer{})
			return perr
		}}},
		ExitErrHandler: func(*ucli.Context, error) {},
	}
	if err := app.RunContext(context.Background(), append([]string{"ringlab", "x"}, args...)); err != nil && perr == nil {
		t.Fatalf("%v: %v", args, err)
	}
	return o, perr
}

// Contradictory or no-op flags are usage errors (exit 2) that say why.
func TestContradictoryFlagsAreRefused(t *testing.T) {
	for _, c := range []struct {
		args    []string
		explore bool
		want    string
	}{
		{[]string{"--restart", "2@5"}, false, "node 2 has no earlier --crash"},
		{[]string{"--crash", "3@5", "--restart", "2@9"}, false, "node 2 has no earlier --crash"},
		{[]string{"--crash", "2@5", "--restart", "2@3"}, false, "node 2 has no earlier --crash"},
		{[]string{"--crash", "2@5", "--restart", "2@5"}, false, "at the same tick as its crash"},
		{[]string{"--crash", "2@5", "--crash", "2@7"}, false, "down since its crash at tick 5"},
		{[]string{"--crash", "2@5", "--restart", "2@7", "--restart", "2@9"}, false, "node 2 has no earlier --crash"},
		{[]string{"--schedule", "1:2,4:1,1:3"}, false, "decision 1 is given twice"},
		{[]string{"--schedule", "0:1"}, true, "give it to the run command, not to explore"},
		{[]string{"--policy", "random", "--latency", "3"}, false, "none could overtake another; give a range such as --latency 3-12"},
		{[]string{"--partition", "1,2@30-5"}, false, "FROM < UNTIL"},
		{[]string{"--partition", "1,1@5-30"}, false, "node 1 is listed twice"},
	} {
		_, err := parse(t, c.explore, c.args...)
		if cliutil.Code(err) != cliutil.ExitUsage || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%v: err %v, want exit 2 with %q", c.args, err, c.want)
		}
	}
}

// The forms that make sense still parse: a crash and its later restart
// (twice over), a random policy with a range or its default, and
// multi-node partitions (whose commas the flag must not split on).
func TestConsistentFlagsParse(t *testing.T) {
	o, err := parse(t, false, "--crash", "2@5", "--restart", "2@7", "--crash", "2@9", "--restart", "2@12", "--crash", "1@1")
	if err != nil || len(o.Script) != 5 {
		t.Fatalf("crash/restart: %v, script %v", err, o.Script)
	}
	o, err = parse(t, false, "--crash", "2@5,3@6") // a list in one value still splits
	if err != nil || !slices.Equal(o.Script, []node.Action{{At: 5, Node: 2, Cmd: node.CmdCrash}, {At: 6, Node: 3, Cmd: node.CmdCrash}}) {
		t.Fatalf("--crash 2@5,3@6: %v, script %v", err, o.Script)
	}
	if o, err = parse(t, false, "--policy", "random"); err != nil || o.Latency != (sim.Delay{Min: 1, Max: 1}) {
		t.Fatalf("--policy random: %v %v", err, o.Latency)
	}
	if _, err = parse(t, false, "--policy", "random", "--latency", "2-5"); err != nil {
		t.Fatalf("--policy random --latency 2-5: %v", err)
	}
	o, err = parse(t, false, "--partition", "1,2@5-30", "--partition", "3, 4@40-50")
	want := []sim.Partition{{Group: []int{1, 2}, From: 5, Until: 30}, {Group: []int{3, 4}, From: 40, Until: 50}}
	if err != nil || len(o.Faults.Partitions) != 2 || !slices.Equal(o.Faults.Partitions[0].Group, want[0].Group) ||
		!slices.Equal(o.Faults.Partitions[1].Group, want[1].Group) || o.Faults.Partitions[1].Until != 50 {
		t.Fatalf("partitions: %v, %+v", err, o.Faults.Partitions)
	}
}

// The replay of a run with a multi-node partition repeats it.
func TestReplayKeepsPartitionsWhole(t *testing.T) {
	var replay string
	app := &ucli.App{Name: "ringlab", Commands: []*ucli.Command{{Name: "x", Flags: Flags(), Action: func(c *ucli.Context) error {
		replay = Replay(c, 7)
		return nil
	}}}}
	if err := app.Run([]string{"ringlab", "x", "--partition", "1,2@5-30", "--partition", "3@1-2"}); err != nil {
		t.Fatal(err)
	}
	if replay != "ringlab x --partition 1,2@5-30 --partition 3@1-2 --seed 7" {
		t.Fatalf("replay %q", replay)
	}
}

// The default --timeout grows with the run (a minute per 100,000 nodes),
// so that a correct million-node run is not cut at a minute; a --timeout
// given is kept as it is.
func TestDefaultTimeoutScales(t *testing.T) {
	for _, c := range []struct {
		n    int
		args []string
		want time.Duration
	}{
		{4, nil, time.Minute},
		{100_000, nil, time.Minute},
		{250_000, nil, 150 * time.Second},
		{1_000_000, nil, 10 * time.Minute},
		{1_000_000, []string{"--timeout", "3s"}, 3 * time.Second},
	} {
		o, err := parseN(t, c.n, false, c.args...)
		if err != nil || o.Timeout != c.want {
			t.Errorf("%d nodes %v: --timeout %v (%v), want %v", c.n, c.args, o.Timeout, err, c.want)
		}
	}
}

// --runtime live runs on the turn scheduler unless --scheduler says plain:
// the default must scale to a million nodes.
func TestDefaultSchedulerIsTurns(t *testing.T) {
	for args, want := range map[string]live.Scheduler{"": live.Turns, "plain": live.Plain, "turns": live.Turns} {
		a := []string{"--runtime", "live"}
		if args != "" {
			a = append(a, "--scheduler", args)
		}
		if o, err := parse(t, false, a...); err != nil || o.Scheduler != want {
			t.Errorf("%v: scheduler %v (%v), want %v", a, o.Scheduler, err, want)
		}
	}
}
