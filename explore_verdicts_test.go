package main

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"ringlab/election"
	"ringlab/engine/statespace"
	"ringlab/engine/trace"
	"ringlab/mutex"
)

// verdictState is what this test reads of the page's state.
type verdictState struct {
	Properties []struct {
		ID     string `json:"id"`
		Status string `json:"status"`
		Detail string `json:"detail"`
	} `json:"properties"`
	Violation *struct {
		Property string `json:"property"`
		Detail   string `json:"detail"`
	} `json:"violation"`
	Steps []struct {
		Label    string `json:"label"`
		Messages int64  `json:"messages"`
	} `json:"steps"`
	Key       string `json:"key"`
	Messages  int64  `json:"messages"`
	Fewest    *int64 `json:"fewest"`
	Most      *int64 `json:"most"`
	Unbounded bool   `json:"unbounded"`
}

// The page and the command line give one verdict for a state: on every
// prefix of the anonymous ring's split brain, /api/state's properties
// read as the verdict lines the replayed trace prints (--path), its
// banner names the first of them that fails, in the words of the trace's
// VIOLATION line (the step that broke it), and the messages it says are
// still to come leave room for the next step's.
func TestExplorerPageAndTraceAgreeOnEveryPrefix(t *testing.T) {
	e := newExplore(t, election.Algorithms(), "anonymous", map[string]any{"nodes": 3, "initiators": "all"}, nil, 100_000)
	h := e.Handler(true)
	get := func(path string) verdictState { return stateAt(t, h, path) }
	if got := pageVerdicts(get("")); !strings.HasPrefix(got[0], "– termination: not reached") {
		t.Errorf("the initial state: %q", got)
	}
	labels := strings.Split("c1,c2,c3,d1-2,d2-3,d2-3,d3-1,d1-2", ",")
	for k := 1; k <= len(labels); k++ {
		path := strings.Join(labels[:k], ",")
		st := get(path)
		cli := cliVerdicts(t, "election", "check", "anonymous", "--nodes", "3", "--initiators", "all", "--path", path)
		pg := pageVerdicts(st)
		if strings.Join(pg, "\n") != strings.Join(cli, "\n") {
			t.Errorf("%s: the page and the trace differ:\n--- page\n%s\n--- trace\n%s", path, strings.Join(pg, "\n"), strings.Join(cli, "\n"))
		}
		var first string
		for _, l := range cli {
			if strings.HasPrefix(l, "✗ ") {
				first = l
				break
			}
		}
		switch {
		case first == "" && st.Violation != nil:
			t.Errorf("%s: the banner shows %+v, the trace no violation", path, *st.Violation)
		case first != "" && (st.Violation == nil || !strings.HasPrefix(first, "✗ "+st.Violation.Property+": ")):
			t.Errorf("%s: the banner shows %+v, the trace %q", path, st.Violation, first)
		case first != "":
			// in the words of the step that broke it, as the trace's
			// VIOLATION line and the check's message give them
			_, out, errb := runCLI(t, context.Background(), "election", "check", "anonymous", "--nodes", "3", "--initiators", "all", "--path", path)
			if w := "VIOLATION of " + st.Violation.Property + ": " + st.Violation.Detail; !strings.Contains(out+errb, w) {
				t.Errorf("%s: the banner's %q is not the trace's violation:\n%s%s", path, w, out, errb)
			}
		}
	}
	// What is still to come leaves room for every step that can be
	// taken, past a violation too (where a candidate that has not
	// started yet still sends its vote): over every state the page
	// reaches, breadth first.
	seen := map[string]bool{}
	for queue := []string{""}; len(queue) > 0; queue = queue[1:] {
		st := get(queue[0])
		if seen[st.Key] {
			continue
		}
		seen[st.Key] = true
		for _, x := range st.Steps {
			if st.Most != nil && !st.Unbounded && *st.Most < x.Messages {
				t.Errorf("%s: still to come at most %d, but step %s sends %d", queue[0], *st.Most, x.Label, x.Messages)
			}
			queue = append(queue, strings.TrimPrefix(queue[0]+","+x.Label, ","))
		}
	}
	if len(seen) < 181 {
		t.Errorf("%d states reached, the check finds 181", len(seen))
	}
}

// stateAt is the page's state at path.
func stateAt(t *testing.T, h http.Handler, path string) verdictState {
	t.Helper()
	req := httptest.NewRequest("GET", "http://localhost/api/state?path="+url.QueryEscape(path), nil)
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	var st verdictState
	if rec.Code != http.StatusOK {
		t.Fatalf("%s: %d %s", path, rec.Code, rec.Body)
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &st); err != nil {
		t.Fatal(err)
	}
	return st
}

// pageVerdicts are the page's properties as verdict lines.
func pageVerdicts(st verdictState) []string {
	var ls []string
	for _, p := range st.Properties {
		ls = append(ls, trace.VerdictLine(trace.Verdict{Property: p.ID, OK: p.Status == "holds", Detail: p.Detail,
			NotReached: p.Status == "not reached"}))
	}
	return ls
}

// cliVerdicts are the verdict lines a command prints.
func cliVerdicts(t *testing.T, args ...string) []string {
	t.Helper()
	_, out, errb := runCLI(t, context.Background(), args...)
	var ls []string
	for l := range strings.SplitSeq(out+errb, "\n") {
		if strings.HasPrefix(l, "✓ ") || strings.HasPrefix(l, "✗ ") || strings.HasPrefix(l, "– ") {
			ls = append(ls, l)
		}
	}
	return ls
}

// A lasso opened on the page (check --liveness --serve --path
// 'PREFIX|CYCLE') is judged as its replay judges it: the favouring
// coordinator's cycle starves P3 alone, and no deadlock is not reached
// (termination a workload without end does not ask for).
func TestExplorerPageAndTraceAgreeOnALasso(t *testing.T) {
	e := newExplore(t, mutex.Algorithms(), "central", map[string]any{"nodes": 4, "requests": 0, "favour": 3},
		func(c *statespace.Config) { c.Liveness = true }, 100_000)
	const lasso = "c2,c4,d2-1,d4-1|c3,d1-2,c2,c2,d3-1,d2-1,d1-2,d1-3,c3,d2-1,d3-1,d1-3"
	pg := strings.Join(pageVerdicts(stateAt(t, e.Handler(true), lasso)), "\n")
	cli := strings.Join(cliVerdicts(t, "mutex", "check", "central", "--nodes", "4", "--requests", "0", "--favour", "3",
		"--liveness", "--path", lasso), "\n")
	if pg != cli || !strings.Contains(pg, "✗ no starvation: the promise to P3 stays owed") {
		t.Errorf("the page and the trace differ:\n--- page\n%s\n--- trace\n%s", pg, cli)
	}
}
