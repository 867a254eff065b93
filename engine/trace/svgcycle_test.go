package trace_test

import (
	"bytes"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"ringlab/engine"
	"ringlab/engine/internal/nodetest"
	"ringlab/engine/node"
	"ringlab/engine/sim"
	"ringlab/engine/trace"
	"ringlab/internal/golden"
)

// lassoSVG draws a token passed round a ring of three for six hops, as a
// lasso: the first lap the prefix, the CycleNote after it, the second lap
// the cycle.
func lassoSVG(t *testing.T) []byte {
	t.Helper()
	var out bytes.Buffer
	r, err := trace.NewRenderer("svg", &out)
	if err != nil {
		t.Fatal(err)
	}
	h := trace.NewHeader("pass", "sim", 3, 1, nil, trace.TopoRing, nil, "ringlab test --path 'c1,d2-1,d3-2|d1-3,d2-1,d3-2'")
	if err := r.(trace.HeaderRenderer).Header(h); err != nil {
		t.Fatal(err)
	}
	recvs := 0
	sys := engine.System{Nodes: 3, Factory: nodetest.PassFactory(3, 6), Script: []node.Action{{At: 0, Node: 1, Cmd: node.CmdStart}}}
	_, err = sim.Runtime{Seed: 1, Messages: true}.Run(t.Context(), sys, func(e *trace.Event) {
		if err := r.Event(e); err != nil {
			t.Fatal(err)
		}
		if e.Kind == trace.KindRecv {
			if recvs++; recvs == 2 {
				note := trace.Event{V: trace.Version, T: e.T, Node: e.Node, Kind: trace.KindNote, Note: trace.CycleNote}
				if err := r.Event(&note); err != nil {
					t.Fatal(err)
				}
			}
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Summary(&trace.Summary{V: trace.Version, Kind: "summary", Algorithm: "pass", Runtime: "sim", Seed: 1, Nodes: 3}); err != nil {
		t.Fatal(err)
	}
	if err := r.Flush(); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}

// A lasso's cycle is drawn as a band from the cycle's note to the end of
// the run, with a bracket labelled "cycle: repeats for ever" and a dashed
// arrow back to its start (testdata/lasso.svg); the band begins after the
// prefix's last instant and covers every instant after it. A run without
// the note has no band.
func TestSVGDrawsTheLassoCycle(t *testing.T) {
	got := lassoSVG(t)
	golden.Check(t, filepath.Join("testdata", "lasso.svg"), got, *update)
	s := string(got)
	for _, want := range []string{`<g class="cycle">`, "⟳ cycle: repeats for ever", "↩ back to the start", trace.CycleNote} {
		if !strings.Contains(s, want) {
			t.Errorf("the picture lacks %q", want)
		}
	}
	band := regexp.MustCompile(`<g class="cycle">\n<rect x="([0-9.]+)" y="[0-9.]+" width="([0-9.]+)"`).FindStringSubmatch(s)
	if band == nil {
		t.Fatal("no band")
	}
	x0, _ := strconv.ParseFloat(band[1], 64)
	w, _ := strconv.ParseFloat(band[2], 64)
	var ticks []float64
	for _, m := range regexp.MustCompile(`<text class="tick" x="([0-9.]+)"`).FindAllStringSubmatch(s, -1) {
		x, _ := strconv.ParseFloat(m[1], 64)
		ticks = append(ticks, x)
	}
	// instants t=0 (start, send), t=1 (first hop), t=2 (second hop and the
	// note): the cycle is t=3 on
	if len(ticks) < 5 || !(x0 > ticks[2] && x0 < ticks[3]) || x0+w < ticks[len(ticks)-1] {
		t.Errorf("band %.1f..%.1f over instants at %v: want it from between the third and fourth to past the last", x0, x0+w, ticks)
	}
	var plain bytes.Buffer
	floodInto(t, mustRenderer(t, "svg", &plain), false, "ringlab test")
	if strings.Contains(plain.String(), `class="cycle"`) {
		t.Error("a run without a lasso has a cycle band")
	}
}

func mustRenderer(t *testing.T, format string, w *bytes.Buffer) trace.Renderer {
	t.Helper()
	r, err := trace.NewRenderer(format, w)
	if err != nil {
		t.Fatal(err)
	}
	return r
}
