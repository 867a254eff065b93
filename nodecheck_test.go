package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"ringlab/engine/amqp/amqptest"
	"ringlab/engine/lang"
	"ringlab/engine/trace"
)

// summaryOf is the summary line of a log file (the watching process's).
func summaryOf(t *testing.T, file string) trace.Summary {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	for l := range strings.SplitSeq(string(b), "\n") {
		var s trace.Summary
		if json.Unmarshal([]byte(l), &s) == nil && s.Kind == "summary" {
			return s
		}
	}
	t.Fatalf("%s has no summary line", file)
	return trace.Summary{}
}

// outcomes are the verdict lines cut to their property and mark (a
// watching process and check word some details differently: a wait in
// nanoseconds or in a unit).
func outcomes(lines []string) []string {
	var out []string
	for _, l := range lines {
		mark, rest, _ := strings.Cut(l, " ")
		prop, _, _ := strings.Cut(rest, ":")
		out = append(out, mark+" "+prop)
	}
	return out
}

// checkNodeLogs runs check over the node logs in dir, given in reverse
// order (the order must come from the clocks), and compares its verdicts
// with those of the run's watching process (node 1's log).
func checkNodeLogs(t *testing.T, dir string, n int, exact bool, wantReplay string) {
	t.Helper()
	args := []string{"check"}
	for i := n; i >= 1; i-- {
		args = append(args, "--from", filepath.Join(dir, fmt.Sprintf("node%d.ndjson", i)))
	}
	code, out, errs := runCLI(t, t.Context(), args...)
	if code != 0 || !strings.Contains(out, "replay: "+wantReplay+trace.ReplayNote("amqp")+"\n") {
		t.Fatalf("check of %d node logs: exit %d, want 0 and replay %q\n%s%s", n, code, wantReplay, out, errs)
	}
	vs := summaryOf(t, filepath.Join(dir, "node1.ndjson")).Verdicts
	if strings.Contains(wantReplay, " --lang pt") { // check replays the run's command: its verdicts in the run's language
		for i := range vs {
			vs[i].Property, vs[i].Detail = lang.PT.Property(vs[i].Property), lang.PT.Detail(vs[i].Detail)
		}
	}
	want, got := verdictLines(vs), printedVerdicts(out)
	if !exact {
		want, got = outcomes(want), outcomes(got)
	}
	if !slices.Equal(want, got) {
		t.Fatalf("verdicts differ\nthe run's:\n%s\ncheck's:\n%s", strings.Join(want, "\n"), strings.Join(got, "\n"))
	}
}

// The --events logs of `ringlab node` processes (recorded over a broker
// and kept in testdata/nodelogs) are merged by their clocks and judged
// with the run's verdicts.
func TestCheckNodeProcessLogs(t *testing.T) {
	checkNodeLogs(t, "testdata/nodelogs/ring", 5, true, "ringlab election ring --ids 5,3,7,1,4 --initiators 1 --runtime amqp")
	checkNodeLogs(t, "testdata/nodelogs/ricart", 3, false, "ringlab mutex ricart-agrawala --nodes 3 --requests 1 --runtime amqp")
}

// Node logs that are not every process's log of one run are refused,
// saying which.
func TestCheckRefusesNodeLogsOfDifferentRuns(t *testing.T) {
	ring := func(i int) string { return filepath.Join("testdata/nodelogs/ring", fmt.Sprintf("node%d.ndjson", i)) }
	edited := func(i int, old, new string) string {
		b, err := os.ReadFile(ring(i))
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(t.TempDir(), fmt.Sprintf("node%d.ndjson", i))
		if err := os.WriteFile(p, []byte(strings.Replace(string(b), old, new, 1)), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	_, lines, _ := logOf(t, []string{"election", "ring", "--ids", "5,3,7,1,4", "--seed", "1"})
	whole := writeLog(t, "whole.ndjson", lines)
	for _, tc := range []struct {
		name  string
		files []string
		want  string
	}{
		{"one alone", []string{ring(1)}, "without those of node(s) 2, 3, 4, 5: give every process's --events file"},
		{"one missing", []string{ring(1), ring(2), ring(4), ring(5)}, "without those of node(s) 3"},
		{"other ids", []string{ring(1), ring(2), edited(3, "--ids 5,3,7,1,4", "--ids 5,3,7,2,4"), ring(4), ring(5)},
			`a log of the run "ringlab election ring --ids 5,3,7,2,4 --runtime amqp --seed 0" mixed with one of "ringlab election ring --ids 5,3,7,1,4 --runtime amqp --seed 0"`},
		{"node twice", []string{ring(1), ring(2), edited(2, "node2", "node2b"), ring(3), ring(4), ring(5)}, "a second log of node 2's process"},
		{"a whole run's log", []string{ring(1), whole}, "a log of one node's process mixed with"},
		{"another algorithm", []string{ring(1), "testdata/nodelogs/ricart/node2.ndjson"}, `a log of "mutex ricart-agrawala" mixed with one of "election ring"`},
		{"another run's message", []string{ring(1), edited(2, `"candidate_id":5`, `"candidate_id":6`), ring(3), ring(4), ring(5)}, "which no log shows sent before"},
	} {
		args := []string{"check"}
		for _, f := range tc.files {
			args = append(args, "--from", f)
		}
		code, out, errs := runCLI(t, t.Context(), args...)
		if code != 2 || out != "" || !strings.Contains(errs, tc.want) || strings.Count(strings.TrimSpace(errs), "\n") != 0 {
			t.Errorf("%s: exit %d, stdout %q, stderr %q; want exit 2 and one line with %q", tc.name, code, out, errs, tc.want)
		}
	}
}

// Five `ringlab node` processes over the broker (the ring election, then
// Ricart-Agrawala): their --events logs, given to check, get the verdicts
// the watching process printed.
func TestCheckLogsOfNodeProcesses(t *testing.T) {
	url := amqptest.BrokerURL(t)
	bin := binary(t)
	for _, run := range []struct {
		algo   []string
		exact  bool
		replay string
	}{
		{[]string{"--algo", "ring", "--ids", "5,3,7,1,4"}, true, "ringlab election ring --ids 5,3,7,1,4 --initiators 1 --runtime amqp"},
		{[]string{"--algo", "mutex/ricart-agrawala", "--requests", "2"}, false, "ringlab mutex ricart-agrawala --requests 2 --runtime amqp"},
	} {
		setupAlgo(t, bin, url, run.algo[1])
		dir := t.TempDir()
		// node 1's process is made the initiator explicitly: its default is
		// not this test's subject
		start := func(i int) *nodeProc { return startNodeArgs(t, bin, url, dir, i, i == 1, nil, run.algo...) }
		var procs []*nodeProc
		for i := 2; i <= 5; i++ {
			procs = append(procs, start(i))
		}
		procs = append(procs, start(1))
		for _, p := range procs {
			if err := p.cmd.Wait(); err != nil {
				t.Fatalf("%v node %d: %v\n%s%s", run.algo, p.index, err, p.out.String(), p.err.String())
			}
		}
		checkNodeLogs(t, dir, 5, run.exact, run.replay)
	}
}
