package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	rcli "ringlab/engine/cli"
)

// The sizes of the spaces the explorer analyses, as engine/serve's README
// states them: each line that names a `ringlab ... check ...` command in a
// table row, or one of the speed table's rows below, holds "N states", and
// N must be what that command's explorer finds.

// spaceRows are the speed table's rows, which name their system in words
// (BenchmarkExplorerClick's systems), with the command of each.
var spaceRows = map[string]string{
	"| mutex central, 5 nodes |":                                  "ringlab mutex check central --nodes 5",
	"| mutex ricart-agrawala, 3 nodes |":                          "ringlab mutex check ricart-agrawala --nodes 3",
	"| election chang-roberts, 5 nodes, every node a candidate |": "ringlab election check chang-roberts --nodes 5 --initiators all",
	"| election anonymous, 5 nodes, every node a candidate |":     "ringlab election check anonymous --nodes 5 --initiators all",
}

var (
	rowCommand  = regexp.MustCompile("^\\|.*`(ringlab (?:mutex|election) check [^`]*)`")
	statesCount = regexp.MustCompile(`([0-9][0-9,]*) states`)
	wholeSpace  = regexp.MustCompile(`the whole space: ([0-9]+) states`)
)

// TestExplorerSpacesInREADME opens the explorer of every command
// engine/serve/README.md gives a space's size for and compares the size
// with what the explorer analysed. RINGLAB_UPDATE=1 rewrites the figures.
func TestExplorerSpacesInREADME(t *testing.T) {
	file := filepath.Join("engine", "serve", "README.md")
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(b), "\n")
	type figure struct {
		line, from, to int // the figure is lines[line][from:to]
		cmd            string
	}
	var figures []figure
	for i, line := range lines {
		cmd := ""
		if m := rowCommand.FindStringSubmatch(line); m != nil {
			cmd = m[1]
		}
		for key, c := range spaceRows {
			if strings.HasPrefix(line, key) {
				cmd = c
			}
		}
		if said := statesCount.FindStringSubmatchIndex(line); cmd != "" && said != nil {
			figures = append(figures, figure{i, said[2], said[3], cmd})
		}
	}
	if len(figures) < len(spaceRows)+4 {
		t.Errorf("found %d figures in %s, want the %d rows of the speed table and the four cases", len(figures), file, len(spaceRows))
	}
	// each command's explorer once, one after the other (the CLI's flags
	// are not made to be parsed by two runs at once)
	found := map[string]string{}
	for _, f := range figures {
		if _, ok := found[f.cmd]; !ok {
			found[f.cmd] = explorerSpace(t, f.cmd)
		}
	}
	changed := false
	for _, f := range figures {
		line := lines[f.line]
		if want, got := line[f.from:f.to], found[f.cmd]; want != got {
			if os.Getenv("RINGLAB_UPDATE") == "1" {
				lines[f.line] = line[:f.from] + got + line[f.to:]
				changed = true
				continue
			}
			t.Errorf("%s:%d: says %s states for %s; its explorer analyses %s (RINGLAB_UPDATE=1 go test . -run %s rewrites it)", file, f.line+1, want, f.cmd, got, t.Name())
		}
	}
	if changed {
		if err := os.WriteFile(file, []byte(strings.Join(lines, "\n")), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// explorerSpace serves cmd's explorer and returns the size of the space it
// analysed, written as the README writes it (8,281).
func explorerSpace(t *testing.T, cmd string) string {
	t.Helper()
	args, err := rcli.SplitCommand(strings.TrimPrefix(cmd, "ringlab "))
	if err != nil {
		t.Fatal(err)
	}
	info := getJSON[struct {
		FatesNote string `json:"fates_note"`
	}](t, explorerServer(t, args...)+"/api/info")
	m := wholeSpace.FindStringSubmatch(info.FatesNote)
	if m == nil {
		t.Fatalf("%s: the explorer analysed no whole space: %q", cmd, info.FatesNote)
	}
	return thousands(m[1])
}

// thousands writes the digits s with a comma every three, as the READMEs do.
func thousands(s string) string {
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// explorerState is what the explorer says of the state path reaches: the
// messages sent so far and the fewest and most still to come.
type explorerState struct {
	Messages, Fewest, Most int
}

func getJSON[T any](t *testing.T, url string) T {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var v T
	if err := json.NewDecoder(resp.Body).Decode(&v); err != nil {
		t.Fatalf("%s: %v", url, err)
	}
	return v
}

// TestExplorerAnonymousTheory: the theory the explorer shows beside "a
// whole run: 6..9" for the anonymous ring says when it holds. Once every
// candidate has started, before any vote arrives, every run sends exactly
// the theory's count; from the initial state a later start sends more,
// so the theory names that condition.
func TestExplorerAnonymousTheory(t *testing.T) {
	base := explorerServer(t, "election", "check", "anonymous", "--nodes", "3", "--initiators", "all")
	info := getJSON[struct{ Theory string }](t, base+"/api/info")
	var votes, leaders int
	if _, err := fmt.Sscanf(info.Theory, "%d VoteForMe + %d WeHaveALeader", &votes, &leaders); err != nil {
		t.Fatalf("theory %q: %v", info.Theory, err)
	}
	all := getJSON[explorerState](t, base+"/api/state?path=c1,c2,c3")
	if lo, hi := all.Messages+all.Fewest, all.Messages+all.Most; lo != votes+leaders || hi != votes+leaders {
		t.Errorf("every candidate started first: a whole run %d..%d, the theory says %d + %d", lo, hi, votes, leaders)
	}
	start := getJSON[explorerState](t, base+"/api/state?path=")
	if start.Most <= votes+leaders {
		t.Fatalf("from the initial state at most %d messages: the theory's %d needs no condition", start.Most, votes+leaders)
	}
	if !strings.Contains(info.Theory, "when every candidate starts before a vote reaches it") {
		t.Errorf("a run can send %d messages, the theory %q does not say when its %d holds", start.Most, info.Theory, votes+leaders)
	}
}
