package election

import (
	"fmt"
	"math"

	"ringlab/election/anonymous"
	"ringlab/election/changroberts"
	"ringlab/election/franklin"
	"ringlab/election/idlist"
	"ringlab/engine"
	"ringlab/engine/check"
	"ringlab/engine/cliutil"
	"ringlab/engine/trace"
)

func anonymousAlgo() entry {
	return entry{
		name:  "anonymous",
		usage: `the chapter's "Anel 1": identical processes without ids; two candidates both win`,
		description: "One candidate: its vote and announcement each go round once (n + n messages), one\n" +
			"leader. Both candidates at once (--initiators all): every vote stops at the other\n" +
			"candidate, both end Installed, and the uniqueness checker reports it (exit 3):\n" +
			"symmetry cannot be broken without ids. Leaders are named by node index.",
		example:        "ringlab election anonymous --initiators all   (two leaders: exit 3)",
		exploreExample: "ringlab election explore anonymous --initiators all --schedules 100   (finds two leaders)",
		checkExample:   "ringlab election check anonymous --nodes 3 --initiators all   (two leaders)",
		def:            defaults{initiators: "1", nodes: 2, minNodes: 2},
		build: func(_ engine.Params, _ engine.Env, s setup) (engine.System, error) {
			f, err := anonymous.Factory(s.n())
			if err != nil {
				return engine.System{}, cliutil.Usagef("--nodes: %v", err)
			}
			first := s.starters[0]
			votes, leaders := anonymous.Messages(s.n())
			correct, sym := NewCorrectness(nil, first, "the candidate (named by its index)"), (*engine.Symmetry)(nil)
			if len(s.starters) == s.n() {
				// every process a candidate: nothing tells one place on the
				// ring from another, so the ring is symmetric under its
				// rotations, and any of them is a right leader
				correct, sym = NewAnyCorrectness("every process is a candidate"), &engine.Symmetry{Rotations: true}
			}
			return engine.System{
				Factory: f, Messages: anonymous.MessageTypes(), Script: starts(s),
				Names:      func(i int) string { return fmt.Sprintf("P%d", i) }, // no ids: processes by place
				Properties: []check.Property{NewTermination(s.n(), nil), NewUniqueness(nil), &anonAgreement{n: s.n()}, correct},
				Symmetry:   sym,
				Figures: func(*trace.Summary) map[string]any {
					return map[string]any{"theory": fmt.Sprintf("%d VoteForMe + %d WeHaveALeader when every candidate starts before a vote reaches it, whatever their number (a later start sends more)", votes, leaders)}
				},
			}, nil
		},
	}
}

func idlistAlgo() entry {
	return entry{
		name:  "idlist",
		usage: `the chapter's "Anel 2" (Le Lann): lists of ids go round, the smallest wins`,
		description: "Each initiator's list goes all the way round: k*n messages carrying k*n(n+1)/2 ids.\n" +
			"Only initiators decide, so agreement is checked among them.",
		example:        "ringlab election idlist --nodes 8 --layout random --initiators all --seed 1",
		exploreExample: "ringlab election explore idlist --nodes 8 --layout random --initiators all --policy random --schedules 500",
		checkExample:   "ringlab election check idlist --nodes 4 --initiators all",
		compare:        idlistComparison(),
		def:            defaults{ids: defaultRingIDs, initiators: "all", minNodes: 1},
		build: func(_ engine.Params, _ engine.Env, s setup) (engine.System, error) {
			f, err := idlist.Factory(s.ids)
			if err != nil {
				return engine.System{}, cliutil.Usagef("--ids: %v", err)
			}
			carried := 0
			msgs, ids := idlist.Messages(s.n(), len(s.starters))
			want := minID(s.ids)
			return engine.System{
				Factory: f, Messages: idlist.MessageTypes(), Script: starts(s),
				Properties: []check.Property{NewDecidedTermination(s.n(), s.ids), NewUniqueness(s.ids),
					&agreementAmong{nodes: s.starters, ids: s.ids}, NewCorrectness(s.ids, want, "the smallest id")},
				ObserveKinds: trace.KindsOf(trace.KindSend),
				Observe: func(e *trace.Event) {
					if e.Kind == trace.KindSend && e.Msg != nil {
						carried += listSize(e.Msg)
					}
				},
				Figures: func(*trace.Summary) map[string]any {
					return map[string]any{
						"ids carried": fmt.Sprintf("%d (message sizes; theory k*n(n+1)/2 = %d)", carried, ids),
						"theory":      fmt.Sprintf("k*n = %d LIST messages (k = %d initiators)", msgs, len(s.starters)),
					}
				},
			}, nil
		},
	}
}

