package election

import (
	"testing"

	"ringlab/internal/cliutil"
)

// The explorer finds the split-brain cases (SPEC §3.2, §3.6) and prints the
// shortest violating schedule with its replay command.
func TestExploreFindsSplitBrain(t *testing.T) {
	r := runCLI(t, "explore", "anonymous", "--initiators", "all", "--schedules", "50")
	r.want(t, cliutil.ExitViolation, "violation found by schedule 1 of 50", "VIOLATION of uniqueness",
		"ringlab election anonymous --initiators all --seed 1 --schedule")
	r = runCLI(t, "explore", "bully", "--initiators", "4", "--reply-timeout", "3", "--latency", "1-4", "--schedules", "200")
	r.want(t, cliutil.ExitViolation, "violation found by schedule", "VIOLATION of uniqueness", "(split-brain)",
		"ringlab election bully --initiators 4 --reply-timeout 3 --latency 1-4 --seed")
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
