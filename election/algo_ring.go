package election

import (
	"context"
	"fmt"
	"io"

	"ringlab/election/smallestid"
	"ringlab/engine"
	"ringlab/engine/cliutil"
	"ringlab/engine/lang"
	"ringlab/engine/sim"
	"ringlab/engine/trace"
)

// defaultRingIDs is the default configuration of the ring-election specification
// this command reproduces (election/README.md, "The ring election, rule by
// rule").
var defaultRingIDs = []int{5, 3, 7, 1, 4}

// maxCompareRun bounds the messages of the second run that shows the other
// variant's count (rules as written against --fix extinction).
const maxCompareRun = 5_000_000

func ringAlgo() entry {
	return entry{
		name:  "ring",
		usage: "the course's ring-election specification: six rules, four states, the smallest id wins",
		description: "Rules 1-6 as written (election/README.md, \"The ring election, rule by rule\").\n" +
			"With one initiator: d + n ELECTION and n ELECTED.\n" +
			"With several, rule 4 fires at the minimum once per initiator: the run counts it and,\n" +
			"with --fix extinction, shows the lab's fix (a node drops candidates it already beat).",
		example: "ringlab election ring --lang pt      (the specification's expected output, byte for byte)\n" +
			"   ringlab election ring --initiators all --fix extinction",
		exploreExample: "ringlab election explore ring --nodes 8 --layout random --initiators all --policy random --schedules 500",
		checkExample:   "ringlab election check ring --nodes 4 --initiators all",
		def:            defaults{ids: defaultRingIDs, initiators: "1", minNodes: 1},
		params: []engine.Param{
			{Name: "lang", Default: "en", Usage: "language of the text output (the specification's own words in pt) and of the verdict lines: en or pt (pt-BR)"},
			{Name: "fix", Default: "none", Usage: "none (the rules as written) or extinction (drop candidates already beaten)"},
		},
		build:   buildRing,
		compare: ringComparison(),
	}
}

func buildRing(p engine.Params, _ engine.Env, s setup) (engine.System, error) {
	l, err := lang.Parse(p.String("lang"))
	if err != nil {
		return engine.System{}, cliutil.FlagUsagef("lang", "--lang: %v", err)
	}
	var fix bool
	switch p.String("fix") {
	case "none":
	case "extinction":
		fix = true
	default:
		return engine.System{}, cliutil.Usagef("--fix: unknown fix %q (want none or extinction)", p.String("fix"))
	}
	f, err := smallestid.Factory(smallestid.Ring{IDs: s.ids, Extinction: fix})
	if err != nil {
		return engine.System{}, cliutil.Usagef("--ids: %v", err)
	}
	rule4 := 0
	spec := engine.System{
		Factory:    f,
		Messages:   smallestid.MessageTypes(),
		Script:     starts(s),
		Properties: verdicts(s.ids, minID(s.ids), "the smallest id"),
		Observe: func(e *trace.Event) {
			if e.Kind == trace.KindNote && e.Note == smallestid.NoteOwnID {
				rule4++
			}
		},
		ObserveKinds: trace.KindsOf(trace.KindNote),
		Text:         func(stdout, stderr io.Writer) trace.Renderer { return newSeedText(stdout, stderr, s.ids, l) },
		// the specification fixes the broker names and a timestamp in
		// every message, so that other programs written to it interoperate
		RingNames: true, WireTimestamp: true,
	}
	spec.Figures = func(*trace.Summary) map[string]any { return ringExtra(s, fix, rule4) }
	return spec, nil
}

// ringExtra reports rule 4's count, the theory, and, with several
// initiators, the other variant's measured counts (a second run on the
// simulator, FIFO, latency 1).
func ringExtra(s setup, fix bool, rule4 int) map[string]any {
	leader := indexOf(s.ids, minID(s.ids))
	e, l := smallestid.Messages(s.ids, s.starters)
	x := map[string]any{
		"rule 4 fired": fmt.Sprintf("%d time(s), at N%d (node %d)", rule4, minID(s.ids), leader),
		"theory":       fmt.Sprintf("rules as written: ELECTION sum(d_j + n) = %d, ELECTED k*n = %d (k = %d initiators)", e, l, len(s.starters)),
	}
	if fix {
		x["theory"] = fmt.Sprintf("with the fix: ELECTED n = %d, ELECTION <= %d (the rules as written send %d)", s.n(), e, e)
	}
	if len(s.starters) > 1 && e+l <= maxCompareRun {
		other := "--fix extinction"
		if fix {
			other = "--fix none"
		}
		oe, ol, o4 := ringOnSim(s, !fix)
		x["with "+other] = fmt.Sprintf("%d ELECTION, %d ELECTED, rule 4 fired %d time(s) (same initiators, simulator)", oe, ol, o4)
	}
	return x
}

// ringOnSim runs the ring quietly on the simulator and counts.
func ringOnSim(s setup, fix bool) (election, elected int64, rule4 int) {
	f, err := smallestid.Factory(smallestid.Ring{IDs: s.ids, Extinction: fix})
	if err != nil {
		return 0, 0, 0
	}
	sys := engine.System{Nodes: s.n(), Factory: f, Script: starts(s)}
	res, err := sim.Runtime{Seed: 1}.Run(context.Background(), sys, func(e *trace.Event) {
		if e.Kind == trace.KindNote && e.Note == smallestid.NoteOwnID {
			rule4++
		}
	})
	if err != nil {
		return 0, 0, 0
	}
	return res.ByType[smallestid.TypeElection], res.ByType[smallestid.TypeElected], rule4
}
