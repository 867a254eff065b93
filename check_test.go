package main

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"ringlab/engine/trace"
)

// runs whose logs `check` must judge as the run did: every mutex and
// election algorithm on the simulator, a few live, and runs that end in
// exit 3 or 4.
var checkRuns = [][]string{
	{"mutex", "central", "--nodes", "4", "--requests", "2", "--seed", "1"},
	{"mutex", "token-ring", "--nodes", "4", "--seed", "1"},
	{"mutex", "token-ring", "--nodes", "3", "--crash", "1@3", "--seed", "1"}, // no progress: exit 4
	{"mutex", "quorum", "--coordinators", "3", "--nodes", "3", "--retry-timeout", "40", "--seed", "1"},
	{"mutex", "ricart-agrawala", "--nodes", "4", "--seed", "2", "--vc"},
	{"mutex", "ricart-agrawala", "--nodes", "3", "--reply-timeout", "2", "--latency", "1-6", "--policy", "random", "--seed", "3"},
	{"mutex", "lamport", "--nodes", "4", "--seed", "3"},
	{"mutex", "maekawa", "--nodes", "9", "--requests", "2", "--seed", "4"},
	{"mutex", "scenario", "ra-seed001"},
	{"mutex", "lamport", "--nodes", "3", "--requests", "2", "--runtime", "live", "--tick", "100us", "--seed", "1"},
	{"election", "ring", "--seed", "1"},
	{"election", "ring", "--max-steps", "3", "--seed", "1"},         // out of budget
	{"election", "anonymous", "--initiators", "all", "--seed", "3"}, // two leaders: exit 3
	{"election", "idlist", "--nodes", "6", "--seed", "1"},
	{"election", "chang-roberts", "--nodes", "7", "--layout", "random", "--seed", "5"},
	{"election", "franklin", "--nodes", "8", "--seed", "1"},
	{"election", "bully", "--nodes", "5", "--initiators", "1", "--crash", "5@0", "--seed", "1"},
	{"election", "yoyo", "--nodes", "8", "--topology", "random", "--seed", "2"},
	{"election", "chang-roberts", "--nodes", "6", "--runtime", "live", "--seed", "1"},
}

// verdictLines are the ✓/✗ lines a text summary prints for s.
func verdictLines(vs []trace.Verdict) []string {
	var out []string
	for _, v := range vs {
		mark := "✓"
		if !v.OK {
			mark = "✗"
		}
		line := mark + " " + v.Property
		if v.Detail != "" {
			line += ": " + v.Detail
		}
		out = append(out, line)
	}
	return out
}

func printedVerdicts(out string) []string {
	var vs []string
	for l := range strings.SplitSeq(out, "\n") {
		if strings.HasPrefix(l, "✓ ") || strings.HasPrefix(l, "✗ ") {
			vs = append(vs, l)
		}
	}
	return vs
}

// logOf runs args with --format json and returns its exit code, its log
// lines and its summary.
func logOf(t *testing.T, args []string) (int, []string, trace.Summary) {
	t.Helper()
	code, out, errs := runCLI(t, t.Context(), append(args, "--format", "json")...)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	var sum trace.Summary
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &sum); err != nil || sum.Kind != "summary" {
		t.Fatalf("%v: no summary line (exit %d): %v\n%s", args, code, err, errs)
	}
	return code, lines, sum
}

