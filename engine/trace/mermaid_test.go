package trace_test

import (
	"bytes"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"ringlab/engine/trace"
)

// TestMermaidCut: a run too long for Mermaid is cut where its text would
// pass MermaidLimit; the note says how many events were drawn, exactly those
// are, and the critical section left open is closed before the note.
func TestMermaidCut(t *testing.T) {
	const events = 3000
	var out bytes.Buffer
	r, err := trace.NewRenderer("mermaid", &out)
	if err != nil {
		t.Fatal(err)
	}
	h := trace.NewHeader("long", "sim", 2, 1, nil, trace.TopoComplete, nil, "ringlab test")
	if err := r.(trace.HeaderRenderer).Header(h); err != nil {
		t.Fatal(err)
	}
	if err := r.Event(&trace.Event{V: trace.Version, T: 0, Node: 1, Kind: trace.KindEnterCS}); err != nil {
		t.Fatal(err)
	}
	for k := 1; k < events; k++ { // alternate nodes, so that every state is a note of its own
		e := &trace.Event{V: trace.Version, T: int64(k), Node: 1 + k%2, Kind: trace.KindState, State: fmt.Sprintf("state %04d", k)}
		if err := r.Event(e); err != nil {
			t.Fatal(err)
		}
	}
	if err := r.Flush(); err != nil {
		t.Fatal(err)
	}
	text := out.String()
	checkMermaid(t, text)
	if len(text) > trace.MermaidLimit+500 {
		t.Errorf("the diagram has %d bytes, more than MermaidLimit %d", len(text), trace.MermaidLimit)
	}
	m := regexp.MustCompile(`✂ cut after (\d+) of (\d+) events`).FindStringSubmatch(text)
	if m == nil {
		t.Fatalf("no cut note in a diagram of %d bytes", len(text))
	}
	shown, _ := strconv.Atoi(m[1])
	if m[2] != strconv.Itoa(events) || shown < 100 || shown >= events {
		t.Fatalf("cut after %s of %s events, want some of %d", m[1], m[2], events)
	}
	if got := strings.Count(text, ": state "); got != shown-1 {
		t.Errorf("the diagram draws %d states, the note says %d events (one entry, %d states)", got, shown, shown-1)
	}
	if !strings.Contains(text, fmt.Sprintf("state %04d\n    end\n    Note over n1,n2: ✂", shown-1)) {
		t.Errorf("the last state drawn is not state %04d, followed by the end of the critical section and the cut note:\n…%s", shown-1, text[len(text)-400:])
	}
}
