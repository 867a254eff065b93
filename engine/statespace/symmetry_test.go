package statespace_test

import (
	"context"
	"strings"
	"testing"

	"ringlab/election"
	"ringlab/engine"
	"ringlab/engine/check"
	"ringlab/engine/sim"
	"ringlab/engine/statespace"
	"ringlab/engine/trace"
	"ringlab/mutex"
)

// symConfig is the exhaustive check of algorithm name of algs with the
// given parameters, and the symmetry its System declares (nil: none).
func symConfig(t *testing.T, algs []engine.Algorithm, name string, params map[string]any) (statespace.Config, *engine.Symmetry) {
	t.Helper()
	alg, ok := engine.Find(algs, name)
	if !ok {
		t.Fatalf("no algorithm %s", name)
	}
	p := alg.ForCheck().Defaults()
	for k, v := range params {
		if err := p.Give(k, v); err != nil {
			t.Fatal(err)
		}
	}
	sys, cfg, err := statespace.For(alg, p, engine.Env{Runtime: "sim", MaxDelay: 1})
	if err != nil {
		t.Fatal(err)
	}
	return cfg, sys.Symmetry
}

// anonymousAll is the anonymous ring of n processes, every one a
// candidate: the configuration whose rotations are a symmetry.
func anonymousAll(t *testing.T, n int) (statespace.Config, *engine.Symmetry) {
	return symConfig(t, election.Algorithms(), "anonymous", map[string]any{"nodes": n, "initiators": "all"})
}

func tokenRing(t *testing.T, n, requests int) (statespace.Config, *engine.Symmetry) {
	return symConfig(t, mutex.Algorithms(), "token-ring", map[string]any{"nodes": n, "requests": requests})
}

// central is the central coordinator with n-1 participants, which
// declares them interchangeable; timeout is its grant timeout (0: none).
func central(t *testing.T, n int, timeout int64) (statespace.Config, *engine.Symmetry) {
	return symConfig(t, mutex.Algorithms(), "central", map[string]any{"nodes": n, "grant-timeout": timeout})
}

// The declared symmetries are symmetries: from every state reachable (up
// to a bound) of the anonymous ring and the token ring, with and without
// faults and under both delivery policies, renaming then stepping gives
// the renamed successors. A declaration that is wrong (the token ring with
// regeneration, where a node names the token it creates after itself, or
// the anonymous ring with one candidate, whose correctness names it) is
// caught.
func TestDeclaredSymmetriesHold(t *testing.T) {
	for _, tc := range []struct {
		name   string
		cfg    func() (statespace.Config, *engine.Symmetry)
		faults [3]int // crashes, restarts, drops
		random bool
	}{
		{"anonymous 4", func() (statespace.Config, *engine.Symmetry) { return anonymousAll(t, 4) }, [3]int{}, false},
		{"anonymous 4 random", func() (statespace.Config, *engine.Symmetry) { return anonymousAll(t, 4) }, [3]int{}, true},
		{"anonymous 4 faults", func() (statespace.Config, *engine.Symmetry) { return anonymousAll(t, 4) }, [3]int{1, 1, 1}, false},
		{"token ring 4", func() (statespace.Config, *engine.Symmetry) { return tokenRing(t, 4, 1) }, [3]int{}, false},
		{"token ring 4 faults", func() (statespace.Config, *engine.Symmetry) { return tokenRing(t, 4, 2) }, [3]int{1, 1, 1}, false},
		{"central 4", func() (statespace.Config, *engine.Symmetry) { return central(t, 4, 0) }, [3]int{}, false},
		{"central 4 grant timeout faults", func() (statespace.Config, *engine.Symmetry) { return central(t, 4, 5) }, [3]int{1, 1, 1}, false},
		{"central 4 random", func() (statespace.Config, *engine.Symmetry) { return central(t, 4, 0) }, [3]int{}, true},
	} {
		cfg, sym := tc.cfg()
		if sym == nil {
			t.Fatalf("%s: declares no symmetry", tc.name)
		}
		cfg.Symmetry = sym
		cfg.Crashes, cfg.Restarts, cfg.Drops = tc.faults[0], tc.faults[1], tc.faults[2]
		if tc.random {
			cfg.Policy = sim.PolicyRandom
		}
		if err := statespace.CheckSymmetry(context.Background(), cfg, 6_000); err != nil {
			t.Errorf("%s: %v", tc.name, err)
		}
	}

	regen, sym := symConfig(t, mutex.Algorithms(), "token-ring", map[string]any{"nodes": 3, "requests": 1, "regen-timeout": int64(3)})
	if sym != nil {
		t.Fatalf("the token ring with regeneration declares %s", sym)
	}
	regen.Symmetry = &engine.Symmetry{Rotations: true}
	err := statespace.CheckSymmetry(context.Background(), regen, 6_000)
	if err == nil || !strings.Contains(err.Error(), "is not a symmetry") {
		t.Errorf("the token ring with regeneration under rotations: %v, want a counterexample", err)
	}
	favour, sym := symConfig(t, mutex.Algorithms(), "central", map[string]any{"nodes": 4, "favour": 3})
	if sym != nil {
		t.Fatalf("the coordinator favouring nodes 2..3 declares %s", sym)
	}
	favour.Symmetry = &engine.Symmetry{Interchangeable: []int{2, 3, 4}}
	if err := statespace.CheckSymmetry(context.Background(), favour, 6_000); err == nil {
		t.Errorf("the coordinator favouring nodes 2..3 under their permutations: no counterexample")
	}
	if _, sym := symConfig(t, election.Algorithms(), "anonymous", map[string]any{"nodes": 4, "initiators": "1"}); sym != nil {
		t.Errorf("the anonymous ring with one candidate declares %s", sym)
	}
}