func writeLog(t *testing.T, name string, lines []string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestCheckGivesTheRunsVerdicts(t *testing.T) {
	for _, args := range checkRuns {
		t.Run(strings.Join(args[:2], "-"), func(t *testing.T) {
			code, lines, sum := logOf(t, args)
			f := writeLog(t, "run.ndjson", lines)
			ccode, out, errs := runCLI(t, t.Context(), "check", "--from", f)
			if ccode != code {
				t.Fatalf("%v: the run exited %d, check %d\n%s%s", args, code, ccode, out, errs)
			}
			want, got := verdictLines(sum.Verdicts), printedVerdicts(out)
			if strings.Join(want, "\n") != strings.Join(got, "\n") {
				t.Fatalf("%v: verdicts differ\nrun:\n%s\ncheck:\n%s", args, strings.Join(want, "\n"), strings.Join(got, "\n"))
			}
		})
	}
}

// A log split into one file per node, each with a header and no summary
// (as a per-process runtime writes them), is merged back by its clocks.
func TestCheckMergesOneFilePerNode(t *testing.T) {
	for _, args := range [][]string{
		{"mutex", "ricart-agrawala", "--nodes", "4", "--seed", "2", "--vc"},
		{"mutex", "lamport", "--nodes", "3", "--seed", "5"},
		{"election", "chang-roberts", "--nodes", "6", "--layout", "random", "--seed", "5"},
	} {
		code, lines, sum := logOf(t, args)
		header := fmt.Sprintf(`{"v":1,"kind":"header","algorithm":%q,"runtime":"sim","nodes":%d,"replay":%q}`,
			sum.Algorithm, sum.Nodes, sum.Replay)
		per := map[int][]string{}
		for _, l := range lines[:len(lines)-1] {
			var e trace.Event
			if err := json.Unmarshal([]byte(l), &e); err != nil {
				t.Fatal(err)
			}
			if e.Kind == trace.KindViolation {
				continue
			}
			if per[e.Node] == nil {
				per[e.Node] = []string{header}
			}
			per[e.Node] = append(per[e.Node], l)
		}
		one := []string{header}
		for _, l := range lines[:len(lines)-1] {
			if !strings.Contains(l, `"kind":"violation"`) && !strings.Contains(l, `"kind":"header"`) {
				one = append(one, l)
			}
		}
		ccode, out, errs := runCLI(t, t.Context(), "check", "--from", writeLog(t, "headed.ndjson", one))
		if want, got := verdictLines(sum.Verdicts), printedVerdicts(out); ccode != code || strings.Join(want, "\n") != strings.Join(got, "\n") {
			t.Fatalf("%v: a headed log without a summary: exit %d (run %d)\n%s%s", args, ccode, code, out, errs)
		}
		cargs := []string{"check"}
		for i := sum.Nodes; i >= 1; i-- { // the files in reverse: order must come from the clocks
			if per[i] != nil {
				cargs = append(cargs, "--from", writeLog(t, fmt.Sprintf("node%d.ndjson", i), per[i]))
			}
		}
		ccode, out, errs = runCLI(t, t.Context(), cargs...)
		if ccode != code {
			t.Fatalf("%v: the run exited %d, check of %d files %d\n%s%s", args, code, len(cargs)/2, ccode, out, errs)
		}
		want, got := verdictLines(sum.Verdicts), printedVerdicts(out)
		if strings.Join(want, "\n") != strings.Join(got, "\n") {
			t.Fatalf("%v: verdicts differ\nrun:\n%s\ncheck:\n%s", args, strings.Join(want, "\n"), strings.Join(got, "\n"))
		}
	}
}

// A hand-edited log in which a node enters the critical section while
// another is inside is a violation.
func TestCheckFindsAnEditedOverlap(t *testing.T) {
	code, lines, _ := logOf(t, []string{"mutex", "ricart-agrawala", "--nodes", "3", "--seed", "1"})
	if code != 0 {
		t.Fatalf("the run exited %d", code)
	}
	// The edit keeps the log well-formed: sequence numbers renumbered,
	// Lamport clocks tripled so that the inserted events fit between a
	// node's own.
	var edited []string
	done := false
	seq := int64(0)
	last := map[int]int64{} // each node's last (tripled) clock
	for _, l := range lines {
		var e trace.Event
		if json.Unmarshal([]byte(l), &e) != nil || e.Kind == "summary" || e.Kind == trace.KindHeader {
			edited = append(edited, l)
			continue
		}
		seq++
		e.Seq, e.LC = seq, 3*e.LC
		last[e.Node] = e.LC
		b, _ := json.Marshal(&e)
		edited = append(edited, string(b))
		if !done && e.Kind == trace.KindEnterCS {
			other := e.Node%3 + 1
			edited = append(edited,
				fmt.Sprintf(`{"v":1,"seq":%d,"t":%d,"node":%d,"kind":"enter_cs","lc":%d}`, seq+1, e.T, other, last[other]+1),
				fmt.Sprintf(`{"v":1,"seq":%d,"t":%d,"node":%d,"kind":"exit_cs","lc":%d}`, seq+2, e.T, other, last[other]+2))
			seq += 2
			done = true
		}
	}
	f := writeLog(t, "edited.ndjson", edited)
	ccode, out, errs := runCLI(t, t.Context(), "check", "--from", f)
	if ccode != 3 || !strings.Contains(out, "✗ mutual exclusion") || !strings.Contains(errs, "mutual exclusion violated") {
		t.Fatalf("exit %d\n%s%s", ccode, out, errs)
	}
	// restricted to another property, the overlap is not looked at
	ccode, out, errs = runCLI(t, t.Context(), "check", "--from", f, "--property", "no-deadlock")
	if ccode != 0 || strings.Contains(out, "mutual exclusion") || !strings.Contains(out, "✓ no deadlock") {
		t.Fatalf("--property no-deadlock: exit %d\n%s%s", ccode, out, errs)
	}
}

func TestCheckRefusesBadLogs(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	_, lines, _ := logOf(t, []string{"election", "ring", "--seed", "1"})
	ok := writeLog(t, "ok.ndjson", lines)
	ringCode, ringOut, _ := runCLI(t, t.Context(), "ring", "--delay", "0", "--nodes", "3", "--format", "json")
	if ringCode != 0 {
		t.Fatal("ring run failed")
	}
	cases := []struct {
		name string
		args []string
		want string
	}{
		{"empty", []string{"--from", write("empty.ndjson", "\n")}, "the log is empty"},
		{"corrupt", []string{"--from", write("corrupt.ndjson", "{\"v\":1,\"kind\":\"send\"\nnot json\n")}, "line 1"},
		{"wrong version", []string{"--from", write("v2.ndjson", `{"v":2,"kind":"send"}`+"\n")}, "schema version 2"},
		{"ring's log", []string{"--from", write("ring.ndjson", ringOut)}, "line 1: a log of the ring's --format json, which has no checkers to run again"},
		{"no command", []string{"--from", write("anon.ndjson", `{"v":1,"seq":1,"t":0,"node":1,"kind":"cmd","cmd":"start","lc":1}`+"\n")}, "names no command"},
		{"unknown command", []string{"--from", write("unknown.ndjson", `{"v":1,"seq":1,"t":0,"node":1,"kind":"cmd","cmd":"start","lc":1}`+"\n"+
			`{"v":1,"kind":"summary","algorithm":"x","replay":"ringlab ring --nodes 3"}`+"\n")}, "ringlab can re-check"},
		{"missing file", []string{"--from", filepath.Join(dir, "nope.ndjson")}, "no such file"},
		{"unknown property", []string{"--from", ok, "--property", "liveness"}, "want one of: termination, uniqueness"},
		{"same file twice", []string{"--from", ok, "--from", ok}, "given twice"},
		{"unknown message type", []string{"--from", write("unknown-type.ndjson", strings.ReplaceAll(strings.Join(lines, "\n"), `"type":"ELECTED"`, `"type":"NOPE"`))},
			`a message of type "NOPE", which the algorithm's message registry does not list`},
		{"two runs", []string{"--from", ok, "--from", write("other.ndjson", strings.ReplaceAll(strings.Join(lines, "\n"), "--seed 1", "--seed 2"))}, "mixed with"},
	}
	for _, c := range cases {
		code, out, errs := runCLI(t, t.Context(), append([]string{"check"}, c.args...)...)
		if code != 2 || out != "" || !strings.Contains(errs, c.want) || strings.Count(strings.TrimSpace(errs), "\n") > 0 {
			t.Errorf("%s: exit %d, stdout %q, stderr %q (want exit 2 and %q)", c.name, code, out, errs, c.want)
		}
	}
}

// Every --format json output is NDJSON from its first line: one JSON
// object per line, nothing else on stdout.
func TestEveryJSONOutputIsNDJSON(t *testing.T) {
	_, lines, _ := logOf(t, []string{"election", "ring", "--seed", "1"})
	logFile := writeLog(t, "ring.ndjson", lines)
	for _, args := range [][]string{
		{"ring", "--delay", "0", "--nodes", "3"},
		{"election", "ring", "--seed", "1"},
		{"mutex", "lamport", "--nodes", "3", "--seed", "1"},
		{"mutex", "scenario", "ra-seed001"},
		{"mutex", "scenario", "lamport-nonfifo"},
		{"election", "explore", "anonymous", "--initiators", "all", "--schedules", "50", "--seed", "1"},
		{"election", "explore", "chang-roberts", "--nodes", "4", "--schedules", "5"},
		{"mutex", "explore", "lamport", "--nodes", "2", "--requests", "1", "--policy", "random", "--latency", "1-10", "--schedules", "500", "--seed", "1"},
		{"election", "compare", "--nodes", "8", "--layout", "worst"},
		// N = 2: the same rows and columns as N = 3 at a thousandth of the
		// time (N = 3's figures are mutex's TestCompareFigures')
		{"mutex", "compare", "--nodes", "2", "--requests", "2"},
		{"render", "--from", logFile},
	} {
		code, out, errs := runCLI(t, t.Context(), append(args, "--format", "json")...)
		if code != 0 && code != 3 {
			t.Fatalf("%v: exit %d\n%s", args, code, errs)
		}
		for i, l := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
			if out == "" {
				break
			}
			var obj map[string]any
			if err := json.Unmarshal([]byte(l), &obj); err != nil {
				t.Fatalf("%v: line %d is not a JSON object: %q", args, i+1, l)
			}
		}
	}
}

