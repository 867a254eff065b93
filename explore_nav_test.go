package main

// The scheduler's server on what a student's path looks like: the path's
// steps in words, a query that does not parse, a step not enabled (its
// valid prefix kept), a long label cut, the space-time strip, / opening
// --path, and --addr on a scenario.

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"ringlab/engine/cliutil"
	"ringlab/mutex"
)

// get asks h for target and returns the answer.
func get(h http.Handler, target string) *httptest.ResponseRecorder {
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", "http://localhost"+target, nil))
	return rec
}

func TestExplorerServerPathInWords(t *testing.T) {
	e := newExplore(t, mutex.Algorithms(), "central", map[string]any{"nodes": 3, "grant-timeout": int64(10)}, nil, 100_000)
	h := e.Handler(true)

	// the path in words, the coordinator's timer by its meaning
	rec := get(h, "/api/state?path=c2,c3,d2-1,t1:1")
	var st struct {
		Labels []string `json:"labels"`
		Words  []string `json:"words"`
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &st); rec.Code != 200 || err != nil {
		t.Fatalf("c2,c3,d2-1,t1:1: %d %v %.200s", rec.Code, err, rec.Body)
	}
	want := []string{"give P1 its command request", "give P2 its command request", "deliver RequestAccess from P1 to coordinator",
		"fire coordinator's timer 1, the grant timeout"}
	if strings.Join(st.Words, "|") != strings.Join(want, "|") {
		t.Errorf("the path in words: %q, want %q", st.Words, want)
	}

	// a query that does not parse is 400, the page as well as its state
	// (Go's query parser would drop path=c2;rm and show the initial state)
	for _, target := range []string{"/api/state?path=c2;rm", "/explore?path=c2;rm", "/api/strip?path=c2;rm"} {
		if rec := get(h, target); rec.Code != 400 {
			t.Errorf("%s: %d, want 400", target, rec.Code)
		}
	}
	if rec := get(h, "/api/state?path=c2;rm"); !strings.Contains(rec.Body.String(), "does not parse") {
		t.Errorf("path=c2;rm: %q, want it to say the query does not parse", rec.Body)
	}

	// a step not enabled: 400 in JSON, with the state of the valid prefix
	rec = get(h, "/api/state?path=c2,c3,d2-1,d2-1")
	var bad struct {
		Error  string `json:"error"`
		Valid  int    `json:"valid"`
		Prefix struct {
			Path string `json:"path"`
		} `json:"prefix"`
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &bad); rec.Code != 400 || err != nil || bad.Valid != 3 || bad.Prefix.Path != "c2,c3,d2-1" ||
		!strings.Contains(bad.Error, "step 4: d2-1 is not enabled") {
		t.Errorf("c2,c3,d2-1,d2-1: %d %v %+v, want 400 keeping the prefix c2,c3,d2-1", rec.Code, err, bad)
	}

	// an 8 KB label is echoed cut
	rec = get(h, "/api/state?path=c2,"+strings.Repeat("x", 8<<10))
	if rec.Code != 400 || rec.Body.Len() > 300 || !strings.Contains(rec.Body.String(), "xxx…") {
		t.Errorf("an 8 KB label: %d, %d bytes %.300q, want 400, cut with …", rec.Code, rec.Body.Len(), rec.Body)
	}

	// the strip: the path as a space-time diagram
	rec = get(h, "/api/strip?path=c2,c3,d2-1")
	if rec.Code != 200 || rec.Header().Get("Content-Type") != "image/svg+xml" || !strings.Contains(rec.Body.String(), "RequestAccess") {
		t.Errorf("the strip: %d %s %.200q", rec.Code, rec.Header().Get("Content-Type"), rec.Body)
	}
}

// With --serve --path P, / opens P.
func TestExplorerRootOpensPath(t *testing.T) {
	base := explorerServer(t, "mutex", "check", "central", "--nodes", "3", "--grant-timeout", "10", "--path", "c2,c3")
	c := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := c.Get(base + "/")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if loc := resp.Header.Get("Location"); resp.StatusCode != http.StatusFound || loc != "/explore?path=c2%2Cc3" {
		t.Errorf("/: %d to %q, want 302 to /explore?path=c2%%2Cc3", resp.StatusCode, loc)
	}
}

// A scenario takes --addr, as check does; --serve-addr, the old name,
// still works and is named in its own errors.
func TestScenarioAddr(t *testing.T) {
	for _, flag := range []string{"--addr", "--serve-addr"} {
		var stdout, stderr bytes.Buffer
		code := run(context.Background(), []string{"ringlab", "mutex", "scenario", "central-slow", "--serve", flag, "nowhere"}, &stdout, &stderr)
		if code != cliutil.ExitUsage || !strings.Contains(stderr.String(), flag+` "nowhere"`) {
			t.Errorf("scenario %s nowhere: exit %d, %q; want 2 naming %s", flag, code, stderr.String(), flag)
		}
	}
	var help bytes.Buffer
	run(context.Background(), []string{"ringlab", "mutex", "scenario", "central-slow", "--help"}, &help, io.Discard)
	if !strings.Contains(help.String(), "--addr") || strings.Contains(help.String(), "--serve-addr") {
		t.Errorf("scenario help: want --addr and not --serve-addr:\n%s", help.String())
	}
}
