package cli

import (
	"bytes"
	"context"
	"slices"
	"strings"
	"testing"

	ucli "github.com/urfave/cli/v2"

	"ringlab/engine"
	"ringlab/engine/cliutil"
	"ringlab/engine/internal/nodetest"
	"ringlab/engine/node"
	"ringlab/engine/trace"
	"ringlab/internal/clitest"
)

// builds records what every Build of the seeded algorithm was given.
type builds struct {
	envs   []engine.Env
	params []engine.Params
	late   int64 // the latest tick a message was received at, in the last run
}

// seeded passes a token round a ring; it draws its hops from env.Seed
// (as an election draws a random layout), pins them with --layout-seed
// for explore, and with --lag asks the simulator to slow node 2.
func (b *builds) seeded() engine.Algorithm {
	return engine.Algorithm{
		Name: "seeded",
		Params: []engine.Param{
			{Name: "layout-seed", Default: uint64(0)},
			{Name: "lag", Default: false},
		},
		Build: func(p engine.Params, env engine.Env) (engine.System, error) {
			b.envs, b.params = append(b.envs, env), append(b.params, p)
			b.late = 0
			sys := engine.System{
				Name: "toy seeded", Nodes: 3, Factory: nodetest.PassFactory(3, 6), Messages: nodetest.MessageTypes(),
				Script:       []node.Action{{At: 0, Node: 1, Cmd: node.CmdStart}},
				ObserveKinds: trace.KindsOf(trace.KindRecv),
				Observe:      func(e *trace.Event) { b.late = max(b.late, e.T) },
			}
			if p.Bool("lag") {
				sys.Slow = []engine.Slow{{Node: 2, Extra: 50, From: 0, Until: 1 << 40}}
			}
			return sys, nil
		},
		Pin: func(p engine.Params, env engine.Env) map[string]string {
			if p.Given("layout-seed") {
				return nil
			}
			return map[string]string{"layout-seed": "77"}
		},
	}
}

func (b *builds) run(t *testing.T, args ...string) (string, error) {
	t.Helper()
	area := Area{Name: "toy", Algorithms: []engine.Algorithm{b.seeded()}}
	var out, errb bytes.Buffer
	err := clitest.Run(context.Background(), []*ucli.Command{area.Command()}, &out, &errb, append([]string{"ringlab", "toy"}, args...))
	return out.String() + errb.String(), err
}

// A seed explore draws is drawn once: every System it builds (the first,
// one per schedule for its properties, the replay's) is built for the
// same seed, so a layout drawn from it is one layout.
func TestExploreDrawsItsSeedOnce(t *testing.T) {
	var b builds
	if _, err := b.run(t, "explore", "seeded", "--schedules", "5"); err != nil {
		t.Fatal(err)
	}
	if len(b.envs) < 3 {
		t.Fatalf("explore built %d Systems; want one per schedule and the first", len(b.envs))
	}
	for _, env := range b.envs[1:] {
		if env.Seed != b.envs[0].Seed {
			t.Fatalf("explore built Systems for seeds %d and %d", b.envs[0].Seed, env.Seed)
		}
	}
}

// What Pin names is given to every System explore builds after the
// first, and written in the line that repeats the sweep.
func TestExplorePins(t *testing.T) {
	var b builds
	out, err := b.run(t, "explore", "seeded", "--schedules", "3")
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range b.params[1:] {
		if !p.Given("layout-seed") || p.Uint64("layout-seed") != 77 {
			t.Fatalf("a System built after the first lacks the pinned --layout-seed 77")
		}
	}
	if !strings.Contains(out, "repeat with: ringlab toy explore seeded --layout-seed 77 --schedules 3 --seed ") {
		t.Fatalf("the sweep's replay lacks the pin:\n%s", out)
	}
}

// The user's --crash and --restart reach Build as Env.Faults.
func TestBuildGetsTheScriptedFaults(t *testing.T) {
	var b builds
	if _, err := b.run(t, "seeded", "--crash", "3@40", "--restart", "3@50", "--seed", "1", "--format", "none"); err != nil {
		t.Fatal(err)
	}
	want := []node.Action{{At: 40, Node: 3, Cmd: node.CmdCrash}, {At: 50, Node: 3, Cmd: node.CmdRestart}}
	if got := b.envs[0].Faults; !slices.Equal(got, want) {
		t.Fatalf("Env.Faults = %+v, want %+v", got, want)
	}
}

// A System's slow links slow the simulator's run, and the exhaustive
// checker, which has no time, refuses them.
func TestSlowLinks(t *testing.T) {
	var b builds
	if _, err := b.run(t, "seeded", "--seed", "1", "--format", "none"); err != nil {
		t.Fatal(err)
	}
	fast := b.late
	if _, err := b.run(t, "seeded", "--lag", "--seed", "1", "--format", "none"); err != nil {
		t.Fatal(err)
	}
	if b.late < fast+50 {
		t.Fatalf("with node 2 slowed by 50 ticks the last message arrives at t=%d (t=%d without)", b.late, fast)
	}
	_, err := b.run(t, "check", "seeded", "--lag")
	if cliutil.Code(err) != cliutil.ExitUsage || !strings.Contains(err.Error(), "slow links") {
		t.Fatalf("check of a System with slow links: %v (exit %d), want exit 2 naming the slow links", err, cliutil.Code(err))
	}
}