// The search with symmetry keeps exactly one state per orbit under
// rotations (the canonical form is the least key over the whole group),
// and under permutations of interchangeable nodes at least one and fewer
// than the plain search (the sort by local key breaks ties by index),
// counted here by brute force over every reachable state (all k!
// permutations) of small systems.
func TestSymmetryKeepsOneStatePerOrbit(t *testing.T) {
	for _, tc := range []struct {
		name string
		cfg  func() (statespace.Config, *engine.Symmetry)
		only check.ID
	}{
		// every property of the anonymous ring of 4 fails somewhere (two
		// candidates Elected, nobody Installed, ends the run without a
		// leader): the space is searched without judging any
		{"anonymous 4", func() (statespace.Config, *engine.Symmetry) {
			cfg, sym := anonymousAll(t, 4)
			cfg.Checks = nil
			return cfg, sym
		}, ""},
		{"token ring 4", func() (statespace.Config, *engine.Symmetry) { return tokenRing(t, 4, 1) }, ""},
		{"token ring 3, two requests", func() (statespace.Config, *engine.Symmetry) { return tokenRing(t, 3, 2) }, ""},
		{"central 5", func() (statespace.Config, *engine.Symmetry) { return central(t, 5, 0) }, ""},
	} {
		cfg, sym := tc.cfg()
		cfg.Symmetry, cfg.Only, cfg.Exact = sym, tc.only, true
		reachable, orbits, err := statespace.Orbits(cfg)
		if err != nil {
			t.Fatal(err)
		}
		res, err := statespace.Search(context.Background(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		cfg.Symmetry = nil
		plain, err := statespace.Search(context.Background(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: %d reachable (search: %d), %d orbits (search with symmetry: %d)", tc.name, reachable, plain.Distinct, orbits, res.Distinct)
		switch {
		case !res.Exhausted || !plain.Exhausted || res.Violation != nil || plain.Violation != nil:
			t.Errorf("%s: want both searches exhausted clean, got %+v and %+v", tc.name, res, plain)
		case plain.Distinct != int64(reachable):
			t.Errorf("%s: the plain search kept %d states, brute force reaches %d", tc.name, plain.Distinct, reachable)
		case sym.Rotations && res.Distinct != int64(orbits):
			t.Errorf("%s: the search with symmetry kept %d states, there are %d orbits", tc.name, res.Distinct, orbits)
		case res.Distinct < int64(orbits) || res.Distinct >= plain.Distinct:
			t.Errorf("%s: the search with symmetry kept %d states, %d orbits of %d", tc.name, res.Distinct, orbits, plain.Distinct)
		case orbits >= reachable:
			t.Errorf("%s: %d orbits of %d states: no reduction", tc.name, orbits, reachable)
		}
	}
}

// Must-show 4: the anonymous ring, the token ring and the central
// coordinator at N = 6, each with and without symmetry: the same verdict,
// a violation at the same depth where there is one (every candidate at
// once elects two leaders; a crashed holder loses the token; a grant
// taken back from a live holder lets a later request overtake), fewer states with the symmetry, and a
// concrete path that replays to the same violation.
func TestSymmetrySameVerdictsAtSix(t *testing.T) {
	for _, tc := range []struct {
		name    string
		cfg     func() (statespace.Config, *engine.Symmetry)
		crashes int
		want    check.ID // "": exhausted clean
	}{
		{"anonymous 6, every process a candidate", func() (statespace.Config, *engine.Symmetry) { return anonymousAll(t, 6) }, 0, "uniqueness"},
		{"token ring 6", func() (statespace.Config, *engine.Symmetry) { return tokenRing(t, 6, 1) }, 0, ""},
		{"token ring 6, a crash", func() (statespace.Config, *engine.Symmetry) { return tokenRing(t, 6, 1) }, 1, "no deadlock"},
		{"central 6", func() (statespace.Config, *engine.Symmetry) { return central(t, 6, 0) }, 0, ""},
		{"central 6, grant timeout", func() (statespace.Config, *engine.Symmetry) { return central(t, 6, 10) }, 0, "grant order"},
	} {
		cfg, sym := tc.cfg()
		cfg.Crashes = tc.crashes
		plain, err := statespace.Search(context.Background(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		cfg.Symmetry = sym
		red, err := statespace.Search(context.Background(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: %d distinct states without symmetry, %d with (%.2fx)", tc.name, plain.Distinct, red.Distinct, float64(plain.Distinct)/float64(red.Distinct))
		if got, gotPlain := verdict(red), verdict(plain); got != gotPlain || got != tc.want {
			t.Errorf("%s: verdict %q with symmetry, %q without, want %q", tc.name, got, gotPlain, tc.want)
		}
		if tc.want == "" && (!red.Exhausted || !plain.Exhausted) {
			t.Errorf("%s: not exhausted", tc.name)
		}
		if len(red.Path) != len(plain.Path) {
			t.Errorf("%s: a path of %d steps with symmetry, %d without", tc.name, len(red.Path), len(plain.Path))
		}
		if red.Distinct > plain.Distinct || tc.crashes == 0 && red.Distinct >= plain.Distinct {
			t.Errorf("%s: %d states with symmetry, %d without: want fewer", tc.name, red.Distinct, plain.Distinct)
		}
		if red.Violation != nil {
			if got := judgePath(t, cfg, red.Path); got != red.Violation.Property {
				t.Errorf("%s: the path %s replays to %q, the search reported %q", tc.name, statespace.FormatPath(red.Path), got, red.Violation.Property)
			}
		}
	}
}

func verdict(r statespace.Result) check.ID {
	if r.Violation == nil {
		return ""
	}
	return r.Violation.Property
}

// judgePath replays path from cfg's initial state and returns the first
// property it breaks: on a step, or judged at its end.
func judgePath(t *testing.T, cfg statespace.Config, path []statespace.Trans) check.ID {
	t.Helper()
	set := check.NewSet(cfg.Checks()...)
	cfg.Symmetry = nil
	rr, err := statespace.Replay(cfg, path, func(e *trace.Event) { set.Observe(e) })
	if err != nil {
		t.Fatalf("replay of %s: %v", statespace.FormatPath(path), err)
	}
	if rr.Violation != nil {
		return rr.Violation.Property
	}
	for _, v := range set.Finish(check.End{Terminated: rr.Terminated, Messages: rr.Messages}) {
		if !v.OK {
			return check.ID(v.Property)
		}
	}
	return ""
}

// Symmetry hides liveness violations: a search that judges liveness
// refuses it, as it refuses a goal (which may name a node).
func TestSymmetryRefusedWithLiveness(t *testing.T) {
	cfg, sym := tokenRing(t, 3, 1)
	cfg.Symmetry, cfg.Liveness = sym, true
	if _, err := statespace.Search(context.Background(), cfg); err == nil || !strings.Contains(err.Error(), "liveness") {
		t.Errorf("liveness with symmetry: %v, want a refusal", err)
	}
	cfg.Liveness, cfg.Goal = false, &engine.Goal{Name: "any"}
	if _, err := statespace.Search(context.Background(), cfg); err == nil || !strings.Contains(err.Error(), "goal") {
		t.Errorf("a goal with symmetry: %v, want a refusal", err)
	}
}