func changRobertsAlgo() entry {
	return entry{
		name:  "chang-roberts",
		usage: "Chang and Roberts (1979): smaller ids are swallowed, the largest wins, then an announcement round",
		description: "With every node starting: worst case n(n+1)/2 (ids decreasing along the ring),\n" +
			"best 2n-1 (increasing), about n*H_n on average; the announcement adds n.",
		example:        "ringlab election chang-roberts --nodes 1000 --layout random --initiators all --seed 1 --format none",
		exploreExample: "ringlab election explore chang-roberts --nodes 8 --layout random --initiators all --policy random --schedules 500",
		checkExample:   "ringlab election check chang-roberts --nodes 4 --initiators all",
		compare:        changRobertsComparison(),
		def:            defaults{ids: defaultRingIDs, initiators: "all", minNodes: 1},
		build: func(_ engine.Params, _ engine.Env, s setup) (engine.System, error) {
			f, err := changroberts.Factory(s.ids)
			if err != nil {
				return engine.System{}, cliutil.Usagef("--ids: %v", err)
			}
			return engine.System{
				Factory: f, Messages: changroberts.MessageTypes(), Script: starts(s),
				Properties: verdicts(s.ids, maxID(s.ids), "the largest id"),
				Goals:      changRobertsGoals(),
				Figures: func(*trace.Summary) map[string]any {
					n := s.n()
					x := map[string]any{"theory": fmt.Sprintf("all starting: best 2n-1 = %d, worst n(n+1)/2 = %d, average n*H_n = %.0f ELECTION; + n = %d ELECTED",
						changroberts.BestCase(n), changroberts.WorstCase(n), float64(n)*harmonic(n), n)}
					if len(s.starters) == n {
						e, a := changroberts.Messages(s.ids)
						x["theory for these ids"] = fmt.Sprintf("%d ELECTION + %d ELECTED", e, a)
					}
					return x
				},
			}, nil
		},
	}
}

func franklinAlgo() entry {
	return entry{
		name:  "franklin",
		usage: "Franklin (1982): bidirectional rounds, local maxima survive, the largest id wins",
		description: "Each round sends one message per link each way: 2nR ELECTION for R rounds, plus n\n" +
			"ELECTED; R <= floor(log2 n) + 1. Ids must be >= 1.",
		example:        "ringlab election franklin --nodes 16 --layout random --seed 3",
		exploreExample: "ringlab election explore franklin --nodes 8 --layout random --latency 1-5 --schedules 500",
		checkExample:   "ringlab election check franklin --nodes 4 --initiators all",
		compare:        franklinComparison(),
		def:            defaults{ids: defaultRingIDs, initiators: "all", minNodes: 1, positive: true},
		build: func(_ engine.Params, _ engine.Env, s setup) (engine.System, error) {
			f, err := franklin.Factory(franklin.Config{Ids: s.ids})
			if err != nil {
				return engine.System{}, cliutil.Usagef("--ids: %v", err)
			}
			rounds := 0
			return engine.System{
				Factory: f, Messages: franklin.MessageTypes(), Script: starts(s),
				Properties: verdicts(s.ids, maxID(s.ids), "the largest id"),
				// the leader's own leader event carries the rounds it took
				ObserveKinds: trace.KindsOf(trace.KindLeader),
				Observe:      func(e *trace.Event) { rounds = max(rounds, e.Round) },
				Figures: func(*trace.Summary) map[string]any {
					n := s.n()
					return map[string]any{
						"rounds": fmt.Sprintf("%d (bound floor(log2 n)+1 = %d)", rounds, franklin.MaxRounds(n)),
						"theory": fmt.Sprintf("2nR + n = %d messages for R = %d; bound %d", franklin.Messages(n, rounds), rounds, franklin.MaxMessages(n)),
					}
				},
			}, nil
		},
	}
}

// harmonic is H_n = 1 + 1/2 + ... + 1/n (asymptotically, for large n).
func harmonic(n int) float64 {
	if n > 1_000_000 {
		return math.Log(float64(n)) + 0.5772156649 + 1/(2*float64(n))
	}
	h := 0.0
	for k := n; k >= 1; k-- {
		h += 1 / float64(k)
	}
	return h
}

// listSize is the number of ids an idlist message carries.
func listSize(m *trace.Msg) int { return idlist.Size(m.Value) }
