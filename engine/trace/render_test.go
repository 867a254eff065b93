package trace_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"encoding/xml"
	"flag"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"ringlab/engine"
	"ringlab/engine/internal/nodetest"
	"ringlab/engine/node"
	"ringlab/engine/sim"
	"ringlab/engine/trace"
	"ringlab/internal/golden"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden")

// floodLog runs a small flood with a drop and a crash on the simulator and
// returns its NDJSON log, header first, with the names A..D.
func floodLog(t testing.TB, vc bool) []byte {
	t.Helper()
	var buf bytes.Buffer
	r, _ := trace.NewRenderer("json", &buf)
	h := trace.NewHeader("flood", "sim", 4, 3, func(i int) string { return string(rune('A' + i - 1)) }, trace.TopoComplete, nil, "ringlab test --seed 3")
	if err := r.(trace.HeaderRenderer).Header(h); err != nil {
		t.Fatal(err)
	}
	floodInto(t, r, vc, "ringlab test --seed 3")
	return buf.Bytes()
}

// floodInto runs a small flood with a drop and a crash on the simulator
// (with vector clocks if vc) and renders its events and summary with r.
func floodInto(t testing.TB, r trace.Renderer, vc bool, replay string) {
	t.Helper()
	sys := engine.System{Nodes: 4, Factory: nodetest.FloodFactory(node.Complete(4)),
		Script: []node.Action{{At: 0, Node: 1, Cmd: node.CmdStart}, {At: 1, Node: 4, Cmd: node.CmdCrash}}}
	rt := sim.Runtime{Seed: 3, Faults: sim.Faults{Drop: 0.2}, VectorClocks: vc, Messages: true}
	res, err := rt.Run(t.Context(), sys, func(e *trace.Event) {
		if err := r.Event(e); err != nil {
			t.Fatal(err)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	sum := trace.Summary{V: trace.Version, Kind: "summary", Algorithm: "flood", Runtime: "sim", Seed: 3, Nodes: 4,
		Messages: res.Messages, ByType: res.ByType, Dropped: res.Dropped, Replay: replay,
		Verdicts: []trace.Verdict{{Property: "termination", OK: true}}}
	if err := r.Summary(&sum); err != nil {
		t.Fatal(err)
	}
	if err := r.Flush(); err != nil {
		t.Fatal(err)
	}
}

// renderLog renders a saved log in format.
func renderLog(t testing.TB, log []byte, format string) []byte {
	t.Helper()
	l, err := trace.Load(bytes.NewReader(log))
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	r, err := trace.NewRenderer(format, &out)
	if err != nil {
		t.Fatal(err)
	}
	if err := l.Render(r); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}

var goldenExt = map[string]string{"text": "txt", "mermaid": "mmd", "svg": "svg", "shiviz": "shiviz.log", "chrome-trace": "trace.json"}

// TestGoldenFormats compares each format's picture of a small simulator run
// (a flood that loses messages and crashes a node) with testdata.
func TestGoldenFormats(t *testing.T) {
	for _, vc := range []bool{false, true} {
		log := floodLog(t, vc)
		for format, ext := range goldenExt {
			name := "flood." + ext
			if vc {
				if format != "text" {
					continue
				}
				name = "flood-vc." + ext
			}
			got := renderLog(t, log, format)
			golden.Check(t, filepath.Join("testdata", name), got, *update)
		}
	}
}

// countEvents counts a log's events of kind.
func countEvents(t testing.TB, log []byte, kind string) int {
	l, err := trace.Load(bytes.NewReader(log))
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, e := range l.Events {
		if e.Kind == kind {
			n++
		}
	}
	return n
}

// svgElements parses an SVG and counts its elements by name and class.
func svgElements(t testing.TB, svg []byte) map[string]int {
	t.Helper()
	d := xml.NewDecoder(bytes.NewReader(svg))
	count := map[string]int{}
	for {
		tok, err := d.Token()
		if err != nil {
			if err.Error() == "EOF" {
				return count
			}
			t.Fatalf("the SVG is not well-formed XML: %v", err)
		}
		if se, ok := tok.(xml.StartElement); ok {
			count[se.Name.Local]++
			for _, a := range se.Attr {
				if a.Name.Local == "class" {
					count[se.Name.Local+"."+a.Value]++
				}
			}
		}
	}
}

// TestSVGStructure: well-formed XML, one line per node, one arrow per
// delivered message, a cross per lost one, no script.
func TestSVGStructure(t *testing.T) {
	log := floodLog(t, false)
	c := svgElements(t, renderLog(t, log, "svg"))
	recv, drops := countEvents(t, log, trace.KindRecv), countEvents(t, log, trace.KindDrop)
	if c["line.node"] != 4 {
		t.Errorf("%d node lines, want 4", c["line.node"])
	}
	if c["line.msg"] != recv || recv == 0 {
		t.Errorf("%d message arrows, want one per delivered message: %d", c["line.msg"], recv)
	}
	if c["line.lost"] != drops || drops == 0 {
		t.Errorf("%d lost arrows, want %d", c["line.lost"], drops)
	}
	if c["g.crash"] != 1 {
		t.Errorf("%d crash marks, want 1", c["g.crash"])
	}
	if c["script"] != 0 {
		t.Error("the SVG has a script")
	}
}

type chromeEvent struct {
	Name string  `json:"name"`
	Ph   string  `json:"ph"`
	Ts   float64 `json:"ts"`
	Tid  int     `json:"tid"`
	ID   *int    `json:"id"`
	BP   string  `json:"bp"`
}

func chromeEvents(t testing.TB, b []byte) []chromeEvent {
	t.Helper()
	var f struct {
		TraceEvents []chromeEvent `json:"traceEvents"`
	}
	if err := json.Unmarshal(b, &f); err != nil {
		t.Fatalf("the chrome trace is not valid JSON: %v", err)
	}
	return f.TraceEvents
}

// checkFlows: every flow start has exactly one end with its id, later or
// at the same time, on another track or the same.
func checkFlows(t testing.TB, evs []chromeEvent) int {
	t.Helper()
	starts, ends := map[int]chromeEvent{}, map[int]chromeEvent{}
	for _, e := range evs {
		switch e.Ph {
		case "s":
			if _, dup := starts[*e.ID]; dup {
				t.Errorf("flow id %d starts twice", *e.ID)
			}
			starts[*e.ID] = e
		case "f":
			if _, dup := ends[*e.ID]; dup {
				t.Errorf("flow id %d ends twice", *e.ID)
			}
			ends[*e.ID] = e
		}
	}
	for id, s := range starts {
		f, ok := ends[id]
		if !ok || f.Ts < s.Ts || f.BP != "e" {
			t.Errorf("flow %d: start %+v, end %+v", id, s, f)
		}
	}
	if len(starts) != len(ends) {
		t.Errorf("%d flow starts, %d ends", len(starts), len(ends))
	}
	return len(starts)
}

// TestChromeTraceFlows: valid JSON, a named track per node, a flow per
// delivered message with matching ids.
func TestChromeTraceFlows(t *testing.T) {
	log := floodLog(t, false)
	evs := chromeEvents(t, renderLog(t, log, "chrome-trace"))
	if n := checkFlows(t, evs); n != countEvents(t, log, trace.KindRecv) {
		t.Errorf("%d flows, want one per delivered message", n)
	}
	tracks := 0
	for _, e := range evs {
		if e.Ph == "M" && e.Name == "thread_name" {
			tracks++
		}
	}
	if tracks != 4 {
		t.Errorf("%d named tracks, want 4", tracks)
	}
}

var shivizLine = regexp.MustCompile(`^(\S*) (\{.*\})$`)

// checkShiViz checks a ShiViz log against ShiViz's rules: the regex line
// and a blank line first; then per event a "host {clock}" line and a text
// line; a host's own entry is 1 at its first event and goes up by one per
// event; a clock never goes down at a host; an entry for another host
// names an event of that host already in the log. It returns the events.
func checkShiViz(t testing.TB, b []byte) int {
	t.Helper()
	lines := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
	if len(lines) < 2 || lines[0] != trace.ShivizRegex || lines[1] != "" {
		t.Fatalf("the log does not start with the regex line and a blank line: %q", lines[:min(2, len(lines))])
	}
	body := lines[2:]
	if len(body)%2 != 0 {
		t.Fatalf("%d lines after the header: entries are two lines each", len(body))
	}
	last := map[string]map[string]int{}
	for k := 0; k < len(body); k += 2 {
		m := shivizLine.FindStringSubmatch(body[k])
		if m == nil {
			t.Fatalf("entry %d: %q is not `host {clock}`", k/2, body[k])
		}
		host := m[1]
		var clock map[string]int
		if err := json.Unmarshal([]byte(m[2]), &clock); err != nil {
			t.Fatalf("entry %d: clock %s: %v", k/2, m[2], err)
		}
		prev := last[host]
		if clock[host] != prev[host]+1 {
			t.Errorf("entry %d: %s's own entry is %d after %d", k/2, host, clock[host], prev[host])
		}
		for h, v := range prev {
			if clock[h] < v {
				t.Errorf("entry %d: %s's entry for %s went down from %d to %d", k/2, host, h, v, clock[h])
			}
		}
		for h, v := range clock {
			if h != host && v > last[h][h] {
				t.Errorf("entry %d: %s's clock names event %d of %s, which has %d so far", k/2, host, v, h, last[h][h])
			}
			if v < 1 {
				t.Errorf("entry %d: entry %s=%d (ShiViz wants positive entries)", k/2, h, v)
			}
		}
		last[host] = clock
	}
	return len(body) / 2
}

// TestShiVizClocks: the ShiViz log obeys ShiViz's rules whether or not the
// run carried vector clocks, with one entry per node event.
func TestShiVizClocks(t *testing.T) {
	for _, vc := range []bool{false, true} {
		log := floodLog(t, vc)
		l, _ := trace.Load(bytes.NewReader(log))
		if n := checkShiViz(t, renderLog(t, log, "shiviz")); n != len(l.Events) {
			t.Errorf("vc=%v: %d ShiViz entries, %d events", vc, n, len(l.Events))
		}
	}
}

// TestHeaderRoundTrip: the header written by the JSON renderer is read
// back by Load; a log without one still loads, with the fallback names.
func TestHeaderRoundTrip(t *testing.T) {
	log := floodLog(t, false)
	l, err := trace.Load(bytes.NewReader(log))
	if err != nil {
		t.Fatal(err)
	}
	if !l.HasHeader || l.Header.Name(2) != "B" || l.Header.Label(2) != "B (node 2)" || l.Header.Topology != "complete" || l.Header.Seed != 3 {
		t.Errorf("header read back: %+v", l.Header)
	}
	first, rest, _ := bytes.Cut(log, []byte("\n"))
	if !bytes.HasPrefix(first, []byte(`{"v":1,"kind":"header","algorithm":"flood","runtime":"sim","nodes":4,"seed":3,"names":["A","B","C","D"],"topology":"complete"`)) {
		t.Errorf("header line %s", first)
	}
	old, err := trace.Load(bytes.NewReader(rest))
	if err != nil {
		t.Fatal(err)
	}
	if old.HasHeader || old.Header.Name(2) != "node 2" || old.Header.Nodes != 4 || old.Header.Topology != "complete" {
		t.Errorf("a log without a header reads as %+v", old.Header)
	}
	var text bytes.Buffer
	r, _ := trace.NewRenderer("text", &text)
	if err := old.Render(r); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(text.String(), "node 2") || strings.Contains(text.String(), " B ") {
		t.Errorf("text of a headerless log:\n%s", text.String())
	}
}

// TestLoadSaysWhatItGot: logs that cannot be drawn give errors that say
// what the file held.
func TestLoadSaysWhatItGot(t *testing.T) {
	for in, want := range map[string]string{
		"":                                "the log is empty",
		`{"v":1,"kind":"summary"}` + "\n": "only a summary line",
		`{"v":1,"kind":"summary","algorithm":"election ring"}`: "only the summary of a election ring run",
		"hello\n":                            "not a JSON object",
		`{"kind":"weird"}`:                   `kind "weird" and no schema version`,
		`{"v":3,"kind":"send"}`:              "schema version 3",
		`{"v":1,"kind":"header","nodes":-1}`: "out of range",
	} {
		_, err := trace.Load(strings.NewReader(in))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Load(%q) = %v, want an error with %q", in, err, want)
		}
	}
}

// tally is a dialect defined here: each "tick" line is a note at node 1,
// and its "end" line the summary. It stands for any program's own log.
type tally struct{ ticks []string }

var tallyDialect = trace.Dialect{Name: "tally", Source: "the tally's log", Kinds: []string{"tick", "end"},
	New: func() trace.DialectLog { return &tally{} }}

func (d *tally) Add(kind string, b []byte) error {
	var l struct{ Text string }
	if err := json.Unmarshal(b, &l); err != nil {
		return err
	}
	if kind == "tick" && l.Text == "" {
		return fmt.Errorf("a tick without text")
	}
	d.ticks = append(d.ticks, l.Text)
	return nil
}

func (d *tally) Replay(h trace.Handlers) error {
	if err := h.Header(&trace.Header{V: trace.Version, Kind: trace.KindHeader, Algorithm: "tally", Nodes: 1}); err != nil {
		return err
	}
	for i, s := range d.ticks {
		if err := h.Event(&trace.Event{V: trace.Version, Seq: int64(i + 1), Node: 1, Kind: trace.KindNote, Note: s}); err != nil {
			return err
		}
	}
	return h.Summary(&trace.Summary{V: trace.Version, Kind: "summary", Algorithm: "tally", Nodes: 1})
}

// TestDialect: a log of a dialect the reader is given reads as its
// events; without the dialect, and mixed with engine lines, it is refused
// with the line and the dialect named.
func TestDialect(t *testing.T) {
	in := "{\"kind\":\"tick\",\"text\":\"a\"}\n{\"kind\":\"tick\",\"text\":\"b\"}\n{\"kind\":\"end\"}\n"
	l, err := trace.Load(strings.NewReader(in), tallyDialect)
	if err != nil {
		t.Fatal(err)
	}
	if len(l.Events) != 3 || l.Events[1].Note != "b" || l.Header.Algorithm != "tally" || l.Summary == nil {
		t.Errorf("events %+v, header %+v, summary %+v", l.Events, l.Header, l.Summary)
	}
	for in, want := range map[string]string{
		"{\"kind\":\"tick\",\"text\":\"a\"}\n{\"v\":1,\"kind\":\"send\"}":            `line 2: a "send" line inside a tally log`,
		"{\"v\":1,\"kind\":\"send\",\"node\":1}\n{\"kind\":\"tick\",\"text\":\"a\"}": `line 2: a tally "tick" line inside an engine log`,
		"{\"kind\":\"tick\"}":  "line 1: tally log: a tick without text",
		"{\"kind\":\"weird\"}": `kind "weird" and no schema version "v" (ringlab reads the NDJSON of --format json or --events, and the tally's log)`,
	} {
		if _, err := trace.Load(strings.NewReader(in), tallyDialect); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Load(%q) = %v, want an error with %q", in, err, want)
		}
	}
	if _, err := trace.Load(strings.NewReader(in)); err == nil || !strings.Contains(err.Error(), `kind "tick" and no schema version`) {
		t.Errorf("without the dialect: %v", err)
	}
}

// TestShort writes messages the way the chapter labels arrows.
func TestShort(t *testing.T) {
	for in, want := range map[string]string{
		`{"type":"REQUEST","kind":"REQUEST","t":110,"id":80}`: "REQUEST(T=110, id=80)",
		`{"type":"OK"}`:                                      "OK",
		`{"type":"LIST","ids":[1,2,3]}`:                      "LIST(ids=[1,2,3])",
		`{"type":"X","s":"a very long string that goes on"}`: "X(S=a very long string that…)",
	} {
		var m trace.Msg
		if err := m.UnmarshalJSON([]byte(in)); err != nil {
			t.Fatal(err)
		}
		if got := trace.Short(&m); got != want {
			t.Errorf("Short(%s) = %q, want %q", in, got, want)
		}
	}
}

// TestDuration: a live run's nanoseconds in readable units.
func TestDuration(t *testing.T) {
	for ns, want := range map[int64]string{850: "850ns", 12_345: "12.35µs", 3_216_000: "3.22ms", 1_500_000_000: "1.5s"} {
		if got := trace.Duration(ns); got != want {
			t.Errorf("Duration(%d) = %q, want %q", ns, got, want)
		}
	}
	h := &trace.Header{Runtime: "live"}
	if got := h.FormatTime(2_000_000); got != "2ms" {
		t.Errorf("live FormatTime = %q", got)
	}
}

// mermaidStatement is every line the Mermaid renderer may write.
var mermaidStatement = regexp.MustCompile(`^(%% [^\n]*|sequenceDiagram|    participant n\d+ as [^;#<>&%"{}\\]*|    Note over n\d+(,n\d+)?: [^;#<>&%"{}\\]*|    rect rgb\(\d+, \d+, \d+\)|    end|    n\d+(->>|-x)n\d+: [^;#<>&%"{}\\]*|    %% [^\n]*)$`)

var mermaidEntity = regexp.MustCompile(`#[a-z0-9]+;`)

// checkMermaid fails on a line that is not one of the renderer's own
// statements (text from the log that broke out of its label or comment).
func checkMermaid(t testing.TB, out string) {
	t.Helper()
	for _, line := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
		plain := mermaidEntity.ReplaceAllString(strings.ReplaceAll(line, "<br/>", " "), "")
		if !mermaidStatement.MatchString(plain) || strings.Contains(line, "}%%") {
			t.Fatalf("line %q is not a statement of the renderer", line)
		}
	}
}

