package election

import (
	"strings"
	"testing"

	"ringlab/engine/cliutil"
)

// The explorer finds the split-brain cases (the anonymous ring, Bully) and prints the
// shortest violating schedule with its replay command.
func TestExploreFindsSplitBrain(t *testing.T) {
	r := runCLI(t, "explore", "anonymous", "--initiators", "all", "--schedules", "50", "--seed", "1")
	r.want(t, cliutil.ExitViolation, "violation found by schedule 1 of 50", "VIOLATION of uniqueness",
		"ringlab election anonymous --initiators all --schedule 0:0 --seed 1")
	r = runCLI(t, "explore", "bully", "--initiators", "4", "--reply-timeout", "3", "--latency", "1-4", "--schedules", "200")
	r.want(t, cliutil.ExitViolation, "violation found by schedule", "VIOLATION of uniqueness", "(split-brain)",
		"ringlab election bully --initiators 4 --reply-timeout 3 --latency 1-4 --schedule")
}

// ...and none in the correct algorithms under their assumptions: reordering
// for the unidirectional rings, FIFO links with varied latency for Franklin
// and YoYo, safe timeouts for Bully.
func TestExploreFindsNoneInCorrectAlgorithms(t *testing.T) {
	n := "150"
	if testing.Short() {
		n = "30"
	}
	for _, args := range [][]string{
		{"ring", "--nodes", "6", "--layout", "random", "--initiators", "all", "--policy", "random"},
		{"ring", "--nodes", "6", "--layout", "random", "--initiators", "all", "--fix", "extinction", "--policy", "random"},
		{"chang-roberts", "--nodes", "7", "--layout", "random", "--policy", "random"},
		{"idlist", "--nodes", "6", "--layout", "random", "--policy", "random"},
		{"franklin", "--nodes", "8", "--layout", "random", "--latency", "1-5"},
		{"yoyo", "--topology", "random", "--nodes", "8", "--latency", "1-5"},
		{"bully", "--initiators", "1,3", "--latency", "1-4"},
		{"bully", "--scenario", "chapter", "--latency", "1-3", "--reply-timeout", "7", "--coord-timeout", "13"},
		{"anonymous", "--nodes", "5", "--policy", "random"},
	} {
		r := runCLI(t, append(append([]string{"explore"}, args...), "--schedules", n)...)
		r.want(t, 0, "no violation in "+n+" schedules")
	}
}

// Explore's printed replay reproduces what explore showed, byte for byte:
// with a random layout or topology it names the layout explore used (the
// sweep's first seed), not the one the violating schedule's seed would draw.
func TestExploreReplayIsByteForByte(t *testing.T) {
	for _, args := range [][]string{
		{"bully", "--nodes", "6", "--layout", "random", "--initiators", "1", "--reply-timeout", "4", "--latency", "1-4", "--schedules", "3000", "--seed", "7"},
		{"yoyo", "--nodes", "7", "--topology", "random", "--dup", "0.2", "--schedules", "300", "--seed", "3"},
		{"yoyo", "--nodes", "7", "--topology", "random", "--layout", "random", "--drop", "0.2", "--schedules", "300", "--seed", "3"},
	} {
		for _, format := range []string{"text", "json"} {
			x := runCLI(t, append(append([]string{"explore"}, args...), "--format", format)...)
			if x.code != cliutil.ExitViolation {
				t.Fatalf("%v: explore exit %d, want a violation\n%s%s", args, x.code, x.out, x.errb)
			}
			msg := x.err.Error()
			i := strings.LastIndex(msg, "(replay: ringlab election ")
			if i < 0 {
				t.Fatalf("%v: no replay in %q", args, msg)
			}
			replay := strings.TrimSuffix(msg[i+len("(replay: ringlab election "):], ")")
			r := runCLI(t, strings.Fields(replay)...)
			shown := x.out
			if format == "text" { // explore's own line, then the replayed run
				_, shown, _ = strings.Cut(x.out, "\n\n")
			}
			if r.code != x.code || r.out != shown || r.err.Error() != msg {
				t.Fatalf("%v --format %s: the replay %q exits %d (explore %d) and prints\n%s\nexplore showed\n%s", args, format, replay, r.code, x.code, r.out, shown)
			}
			if format == "json" && !strings.HasPrefix(x.out, `{"v":1,`) {
				t.Fatalf("explore --format json: stdout starts %q", x.out[:min(40, len(x.out))])
			}
		}
	}
}
