package main

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"ringlab/mutex"
)

// lassoState is what these tests read of the page's state.
type lassoState struct {
	Path       string   `json:"path"`
	Labels     []string `json:"labels"`
	Replay     string   `json:"replay"`
	Open       string   `json:"open"`
	CycleStart int      `json:"cycle_start"`
	CycleBack  bool     `json:"cycle_back"`
}

// The browser page opens a lasso (`check --serve --path 'PREFIX|CYCLE'`):
// the state is the one after one turn of the cycle, the cycle's steps are
// marked (cycle_start: the state where the cycle begins), and the page
// says that the last step comes back to that state (cycle_back); its
// replay and open commands keep the lasso. A plain path has no cycle; a
// "cycle" that does not come back is shown without the way back. Bad
// lassos are refused, at the API (400) and on the command line (exit 2).
func TestExplorerPageShowsALasso(t *testing.T) {
	e := newExplore(t, mutex.Algorithms(), "central", map[string]any{"nodes": 4, "requests": 0, "favour": 3}, nil, 100_000)
	h := e.Handler(true)
	get := func(path string) (lassoState, int) {
		req := httptest.NewRequest("GET", "http://localhost/api/state?path="+url.QueryEscape(path), nil)
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		var st lassoState
		if rec.Code == http.StatusOK {
			if err := json.Unmarshal(rec.Body.Bytes(), &st); err != nil {
				t.Fatal(err)
			}
		}
		return st, rec.Code
	}
	const prefix, cycle = "c2,c4,d2-1,d4-1", "c3,d1-2,c2,c2,d3-1,d2-1,d1-2,d1-3,c3,d2-1,d3-1,d1-3"
	lasso := prefix + "|" + cycle
	st, code := get(lasso)
	if code != http.StatusOK || st.CycleStart != 4 || !st.CycleBack || len(st.Labels) != 16 || st.Path != lasso ||
		!strings.HasSuffix(st.Replay, "--path '"+lasso+"'") || !strings.HasSuffix(st.Open, "--serve --path '"+lasso+"'") {
		t.Fatalf("%s: %d %+v", lasso, code, st)
	}
	if st, _ := get(prefix + "," + cycle); st.CycleStart != -1 || st.CycleBack || st.Path != prefix+","+cycle {
		t.Errorf("the plain path: %+v", st)
	}
	if st, _ := get(prefix + "|" + cycle[:strings.LastIndex(cycle, ",")]); st.CycleStart != 4 || st.CycleBack {
		t.Errorf("a cycle one step short: %+v", st)
	}
	if _, code := get(prefix + "|" + cycle + "|c2"); code != http.StatusBadRequest {
		t.Errorf("two bars: %d, want 400", code)
	}
	var out, errb strings.Builder
	args := []string{"ringlab", "mutex", "check", "central", "--nodes", "4", "--requests", "0", "--favour", "3", "--serve",
		"--path", prefix + "|" + cycle[:strings.LastIndex(cycle, ",")]}
	if code := run(context.Background(), args, &out, &errb); code != 2 || !strings.Contains(errb.String(), "does not come back") {
		t.Errorf("a lasso that does not close: exit %d, %q; want 2", code, errb.String())
	}
}