// fuzzLog is a small log whose every text field is s.
func fuzzLog(s string) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	msg := map[string]any{"type": "M" + s, "f": s}
	_ = enc.Encode(trace.NewHeader(s, s, 2, 1, func(i int) string { return s + fmt.Sprint(i) }, trace.TopoRing, nil, s))
	lines := []map[string]any{
		{"v": 1, "seq": 1, "t": 0, "node": 1, "kind": "cmd", "cmd": s},
		{"v": 1, "seq": 2, "t": 0, "node": 1, "kind": "send", "from": 1, "to": 2, "msg": msg},
		{"v": 1, "seq": 3, "t": 1, "node": 2, "kind": "recv", "from": 1, "to": 2, "msg": msg},
		{"v": 1, "seq": 4, "t": 1, "node": 2, "kind": "state", "state": s, "note": s},
		{"v": 1, "seq": 5, "t": 1, "node": 2, "kind": "enter_cs"},
		{"v": 1, "seq": 6, "t": 2, "node": 2, "kind": "note", "note": s},
		{"v": 1, "seq": 7, "t": 2, "node": 2, "kind": "violation", "property": s, "detail": s},
		{"v": 1, "seq": 8, "t": 3, "node": 1, "kind": "drop", "from": 1, "to": 2, "msg": msg, "note": s},
		{"v": 1, "seq": 9, "t": 3, "node": 1, "kind": "leader", "leader": 1, "note": s},
		{"v": 1, "seq": 10, "t": 4, "node": 2, "kind": "exit_cs"},
		{"v": 1, "kind": "summary", "algorithm": s, "runtime": s, "replay": s, "by_type": map[string]int{s: 1},
			"verdicts": []map[string]any{{"property": s, "ok": false, "detail": s}}, "extra": map[string]any{s: s}},
	}
	for _, l := range lines {
		_ = enc.Encode(l)
	}
	return b.Bytes()
}

