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
// bounds, and with the whole space analysed the Explorer interns nothing
// new (the analysis met every state already).
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
		if got := e.Interned(); got != interned {
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
