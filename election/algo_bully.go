package election

import (
	"cmp"
	"fmt"
	"slices"

	"ringlab/election/bully"
	"ringlab/engine"
	"ringlab/engine/check"
	"ringlab/engine/cliutil"
	"ringlab/engine/node"
	"ringlab/engine/trace"
)

// Bully's named scenarios (election/README.md, "Bully: the worked example
// and split-brain").
const (
	scenarioChapter    = "chapter"     // the worked example: 5 down, 2 and 3 start, then 1; 4 wins
	scenarioSplitBrain = "split-brain" // a reply timeout shorter than the round trip to a slow 5
)

func bullyAlgo() entry {
	return entry{
		name:  "bully",
		usage: "Bully: ELECTION to higher ids, OK, COORD; timers are engine ticks; the highest live id wins (Garcia-Molina 1982)",
		description: "--scenario chapter is the chapter's worked example: ids 1..5, 5 crashed at tick 0,\n" +
			"2 and 3 start at tick 0, 1 at tick 2; 4 answers both, 5 never answers, 4 sends COORD.\n" +
			"--scenario split-brain is the package doc's run: reply timeout 3, messages to 5 take\n" +
			"5 ticks (engine --slow 5+4), 4 starts: 4 declares at tick 3, 5 at tick 5 — two leaders,\n" +
			"exit 3. Default timeouts outlast a round trip at the largest --latency. A crash given\n" +
			"with --crash is noticed --reply-timeout ticks later by the live node with the lowest\n" +
			"index, which starts an election; the leader must be the highest id alive at the end.",
		example: "ringlab election bully --scenario chapter\n   ringlab election bully --scenario split-brain   (two leaders: exit 3)",
		exploreExample: "ringlab election explore bully --initiators 4 --reply-timeout 3 --latency 1-4 --schedules 200   (finds split-brain)\n" +
			"   ringlab election explore bully --initiators 1 --latency 1-4 --schedules 500   (safe timeouts: none)",
		checkExample: "ringlab election check bully --nodes 3 --initiators 1 --timers quiet\n" +
			"   ringlab election check bully --nodes 3 --initiators 2   (a timeout shorter than a message: two leaders)",
		def: defaults{initiators: "1", nodes: 5, minNodes: 1, positive: true},
		params: []engine.Param{
			{Name: "scenario", Default: "", Usage: "a named run: chapter (the worked example) or split-brain (too short a timeout)"},
			{Name: "reply-timeout", Default: int64(0), DefaultText: "longer than a round trip", Usage: "ticks to wait for an OK before sending COORD"},
			{Name: "coord-timeout", Default: int64(0), DefaultText: "safe", Usage: "ticks to wait for COORD after an OK before a new election"},
		},
		build: buildBully,
	}
}

func buildBully(p engine.Params, env engine.Env, s setup) (engine.System, error) {
	cfg := bully.Config{Ids: s.ids}
	cfg.ReplyTimeout, cfg.CoordTimeout = bully.SafeTimeouts(env.MaxDelay)
	script := starts(s)
	var slow []engine.Slow
	switch sc := p.String("scenario"); sc {
	case "":
	case scenarioChapter, scenarioSplitBrain:
		for _, f := range []string{"ids", "nodes", "layout", "initiators"} {
			if p.Given(f) {
				return engine.System{}, cliutil.Usagef("--scenario %s fixes ids 1..5 and who starts; drop --%s", sc, f)
			}
		}
		cfg.Ids = []int{1, 2, 3, 4, 5}
		s.ids = cfg.Ids
		if sc == scenarioChapter {
			cfg.ReplyTimeout, cfg.CoordTimeout = 3, 10
			script = []node.Action{{At: 0, Node: 5, Cmd: node.CmdCrash}, {At: 0, Node: 2, Cmd: node.CmdStart},
				{At: 0, Node: 3, Cmd: node.CmdStart}, {At: 2, Node: 1, Cmd: node.CmdStart}}
			break
		}
		if env.Runtime != "sim" {
			return engine.System{}, cliutil.Usagef("--scenario split-brain slows node 5 with the simulator's --slow; use --runtime sim")
		}
		cfg.ReplyTimeout, cfg.CoordTimeout = 3, 20
		script = []node.Action{{At: 0, Node: 4, Cmd: node.CmdStart}}
		slow = []engine.Slow{{Node: 5, Extra: 4, From: 0, Until: 1 << 40}}
	default:
		return engine.System{}, cliutil.Usagef("--scenario: unknown scenario %q (want %s or %s)", sc, scenarioChapter, scenarioSplitBrain)
	}
	for _, f := range []struct {
		name string
		v    *int64
	}{{"reply-timeout", &cfg.ReplyTimeout}, {"coord-timeout", &cfg.CoordTimeout}} {
		if p.Given(f.name) {
			*f.v = p.Int64(f.name)
			if *f.v < 1 || *f.v > 1_000_000 {
				return engine.System{}, cliutil.Usagef("--%s must be 1..1000000 ticks, got %d", f.name, *f.v)
			}
		}
	}
	f, err := bully.Factory(cfg)
	if err != nil {
		return engine.System{}, cliutil.Usagef("--ids: %v", err)
	}
	script = append(script, noticeCrashes(len(cfg.Ids), cfg.ReplyTimeout, script, env.Faults)...)
	ids := cfg.Ids
	n := len(cfg.Ids)
	return engine.System{
		Factory: f, Messages: bully.MessageTypes(), Script: script, Names: idNames(cfg.Ids), Topology: trace.TopoComplete, Slow: slow,
		Properties: []check.Property{NewTermination(n, ids), NewUniqueness(ids), NewAgreement(n, ids), NewHighestLive(ids)},
		Figures: func(*trace.Summary) map[string]any {
			return map[string]any{
				"timeouts": fmt.Sprintf("reply %d ticks, coordinator %d ticks", cfg.ReplyTimeout, cfg.CoordTimeout),
				"theory":   fmt.Sprintf("the lowest starting, all alive: n(n-1)/2 = %d ELECTION and as many OK", bully.ElectionMessages(n)),
			}
		},
	}, nil
}

// noticeCrashes models the failure detector the chapter takes for granted:
// a crash given with --crash is noticed, reply-timeout ticks later, by the
// live node with the lowest index, which suspects the leader and starts an
// election (as a process does when the coordinator stops answering). So a
// leader that crashes after the election is replaced, and the run ends
// with the highest id still alive in charge. Crashes of the workload
// (scenario) scripts are not noticed: their runs are the chapter's own.
func noticeCrashes(n int, after int64, workload, faults []node.Action) []node.Action {
	all := append(slices.Clone(workload), faults...)
	slices.SortStableFunc(all, func(a, b node.Action) int { return cmp.Compare(a.At, b.At) })
	var starts []node.Action
	for _, f := range faults {
		if f.Cmd != node.CmdCrash {
			continue
		}
		at := f.At + after
		dead := map[int]bool{} // at the time of the notice
		for _, a := range all {
			if a.At > at {
				break
			}
			switch a.Cmd {
			case node.CmdCrash:
				dead[a.Node] = true
			case node.CmdRestart:
				delete(dead, a.Node)
			}
		}
		for i := 1; i <= n; i++ {
			if !dead[i] {
				starts = append(starts, node.Action{At: at, Node: i, Cmd: node.CmdStart})
				break
			}
		}
	}
	return starts
}