// An interrupted check stops with what it judged so far: exit 130.
func TestCheckInterrupted(t *testing.T) {
	_, lines, _ := logOf(t, []string{"mutex", "lamport", "--nodes", "3", "--seed", "1"})
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	code, _, errs := runCLI(t, ctx, "check", "--from", writeLog(t, "run.ndjson", lines))
	if code != 130 {
		t.Fatalf("exit %d, want 130\n%s", code, errs)
	}
}

// --partition takes the form the README documents: a group of several
// nodes, cut off from the rest (2->3 and 4->1 cross the cut; 1->2 does not).
func TestMultiNodePartitionOnTheSimulator(t *testing.T) {
	code, out, errs := runCLI(t, t.Context(), "election", "chang-roberts", "--nodes", "4",
		"--partition", "1,2@0-30", "--seed", "1", "--format", "json")
	if code == 2 {
		t.Fatalf("refused: %s", errs)
	}
	cut := map[string]bool{}
	for l := range strings.SplitSeq(strings.TrimSpace(out), "\n") {
		var e trace.Event
		if json.Unmarshal([]byte(l), &e) == nil && e.Kind == trace.KindDrop && e.Note == "partitioned" {
			cut[fmt.Sprintf("%d->%d", e.From, e.To)] = true
		}
	}
	if !cut["2->3"] || !cut["4->1"] || cut["1->2"] || !strings.Contains(out, `"replay":"ringlab election chang-roberts --nodes 4 --format json --partition 1,2@0-30 --seed 1"`) {
		t.Fatalf("partitioned links %v\n%s", cut, errs)
	}
}

