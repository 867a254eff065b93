package mutex

import (
	"encoding/json"
	"strings"
	"testing"
)

// extremesJSON is the part of `check --extremes --format json` these
// tests read.
type extremesJSON struct {
	Messages struct {
		RunsEnd      bool `json:"runs_end"`
		Fewest, Most int64
		Theory       string
		ByType       []struct {
			Type         string
			Fewest, Most int64
			FewestPath   string `json:"fewest_path"`
		} `json:"by_type"`
		InFlight     int    `json:"most_in_flight"`
		InFlightPath string `json:"most_in_flight_path"`
		Wait         *struct {
			Node  string
			Most  int64 `json:"most_overtaken"`
			Start int   `json:"wait_starts_after"`
			Path  string
		} `json:"longest_wait"`
		PerEntry *struct {
			Fewest, Most float64
			FewestPath   string `json:"fewest_path"`
		} `json:"per_entry_over_cycles"`
	}
}

// check --extremes prints, next to the theory, Ricart-Agrawala's exact
// 2(N-1) per entry over every schedule (12 messages for three entries,
// six REQUESTs and six REPLYs), the six REQUESTs in flight at once, and
// a node overtaken twice; every path it prints replays with --path, the
// wait's path to a run in which the waiting node enters last.
func TestCheckExtremesRicartAgrawala(t *testing.T) {
	out, errb, code := runCLI(t, "check", "ricart-agrawala", "--nodes", "3", "--extremes", "--format", "json")
	var r extremesJSON
	if err := json.Unmarshal([]byte(out), &r); err != nil || code != 0 {
		t.Fatalf("exit %d, %v\n%s\n%s", code, err, out, errb)
	}
	m := r.Messages
	if !m.RunsEnd || m.Fewest != 12 || m.Most != 12 || m.Theory != "messages per entry 2(N-1) = 4" || len(m.ByType) != 2 ||
		m.InFlight != 6 || m.Wait == nil || m.Wait.Most != 2 {
		t.Fatalf("%+v", m)
	}
	for _, ty := range m.ByType {
		if ty.Fewest != 6 || ty.Most != 6 {
			t.Errorf("%s: %d..%d, want 6", ty.Type, ty.Fewest, ty.Most)
		}
		if _, errb, code := runCLI(t, "check", "ricart-agrawala", "--nodes", "3", "--path", ty.FewestPath); code != 0 {
			t.Errorf("--path %s: exit %d\n%s", ty.FewestPath, code, errb)
		}
	}
	// the path stops at the second entry by others, P1 still waiting: no
	// run ends there, so what is judged at the end is not reached
	out, errb, code = runCLI(t, "check", "ricart-agrawala", "--nodes", "3", "--path", m.Wait.Path)
	if code != 4 || m.Wait.Node != "P1" || !strings.Contains(out, "entries: 2\n") ||
		!strings.Contains(out, "– no starvation: not reached (the path ends before the run does)") {
		t.Fatalf("--path %s: exit %d\n%s\n%s", m.Wait.Path, code, out, errb)
	}
}

// On an infinite workload no run ends: the text report says so and gives
// the messages per entry over cycles instead, the coordinator's 4, with a
// lasso that replays. Without --liveness, no deadlock and no starvation
// are not judged: exit 4.
func TestCheckExtremesInfiniteWorkload(t *testing.T) {
	out, errb, code := runCLI(t, "check", "central", "--nodes", "3", "--requests", "0", "--extremes")
	if code != 4 || !strings.Contains(out, "messages: no run ends, so no total") ||
		!strings.Contains(out, "messages per entry, over every cycle with an entry (fair or not): 4 = 4/1 on every one") {
		t.Fatalf("exit %d\n%s\n%s", code, out, errb)
	}
	out, _, _ = runCLI(t, "check", "central", "--nodes", "3", "--requests", "0", "--extremes", "--format", "json")
	var r extremesJSON
	if err := json.Unmarshal([]byte(out), &r); err != nil || r.Messages.PerEntry == nil {
		t.Fatalf("%v\n%s", err, out)
	}
	// a lasso replays one turn of its cycle and exits 4 (no end): this
	// cycle leaves P2's request command untaken all the way round, so the
	// promise it leaves owed is no liveness violation, and the replay says
	// why
	if _, errb, code := runCLI(t, "check", "central", "--nodes", "3", "--requests", "0", "--liveness", "--path", r.Messages.PerEntry.FewestPath); code != 4 ||
		!strings.Contains(errb, "the lasso's cycle repeats for ever") || !strings.Contains(errb, "the cycle is not fair: c2 stays enabled") {
		t.Errorf("--path '%s': exit %d\n%s", r.Messages.PerEntry.FewestPath, code, errb)
	}
}