// FuzzRenderers puts arbitrary text in every field of a log and checks
// that no renderer lets it out of its place: Mermaid lines stay the
// renderer's own statements, the SVG stays well-formed with the same
// elements, the Chrome trace stays valid JSON with its flows, the ShiViz
// log keeps its two-line entries, the text one line per event.
func FuzzRenderers(f *testing.F) {
	for _, s := range []string{"x", "a\nb", "%%{init: {}}%%\nNote over n1: pwned", "</text><script>alert(1)</script>", `"},{"ph":"X`,
		"#59;;end\rrect", "\u2028\u2029\x00\x1b[31m", "\xff\xfe", "}%%", "&amp;<![CDATA[", "n1->>n2: x"} {
		f.Add(s)
	}
	base := svgElements(f, renderLog(f, fuzzLog("x"), "svg"))
	f.Fuzz(func(t *testing.T, s string) {
		log := fuzzLog(s)
		l, err := trace.Load(bytes.NewReader(log))
		if err != nil {
			t.Skip() // text JSON cannot carry (invalid UTF-8 is replaced, still loads)
		}
		checkMermaid(t, string(renderLog(t, log, "mermaid")))
		got := svgElements(t, renderLog(t, log, "svg"))
		for k, v := range base {
			if got[k] != v && !strings.HasPrefix(k, "text") && !strings.HasPrefix(k, "marker") && !strings.HasPrefix(k, "path") {
				t.Fatalf("the SVG has %d %s elements, %d with plain text", got[k], k, v)
			}
		}
		if len(got) > len(base)+2 {
			t.Fatalf("new kinds of SVG elements: %v (plain text: %v)", got, base)
		}
		checkFlows(t, chromeEvents(t, renderLog(t, log, "chrome-trace")))
		if n := checkShiViz(t, renderLog(t, log, "shiviz")); n != len(l.Events) {
			t.Fatalf("%d ShiViz entries for %d events", n, len(l.Events))
		}
		text := renderLog(t, log, "text")
		sc := bufio.NewScanner(bytes.NewReader(text))
		lines := 0
		for sc.Scan() {
			lines++
		}
		// events, a blank line, the run line, messages, one extra, one verdict, replay
		if want := len(l.Events) + 6; lines != want {
			t.Fatalf("text has %d lines, want %d:\n%s", lines, want, text)
		}
	})
}