// A run's own log cut before its summary line is checked from its header.
func TestCheckALogWithoutItsSummary(t *testing.T) {
	code, lines, sum := logOf(t, []string{"mutex", "ricart-agrawala", "--nodes", "4", "--seed", "3"})
	if !strings.Contains(lines[0], `"kind":"header"`) {
		t.Fatalf("the log does not start with its header: %s", lines[0])
	}
	ccode, out, errs := runCLI(t, t.Context(), "check", "--from", writeLog(t, "cut.ndjson", lines[:len(lines)-1]))
	if want, got := verdictLines(sum.Verdicts), printedVerdicts(out); ccode != code || strings.Join(want, "\n") != strings.Join(got, "\n") {
		t.Fatalf("exit %d (run %d)\n%s%s", ccode, code, out, errs)
	}
}

// A log that is not a run's history is refused (exit 2, one line naming
// the file, the line and what is wrong) rather than judged: judged, each of
// these gave every verdict ✓ or a false violation.
func TestCheckValidatesTheLog(t *testing.T) {
	code, lines, _ := logOf(t, []string{"mutex", "ricart-agrawala", "--nodes", "3", "--seed", "1"})
	if code != 0 || !strings.Contains(lines[0], `"kind":"header"`) {
		t.Fatalf("the run exited %d; first line %s", code, lines[0])
	}
	header, events, summary := lines[0], lines[1:len(lines)-1], lines[len(lines)-1]
	edit := func(f func(e map[string]any)) []string {
		out := []string{header}
		for _, l := range events {
			var e map[string]any
			if err := json.Unmarshal([]byte(l), &e); err != nil {
				t.Fatal(err)
			}
			f(e)
			b, _ := json.Marshal(e)
			out = append(out, string(b))
		}
		return append(out, summary)
	}
	reversed := []string{header}
	for i := len(events) - 1; i >= 0; i-- {
		reversed = append(reversed, events[i])
	}
	reversed = append(reversed, summary)
	shuffled := append([]string{header}, events...)
	rand.New(rand.NewPCG(1, 2)).Shuffle(len(events), func(i, j int) { shuffled[1+i], shuffled[1+j] = shuffled[1+j], shuffled[1+i] })
	shuffled = append(shuffled, summary)
	renumbered := func(ls []string) []string { // sequence numbers in file order: only the clocks tell
		out := []string{ls[0]}
		for k, l := range ls[1 : len(ls)-1] {
			var e map[string]any
			_ = json.Unmarshal([]byte(l), &e)
			e["seq"] = k + 1
			b, _ := json.Marshal(e)
			out = append(out, string(b))
		}
		return append(out, ls[len(ls)-1])
	}
	var noSend []string // the first send removed: its receive has none
	cut := false
	for _, l := range lines {
		if !cut && strings.Contains(l, `"kind":"send"`) {
			cut = true
			continue
		}
		noSend = append(noSend, l)
	}
	v2 := append([]string{strings.Replace(header, `"v":1`, `"v":2`, 1)}, lines[1:]...)
	cases := []struct {
		name  string
		lines []string
		want  string
	}{
		{"unknown kinds", edit(func(e map[string]any) { e["kind"] = "frobnicate" }), `line 2: unknown event kind "frobnicate"`},
		{"node 0", edit(func(e map[string]any) { e["node"], e["from"], e["to"] = 0, 0, 0 }), "line 2: a cmd event with node 0: the run's nodes are 1..3"},
		{"node beyond the count", edit(func(e map[string]any) {
			if e["node"].(float64) == 2 {
				e["node"] = 7
			}
		}), "line 2: a cmd event with node 7: the run's nodes are 1..3"},
		{"receive without a send", noSend, "receives REQUEST from node 2, which no log shows sent before"},
		{"reversed", reversed, "line 3: sequence number"},
		{"shuffled", shuffled, "the events are out of order"},
		{"reversed, renumbered", renumbered(reversed), "the events are out of order"},
		{"shuffled, renumbered", renumbered(shuffled), "the events are out of order"},
		{"header of another version", v2, "line 1: event schema version 2, this ringlab reads 1"},
		{"two headers", append([]string{header}, lines...), "line 2: a second header"},
		{"header after an event", append([]string{lines[1], header}, lines[2:]...), "line 2: a header after the first event"},
	}
	for _, c := range cases {
		f := writeLog(t, "bad.ndjson", c.lines)
		code, out, errs := runCLI(t, t.Context(), "check", "--from", f)
		if code != 2 || out != "" || !strings.Contains(errs, f+": line ") || !strings.Contains(errs, c.want) || strings.Count(strings.TrimSpace(errs), "\n") != 0 {
			t.Errorf("%s: exit %d, stdout %q, stderr %q; want exit 2 and one line with %q", c.name, code, out, errs, c.want)
		}
	}
}
