package main

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"ringlab/election"
	"ringlab/engine"
	rcli "ringlab/engine/cli"
	"ringlab/engine/vet"
	"ringlab/mutex"
)

// Every shipped algorithm passes the lint at its check's parameters, with
// every check run (the clock check finds the source beside the test).
func TestAlgorithmsPassVet(t *testing.T) {
	for _, alg := range append(mutex.Algorithms(), election.Algorithms()...) {
		t.Run(alg.Name, func(t *testing.T) {
			r, err := vet.Run(context.Background(), alg, alg.ForCheck().Defaults(), vet.Options{})
			if err != nil {
				t.Fatal(err)
			}
			for _, f := range r.Findings {
				t.Error(f)
			}
			for _, s := range r.Skipped {
				t.Errorf("the %s check was skipped: %s", s.Check, s.Why)
			}
			if r.Inputs == 0 || r.Messages == 0 {
				t.Errorf("the vet stepped %d inputs and round-tripped %d messages: it checked nothing", r.Inputs, r.Messages)
			}
		})
	}
}

// `AREA vet ALGO`: findings on stdout, one a line, and the count last;
// exit 3 with findings, 0 without, 2 for bad flags.
func TestVetCommand(t *testing.T) {
	unlisted := relayAlgorithm()
	unlisted.Name = "unlisted-relay"
	build := unlisted.Build
	unlisted.Build = func(p engine.Params, env engine.Env) (engine.System, error) {
		sys, err := build(p, env)
		sys.Messages = nil // the registry forgets Token
		return sys, err
	}
	areas := append(areas(), rcli.Area{Name: "toy", Usage: "test algorithms", Algorithms: []engine.Algorithm{relayAlgorithm(), unlisted}})
	cli := func(args ...string) (int, string, string) {
		t.Helper()
		var out, errb bytes.Buffer
		code := runWith(context.Background(), append([]string{"ringlab"}, args...), &out, &errb, areas)
		return code, out.String(), errb.String()
	}
	const last = "vet: %d findings (checks: determinism, clone, key, codec, clock)\n"

	code, out, errs := cli("mutex", "vet", "ricart-agrawala", "--nodes", "3")
	if code != 0 || out != strings.Replace(last, "%d", "0", 1) {
		t.Errorf("mutex vet ricart-agrawala: exit %d, stdout %q, stderr %q; want 0 and no findings", code, out, errs)
	}
	code, out, errs = cli("toy", "vet", "relay", "--nodes", "3")
	if code != 0 || !strings.HasSuffix(out, strings.Replace(last, "%d", "0", 1)) {
		t.Errorf("toy vet relay: exit %d, stdout %q, stderr %q; want 0", code, out, errs)
	}
	code, out, errs = cli("toy", "vet", "unlisted-relay", "--nodes", "3")
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if code != 3 || len(lines) != 3 || lines[2] != strings.TrimSpace(strings.Replace(last, "%d", "2", 1)) ||
		!strings.HasPrefix(lines[0], `codec: amqp codec on message TOKEN {Left:`) || !strings.HasPrefix(lines[1], `codec: NDJSON log on message TOKEN {Left:`) ||
		!strings.Contains(out, "registry does not list") || !strings.Contains(errs, "ringlab: vet: 2 findings") {
		t.Errorf("toy vet unlisted-relay: exit %d, stdout\n%s\nstderr\n%s\nwant 3, two codec findings, the count", code, out, errs)
	}

	code, out, _ = cli("mutex", "vet", "ricart-agrawala", "--help")
	for _, want := range []string{"determinism", "clone", "key", "codec", "clock", "Example:", "   ringlab mutex vet ricart-agrawala\n", "--max-states"} {
		if code != 0 || !strings.Contains(out, want) {
			t.Errorf("vet --help: exit %d, no %q in\n%s", code, want, out)
		}
	}
	for _, args := range [][]string{
		{"mutex", "vet", "ricart-agrawala", "--nodes", "x"},
		{"mutex", "vet", "ricart-agrawala", "--max-states", "0"},
		{"mutex", "vet", "ricart-agrawala", "--no-such-flag"},
		{"mutex", "vet", "ricart-agrawala", "stray"},
		{"toy", "vet", "relay", "--nodes", "1"},
	} {
		code, out, errs := cli(args...)
		if code != 2 || out != "" || strings.Count(strings.TrimSpace(errs), "\n") != 0 {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want 2, nothing on stdout, one line on stderr", args, code, out, errs)
		}
	}
}
