package main

// The scheduler's server without a browser: how long a click takes, and
// that what the server keeps stays bounded however long a visitor clicks.

import (
	"context"
	"encoding/json"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"ringlab/election"
	"ringlab/engine"
	"ringlab/engine/serve"
	"ringlab/engine/statespace"
	"ringlab/mutex"
)

// newExplore builds the page's server for an area's algorithm as `check
// ALGO --serve` does, with the parameters given (and the search's
// configuration changed by tune, if set).
func newExplore(t testing.TB, algs []engine.Algorithm, name string, params map[string]any, tune func(*statespace.Config), maxStates int) *serve.Explore {
	t.Helper()
	alg, ok := engine.Find(algs, name)
	if !ok {
		t.Fatalf("no algorithm %s", name)
	}
	p := alg.ForCheck().Defaults()
	for k, v := range params {
		if err := p.Give(k, v); err != nil {
			t.Fatal(err)
		}
	}
	sys, cfg, err := statespace.For(alg, p, engine.Env{Runtime: "sim", MaxDelay: 1})
	if err != nil {
		t.Fatal(err)
	}
	if tune != nil {
		tune(&cfg)
	}
	spec := serve.ExploreSpec{Title: sys.Name, Topology: sys.Topology, Command: "ringlab check " + name, Config: cfg}
	for i := 1; i <= sys.Nodes; i++ {
		spec.Names = append(spec.Names, sys.Names(i))
	}
	e, err := serve.NewExplore(context.Background(), spec, maxStates, time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// clicker walks a served explorer at random: each click takes one of the
// enabled steps; at the end of a run, or past 30 steps, it goes back to a
// random earlier state of its path (a fork), as a user might.
type clicker struct {
	h    http.Handler
	rng  *rand.Rand
	path []string
}

type clickState struct {
	Steps []struct {
		Label string `json:"label"`
	} `json:"steps"`
}

func (c *clicker) click(t testing.TB) {
	if len(c.path) > 0 && (len(c.path) >= 30 || c.rng.IntN(8) == 0) {
		c.path = c.path[:c.rng.IntN(len(c.path))]
	}
	st := c.get(t, strings.Join(c.path, ","))
	if len(st.Steps) == 0 {
		c.path = c.path[:0]
		return
	}
	c.path = append(c.path, st.Steps[c.rng.IntN(len(st.Steps))].Label)
	c.get(t, strings.Join(c.path, ","))
}

func (c *clicker) get(t testing.TB, path string) clickState {
	req := httptest.NewRequest("GET", "http://localhost/api/state?path="+url.QueryEscape(path), nil)
	rec := httptest.NewRecorder()
	c.h.ServeHTTP(rec, req)
	if rec.Code != http.StatusOK {
		t.Fatalf("path %q: %d %s", path, rec.Code, rec.Body.String())
	}
	var st clickState
	if err := json.Unmarshal(rec.Body.Bytes(), &st); err != nil {
		t.Fatal(err)
	}
	return st
}

// Ten thousand seeded random clicks: the cache never holds more than its
// bounds, and with the whole space analysed the Explorer interns little
// that is new: the analysis keeps one state of each class the clock shift
// makes, and a click meets the node states of others of a class only
// where their clocks differ (1,326 things after the analysis, 1,361 after
// the clicks).
func TestExplorerServerMemoryStaysBounded(t *testing.T) {
	e := newExplore(t, mutex.Algorithms(), "ricart-agrawala", map[string]any{"nodes": 3}, nil, 2_000_000)
	if !e.Analysed() {
		t.Fatal("ricart-agrawala, 3 nodes: not analysed")
	}
	interned := e.Interned()
	c := &clicker{h: e.Handler(true), rng: rand.New(rand.NewPCG(1, 23))}
	maxEntries := 0
	for i := range 10_000 {
		c.click(t)
		entries, bytes := e.CacheSize()
		if entries > serve.MaxCacheEntries || bytes > serve.MaxCacheBytes {
			t.Fatalf("click %d: the cache holds %d views, %d bytes (bounds %d, %d)", i, entries, bytes, serve.MaxCacheEntries, serve.MaxCacheBytes)
		}
		maxEntries = max(maxEntries, entries)
		if got := e.Interned(); got > interned+interned/10 {
			t.Fatalf("click %d: the Explorer interns %d things, %d after the analysis", i, got, interned)
		}
	}
	if maxEntries < serve.MaxCacheEntries {
		t.Errorf("the cache never filled (%d views at most): the walk did not test its bound", maxEntries)
	}
}

// BenchmarkExplorerClick is one click on the page (a state not in the
// cache, replayed from its path, with every step's fate, and the state
// before it, mostly cached) on systems of up to 5 nodes; the last is one
// whose space is too large to analyse, clicked without the fates.
func BenchmarkExplorerClick(b *testing.B) {
	for _, c := range []struct {
		name   string
		algs   []engine.Algorithm
		alg    string
		params map[string]any
		states int // the analysis's bound; 0: it must not be analysed
	}{
		{"central-5", mutex.Algorithms(), "central", map[string]any{"nodes": 5}, 5_000_000},
		{"ricart-agrawala-3", mutex.Algorithms(), "ricart-agrawala", map[string]any{"nodes": 3}, 5_000_000},
		{"chang-roberts-5", election.Algorithms(), "chang-roberts", map[string]any{"nodes": 5, "initiators": "all"}, 5_000_000},
		{"anonymous-5", election.Algorithms(), "anonymous", map[string]any{"nodes": 5, "initiators": "all"}, 5_000_000},
		{"ricart-agrawala-5-unanalysed", mutex.Algorithms(), "ricart-agrawala", map[string]any{"nodes": 5}, 0},
	} {
		b.Run(c.name, func(b *testing.B) {
			e := newExplore(b, c.algs, c.alg, c.params, nil, max(c.states, 1000))
			if e.Analysed() != (c.states > 0) {
				b.Fatalf("%s: analysed %v", c.name, e.Analysed())
			}
			cl := &clicker{h: e.Handler(true), rng: rand.New(rand.NewPCG(2, 23))}
			b.ReportAllocs()
			for b.Loop() {
				cl.click(b)
			}
		})
	}
}

// The explorer's server answers GET and HEAD only, only to a loopback
// host when told it listens on one, and refuses a path that is not
// enabled, or too long, with 400 naming the step.
func TestExplorerServerGuards(t *testing.T) {
	e := newExplore(t, mutex.Algorithms(), "central", map[string]any{"nodes": 3, "grant-timeout": int64(10)}, nil, 100_000)
	h := e.Handler(true)
	for _, c := range []struct {
		method, host, target string
		code                 int
		body                 string
	}{
		{"GET", "localhost:8080", "/api/state?path=c2,c3", 200, `"path":"c2,c3"`},
		{"GET", "127.0.0.1", "/explore", 200, "ringlab explorer"},
		{"GET", "evil.example:8080", "/api/state", 403, "only to localhost"},
		{"POST", "localhost", "/api/state", 405, "only GET and HEAD"},
		{"GET", "localhost", "/api/state?path=d2-1", 400, "step 1: d2-1 is not enabled here"},
		{"GET", "localhost", "/api/state?path=q9", 400, "path:"},
		{"GET", "localhost", "/api/state?path=" + strings.Repeat("c2,", serve.MaxPathSteps) + "c2", 400, "more than"},
		{"GET", "localhost", "/api/shortest?path=c2,c3", 200, `"steps":"d2-1,t1:1,d3-1,d1-3"`},
		{"GET", "localhost", "/static/explore.js", 200, "scheduler"},
		{"GET", "localhost", "/log/1", 404, ""},
	} {
		req := httptest.NewRequest(c.method, "http://"+c.host+c.target, nil)
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != c.code || !strings.Contains(rec.Body.String(), c.body) {
			t.Errorf("%s %.80s (Host %s): %d %.200q, want %d with %q", c.method, c.target, c.host, rec.Code, rec.Body.String(), c.code, c.body)
		}
	}
}

// Whatever path a request names, the server answers 200 or 400, never
// fails inside.
func FuzzExplorerPath(f *testing.F) {
	e := newExplore(f, mutex.Algorithms(), "central", map[string]any{"nodes": 3, "grant-timeout": int64(10)}, nil, 100_000)
	h := e.Handler(true)
	for _, s := range []string{"", "c2,c3,d2-1", "c2,c3,d2-1,t1:1,d1-2,d3-1,d1-3", "d2-1.3", "x1", "t1:99", ",,", "c2,c2,c2"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, path string) {
		for _, api := range []string{"/api/state", "/api/shortest"} {
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, httptest.NewRequest("GET", "http://localhost"+api+"?path="+url.QueryEscape(path), nil))
			if rec.Code != 200 && rec.Code != 400 {
				t.Errorf("%s %q: %d %s", api, path, rec.Code, rec.Body.String())
			}
		}
	})
}

// Bad input to `check --serve` is refused before any work, with the flag
// named, exit 2.
func TestCheckServeRefusesBadInput(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--addr", "nowhere"}, `--addr "nowhere": want HOST:PORT`},
		{[]string{"--path", "d2-1"}, "--path: step 1: d2-1 is not enabled here"},
		{[]string{"--path", "q"}, "--path: "},
		{[]string{"--explore-time", "0s"}, "--explore-time must be positive"},
		{[]string{"--explore-states", "-1"}, "--explore-states must not be negative"},
	} {
		var out, errb strings.Builder
		args := append([]string{"ringlab", "mutex", "check", "central", "--nodes", "3", "--serve"}, c.args...)
		if code := run(context.Background(), args, &out, &errb); code != 2 || !strings.Contains(errb.String(), c.want) || out.Len() != 0 {
			t.Errorf("%v: exit %d, stderr %q, stdout %q; want 2 with %q", c.args, code, errb.String(), out.String(), c.want)
		}
	}
}