// FuzzLoad: no input makes the log reader panic.
func FuzzLoad(f *testing.F) {
	f.Add(floodLog(f, false))
	f.Add([]byte(`{"kind":"tick","text":"a"}` + "\n" + `{"kind":"end"}`))
	f.Add([]byte(`{"v":1,"kind":"summary"}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		l, err := trace.Load(bytes.NewReader(b), tallyDialect)
		if err != nil {
			return
		}
		for _, format := range []string{"text", "mermaid", "svg", "shiviz", "chrome-trace"} {
			r, _ := trace.NewRenderer(format, &bytes.Buffer{})
			if err := l.Render(r); err != nil {
				t.Fatal(err)
			}
		}
	})
}

// bidiControls are the characters that reorder the text around them.
var bidiControls = []rune{'\u202a', '\u202b', '\u202c', '\u202d', '\u202e', '\u2066', '\u2067', '\u2068', '\u2069', '\u200e', '\u200f', '\u061c'}

// TestBidiControlsNeutralised: a bidirectional control in a name, a state,
// a note or a message (U+202E would show "N5‮exe.gnp" as "N5png.exe", a
// label reversed) reaches no renderer's output; each becomes a space, as a
// control character does.
func TestBidiControlsNeutralised(t *testing.T) {
	for _, c := range bidiControls {
		s := "N" + string(c) + "evil"
		log := fuzzLog(s)
		for _, format := range []string{"text", "svg", "mermaid"} {
			out := string(renderLog(t, log, format))
			if i := strings.IndexRune(out, c); i >= 0 {
				t.Errorf("%U in the %s output: %q", c, format, out[max(0, i-20):min(len(out), i+20)])
			}
			if !strings.Contains(out, "N evil") {
				t.Errorf("%U: the %s output does not show the name as %q", c, format, "N evil")
			}
		}
	}
}
