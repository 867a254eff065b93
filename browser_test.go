package main

// The browser test: headless Chromium, driven through the DevTools protocol
// (chromedp), loads served runs, steps through them with the keyboard and
// checks what the page shows against the log itself. It needs Debian's
// chromium (or RINGLAB_CHROMIUM); `bash .ci/run` installs it. With
// RINGLAB_UPDATE=1 it rewrites the screenshots in engine/serve/testdata/
// (the pictures of engine/serve's README). It stands in the top package
// because its logs come from the areas' commands, which the engine's own
// tests do not import.

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image/png"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"ringlab/engine/cliutil"
	"ringlab/engine/serve"
)

// runLog runs a ringlab command line in-process and returns its NDJSON log.
func runLog(t testing.TB, args ...string) []byte {
	t.Helper()
	var out, errb bytes.Buffer
	if code := run(context.Background(), append([]string{"ringlab"}, args...), &out, &errb); code != 0 && code != cliutil.ExitViolation {
		t.Fatalf("ringlab %s: exit %d\n%s", strings.Join(args, " "), code, errb.String())
	}
	return out.Bytes()
}

// withHeader returns log with a header line first, as every run log has
// one: a log that already starts with one is returned as it is; otherwise
// the header is built from the summary and the names and topology given.
func withHeader(t testing.TB, log []byte, names []string, topology string) []byte {
	t.Helper()
	if first, _, _ := bytes.Cut(log, []byte("\n")); bytes.Contains(first, []byte(`"kind":"header"`)) {
		return log
	}
	lines := bytes.Split(bytes.TrimSpace(log), []byte("\n"))
	var sum struct {
		Algorithm, Runtime, Replay string
		Nodes                      int
		Seed                       uint64
	}
	if err := json.Unmarshal(lines[len(lines)-1], &sum); err != nil {
		t.Fatal(err)
	}
	h, err := json.Marshal(map[string]any{"v": 1, "kind": "header", "algorithm": sum.Algorithm, "runtime": sum.Runtime,
		"nodes": sum.Nodes, "seed": sum.Seed, "names": names, "topology": topology, "replay": sum.Replay})
	if err != nil {
		t.Fatal(err)
	}
	return append(append(h, '\n'), log...)
}

// withoutHeader drops the header line, as in logs written before there was one.
func withoutHeader(log []byte) []byte {
	if first, rest, ok := bytes.Cut(log, []byte("\n")); ok && bytes.Contains(first, []byte(`"kind":"header"`)) {
		return rest
	}
	return log
}

func chromiumPath(t *testing.T) string {
	if p := os.Getenv("RINGLAB_CHROMIUM"); p != "" {
		return p
	}
	if _, err := os.Stat("/usr/bin/chromium"); err == nil {
		return "/usr/bin/chromium"
	}
	t.Skip("needs chromium: apt-get install chromium, or run bash .ci/run")
	return ""
}

// browser starts a headless Chromium for one test; it is stopped (and its
// process waited for) when the test ends.
func browser(t *testing.T) context.Context {
	path := chromiumPath(t)
	actx, acancel := chromedp.NewExecAllocator(context.Background(),
		chromedp.ExecPath(path), chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU,
		chromedp.Flag("disable-quic", true), chromedp.NoFirstRun, chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true), chromedp.Flag("disable-sync", true),
		chromedp.UserDataDir(t.TempDir()), chromedp.WindowSize(1400, 1000))
	ctx, cancel := chromedp.NewContext(actx)
	t.Cleanup(func() { cancel(); acancel() })
	if err := chromedp.Do(ctx); err != nil { // starts the browser
		t.Fatalf("starting %s: %v", path, err)
	}
	return ctx
}

func do(t *testing.T, ctx context.Context, steps ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	if err := chromedp.Do(ctx, steps...); err != nil {
		t.Fatal(err)
	}
}

func eval[T any](t *testing.T, ctx context.Context, js string) T {
	t.Helper()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](js))
	if err != nil {
		t.Fatalf("%s: %v", js, err)
	}
	return v
}

// open loads a run's page and waits until the log is drawn.
func open(t *testing.T, ctx context.Context, url string) {
	t.Helper()
	do(t, ctx, chromedp.Navigate(url))
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool]("window.ringlab && window.ringlab.ready === true", chromedp.WithPollingTimeout(60*time.Second))); err != nil {
		t.Fatalf("%s never became ready: %v", url, err)
	}
}

// shown is what the page shows at one step, read from its text.
type shown struct {
	Step   int      `json:"step"`
	What   string   `json:"what"`
	Nodes  []string `json:"nodes"`  // each row of the nodes table
	Flight []string `json:"flight"` // the messages-in-flight list
	Banner string   `json:"banner"` // "" when hidden
}

const readShown = `(() => ({
	step: window.ringlab.c,
	what: document.getElementById("what").textContent,
	nodes: [...document.querySelectorAll("#nodes tbody tr")].map(r => [...r.cells].map(c => c.textContent).join(" | ")),
	flight: [...document.querySelectorAll("#flight li")].map(li => li.textContent).filter(s => s !== "none"),
	banner: document.getElementById("banner").hidden ? "" : document.getElementById("banner").textContent,
}))()`

func read(t *testing.T, ctx context.Context) shown { return eval[shown](t, ctx, readShown) }

// oracle folds a log in Go, independently of the page: each node's state
// and the number of messages in flight after every step.
type oracle struct {
	states [][]string // states[c][i-1]: node i's state after c events ("—" before any)
	flight []int
}

func fold(t *testing.T, log []byte, n int) oracle {
	t.Helper()
	var o oracle
	cur := make([]string, n)
	for i := range cur {
		cur[i] = "—"
	}
	o.states = append(o.states, append([]string(nil), cur...))
	o.flight = append(o.flight, 0)
	inFlight := 0
	for _, l := range bytes.Split(bytes.TrimSpace(log), []byte("\n")) {
		var e struct {
			Kind, State string
			Node        int
		}
		if err := json.Unmarshal(l, &e); err != nil {
			t.Fatal(err)
		}
		switch e.Kind {
		case "header", "summary":
			continue
		case "send", "dup":
			inFlight++
		case "recv", "drop":
			inFlight--
		case "state":
			cur[e.Node-1] = e.State
		}
		o.states = append(o.states, append([]string(nil), cur...))
		o.flight = append(o.flight, inFlight)
	}
	return o
}

// check compares what the page shows with the oracle at its step.
func (o oracle) check(t *testing.T, s shown) {
	t.Helper()
	for i, row := range s.Nodes {
		cells := strings.Split(row, " | ")
		if got, want := strings.Fields(cells[1])[0], o.states[s.Step][i]; got != want {
			t.Errorf("step %d: node %d shows %q, the log says %q", s.Step, i+1, cells[1], want)
		}
	}
	if len(s.Flight) != o.flight[s.Step] {
		t.Errorf("step %d: %d messages in flight shown (%q), the log says %d", s.Step, len(s.Flight), s.Flight, o.flight[s.Step])
	}
}

func screenshot(t *testing.T, ctx context.Context, name string) {
	t.Helper()
	b, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil || img.Bounds().Dx() < 1000 {
		t.Fatalf("screenshot %s: %v, %v", name, err, img.Bounds())
	}
	dir := t.TempDir()
	if os.Getenv("RINGLAB_UPDATE") == "1" {
		dir = filepath.Join("engine", "serve", "testdata")
	}
	if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
		t.Fatal(err)
	}
}

func serveLogs(t *testing.T, logs map[string][]byte, order ...string) string {
	t.Helper()
	var s serve.Server
	for _, name := range order {
		if _, err := s.AddLog(name, logs[name]); err != nil {
			t.Fatal(err)
		}
	}
	ts := httptest.NewServer(s.Handler(true))
	t.Cleanup(ts.Close)
	return ts.URL
}

func press(t *testing.T, ctx context.Context, key string, times int) {
	t.Helper()
	for range times {
		do(t, ctx, chromedp.KeyEvent(key))
	}
}

var ringNames = []string{"N5", "N3", "N7", "N1", "N4"}

func TestBrowserRingElection(t *testing.T) {
	raw := runLog(t, "election", "ring", "--seed", "2", "--format", "json")
	logs := map[string][]byte{
		"ring": withHeader(t, raw, ringNames, "ring"),
		"old":  withoutHeader(raw),
	}
	base := serveLogs(t, logs, "ring", "old")
	ctx := browser(t)
	open(t, ctx, base+"/run/1")
	o := fold(t, logs["ring"], 5)
	total := len(o.states) - 1

	// It opens before the first step: no violation in this run.
	s := read(t, ctx)
	if s.Step != 0 || s.Banner != "" || len(s.Nodes) != 5 || !strings.HasPrefix(s.Nodes[0], "N5 (node 1)") {
		t.Fatalf("at open: %+v", s)
	}
	// Step forwards with the arrow key through the whole run, then back;
	// every step shows what the log says, both ways, and the same text.
	var fwd []shown
	for c := 0; c <= total; c++ {
		s := read(t, ctx)
		if s.Step != c {
			t.Fatalf("after %d presses of →: step %d", c, s.Step)
		}
		o.check(t, s)
		fwd = append(fwd, s)
		press(t, ctx, kb.ArrowRight, 1)
	}
	for c := total; c >= 0; c-- {
		s := read(t, ctx)
		if fmt.Sprint(s) != fmt.Sprint(fwd[c]) {
			t.Errorf("step %d: stepping back shows\n%+v\nstepping forward showed\n%+v", c, s, fwd[c])
		}
		press(t, ctx, kb.ArrowLeft, 1)
	}
	// The buttons and the keys work together: a click on "step ▶" does
	// not keep the focus, so → steps again; back and first go back.
	do(t, ctx, chromedp.Click(chromedp.CSS("#fwd")), chromedp.Click(chromedp.CSS("#fwd")))
	press(t, ctx, kb.ArrowRight, 1)
	if s := read(t, ctx); s.Step != 3 {
		t.Errorf("after two clicks on step and →: step %d, want 3", s.Step)
	}
	do(t, ctx, chromedp.Click(chromedp.CSS("#back")))
	if s := read(t, ctx); s.Step != 2 {
		t.Errorf("after back: step %d, want 2", s.Step)
	}
	// A click on a node in the table shows its state and clock, and it
	// stays selected while the run moves: N3 receives at step 5.
	do(t, ctx, chromedp.Click(chromedp.CSS(`#nodes tr[data-node="2"]`)))
	nodeInfo := func() string { return eval[string](t, ctx, `document.getElementById("nodeInfo").textContent`) }
	if txt := nodeInfo(); txt != "N3 (node 2): no state yet; Lamport clock 0" {
		t.Errorf("node 2 selected at step 2: %q", txt)
	}
	press(t, ctx, kb.ArrowRight, 3)
	if txt := nodeInfo(); txt != "N3 (node 2): no state yet; Lamport clock 5; its last event: step 5" {
		t.Errorf("node 2 selected at step 5: %q", txt)
	}
	// A click on an empty spot of the drawing lets the selection follow the steps again.
	do(t, ctx, chromedp.MouseClickXY(40, 300))
	if eval[bool](t, ctx, `window.ringlab.pinned`) {
		t.Error("a click beside the nodes did not release the selection")
	}
	do(t, ctx, chromedp.Click(chromedp.CSS("#first")))
	// Step 4: N5 has sent its ELECTION to N3, and it is in flight.
	press(t, ctx, kb.ArrowRight, 4)
	s = read(t, ctx)
	if s.What != "N5 sends ELECTION {candidate_id=5 sender_id=5} to N3" ||
		len(s.Flight) != 1 || s.Flight[0] != "N5 → N3: ELECTION {candidate_id=5 sender_id=5}" ||
		!strings.Contains(s.Nodes[0], "CANDIDATE") {
		t.Errorf("step 4: %+v", s)
	}
	// The end: one leader, N1 (node 4), everybody agrees on id 1.
	press(t, ctx, kb.End, 1)
	s = read(t, ctx)
	if !strings.Contains(s.Nodes[3], "LEADER") || strings.Count(strings.Join(s.Nodes, "\n"), "leader id 1") != 5 {
		t.Errorf("at the end: %+v", s.Nodes)
	}
	if txt := eval[string](t, ctx, `document.getElementById("verdicts").textContent + document.getElementById("counts").textContent + document.getElementById("replay").textContent`); !strings.Contains(txt, "uniqueness") ||
		!strings.Contains(txt, "theory: rules as written") || !strings.Contains(txt, "ringlab election ring --format json --seed 2") {
		t.Errorf("side panel: %q", txt)
	}
	// The screenshot: the leader known, ELECTED on its way round.
	press(t, ctx, kb.Home, 1)
	for s = read(t, ctx); s.Step < total && !(len(s.Flight) == 1 && strings.Contains(s.Flight[0], "ELECTED") && strings.Contains(strings.Join(s.Nodes, ""), "FOLLOWER")); s = read(t, ctx) {
		press(t, ctx, kb.ArrowRight, 1)
	}
	if s.Step == total {
		t.Errorf("no step with ELECTED in flight and a follower")
	}
	do(t, ctx, chromedp.MouseEvent(input.DispatchMouseEventTypeMouseMoved, 700, 20)) // no button under the mouse in the picture
	screenshot(t, ctx, "ring-election.png")

	// Without a header: nodes named by index, the ring guessed from the algorithm.
	open(t, ctx, base+"/run/2")
	if got := eval[string](t, ctx, `window.ringlab.v.topology + " " + window.ringlab.v.names.slice(1).join(",")`); got != "ring node 1,node 2,node 3,node 4,node 5" {
		t.Errorf("no header: %q", got)
	}
	if txt := eval[string](t, ctx, `document.getElementById("notice").textContent`); !strings.Contains(txt, "no header line") {
		t.Errorf("no header: notice %q", txt)
	}
}

func TestBrowserCentralSlowViolation(t *testing.T) {
	raw := runLog(t, "mutex", "scenario", "central-slow", "--format", "json")
	logs := map[string][]byte{
		"cs":  withHeader(t, raw, []string{"coordinator", "P1", "P2", "P3"}, "star"),
		"old": withoutHeader(raw),
	}
	base := serveLogs(t, logs, "cs", "old")
	ctx := browser(t)
	open(t, ctx, base+"/run/1")
	o := fold(t, logs["cs"], 4)

	// It opens at the violation, both nodes in the critical section, named.
	s := read(t, ctx)
	first := eval[int](t, ctx, `window.ringlab.v.violations[0] + 1`)
	if s.Step != first || !strings.Contains(s.What, "mutual exclusion violated") {
		t.Fatalf("at open: step %d (first violation at %d): %+v", s.Step, first, s)
	}
	if !strings.Contains(s.Banner, "mutual exclusion violated") || !strings.Contains(s.Banner, "In the critical section at once: P1 (node 2) and P2 (node 3)") {
		t.Errorf("banner: %q", s.Banner)
	}
	for _, i := range []int{1, 2} {
		if !strings.Contains(s.Nodes[i], "HELD in CS") {
			t.Errorf("node %d: %q, want HELD in CS", i+1, s.Nodes[i])
		}
	}
	o.check(t, s)
	screenshot(t, ctx, "central-slow.png")

	// One step back: P2 has entered, the checker has not spoken yet.
	press(t, ctx, kb.ArrowLeft, 1)
	s = read(t, ctx)
	o.check(t, s)
	if strings.Contains(s.Banner, "violated at") || !strings.Contains(s.Banner, fmt.Sprintf("breaks a property at step %d", first)) {
		t.Errorf("one step before the violation: banner %q", s.Banner)
	}
	// Back to before P2 held it: only P1 in the critical section.
	for s.Step > 0 && strings.Contains(s.Nodes[2], "HELD") {
		press(t, ctx, kb.ArrowLeft, 1)
		s = read(t, ctx)
		o.check(t, s)
	}
	if !strings.Contains(s.Nodes[1], "HELD in CS") || strings.Contains(s.Nodes[2], "in CS") {
		t.Errorf("before P2 entered: %q", s.Nodes)
	}
	// V jumps to the first violation again.
	press(t, ctx, "v", 1)
	if s = read(t, ctx); s.Step != first {
		t.Errorf("after V: step %d, want %d", s.Step, first)
	}

	// Without a header: the star is guessed, the banner names nodes by index.
	open(t, ctx, base+"/run/2")
	s = read(t, ctx)
	if got := eval[string](t, ctx, `window.ringlab.v.topology`); got != "star" || !strings.Contains(s.Banner, "node 2 and node 3") {
		t.Errorf("no header: topology %q, banner %q", got, s.Banner)
	}
}

// TestBrowserOpenFile loads a log from disk through the page's file input,
// the same path as dropping it: nothing is uploaded.
func TestBrowserOpenFile(t *testing.T) {
	raw := runLog(t, "election", "ring", "--seed", "2", "--format", "json")
	p := filepath.Join(t.TempDir(), "mine.ndjson")
	if err := os.WriteFile(p, withHeader(t, raw, ringNames, "ring"), 0o644); err != nil {
		t.Fatal(err)
	}
	base := serveLogs(t, nil)
	ctx := browser(t)
	open(t, ctx, base+"/")
	do(t, ctx, chromedp.SetUploadFiles(chromedp.CSS("#file"), []string{p}))
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](`!document.getElementById("viewer").hidden && document.getElementById("title").textContent.startsWith("mine.ndjson")`, chromedp.WithPollingTimeout(30*time.Second))); err != nil {
		t.Fatal(err)
	}
	press(t, ctx, kb.ArrowRight, 4)
	if s := read(t, ctx); s.Step != 4 || len(s.Flight) != 1 {
		t.Errorf("a file from disk, step 4: %+v", s)
	}
	// Not a log: the page says so.
	bad := filepath.Join(t.TempDir(), "notes.txt")
	if err := os.WriteFile(bad, []byte("t=0 N5 send\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	do(t, ctx, chromedp.SetUploadFiles(chromedp.CSS("#file"), []string{bad}))
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](`document.getElementById("notice").textContent.includes("not an NDJSON run log")`, chromedp.WithPollingTimeout(30*time.Second))); err != nil {
		t.Fatal(err)
	}
}

// speedJS steps back and forward from 100 places spread over the run with
// the arrow keys (a keydown on the document, as a key press gives) and
// times each step: the state, the side panel and both canvases' drawing
// commands. It waits for a frame before each step, as a reader pressing a
// key does, so that the browser paints the previous step outside the
// measure. Then it plays at 1000 steps a second for one second and counts
// the frames drawn.
const speedJS = `(async () => {
	const r = window.ringlab, n = r.v.run.events.length, back = [], fwd = [];
	const key = (k) => document.dispatchEvent(new KeyboardEvent("keydown", {key: k, bubbles: true}));
	const frame = () => new Promise((res) => requestAnimationFrame(() => setTimeout(res, 0)));
	for (let k = 0; k < 100; k++) {
		const c = 1 + Math.floor((n - 2) * (k + 0.5) / 100);
		r.goto(c);
		await frame();
		let t0 = performance.now(); key("ArrowLeft"); back.push(performance.now() - t0);
		if (r.c !== c - 1) throw new Error("ArrowLeft from " + c + " went to " + r.c);
		await frame();
		t0 = performance.now(); key("ArrowRight"); fwd.push(performance.now() - t0);
		if (r.c !== c) throw new Error("ArrowRight from " + (c - 1) + " went to " + r.c);
	}
	r.goto(0);
	document.getElementById("speed").value = "1000";
	const frames = await new Promise((res) => {
		let f = 0; const t0 = performance.now();
		key(" ");
		const tick = (now) => { f++; if (now - t0 < 1000) requestAnimationFrame(tick); else { key(" "); res(f * 1000 / (now - t0)); } };
		requestAnimationFrame(tick);
	});
	const stat = (a) => ({mean: a.reduce((x, y) => x + y, 0) / a.length, max: Math.max(...a)});
	return {events: n, load: r.loadMs, back: stat(back), fwd: stat(fwd), fps: frames, played: r.c};
})()`

type speed struct {
	Events    int
	Load      float64
	Back, Fwd struct{ Mean, Max float64 }
	FPS       float64
	Played    int
}

// TestBrowserBigLogs loads a 10,000-event and a 100,000-event election and
// reports how long the page takes to load them and to step (the figures in
// the README come from its log: go test -run BigLogs -v ./engine/serve);
// past the page's limit it says how to narrow the run.
func TestBrowserBigLogs(t *testing.T) {
	if testing.Short() {
		t.Skip("big logs: not under -short")
	}
	logs := map[string][]byte{
		"10k":  runLog(t, "election", "chang-roberts", "--nodes", "100", "--layout", "descending", "--seed", "1", "--format", "json"),
		"100k": runLog(t, "election", "chang-roberts", "--nodes", "315", "--layout", "descending", "--seed", "1", "--format", "json"),
	}
	var huge bytes.Buffer
	for i := 1; i <= 260_000; i++ {
		fmt.Fprintf(&huge, `{"v":1,"seq":%d,"t":%d,"node":%d,"kind":"note","note":"tick","lc":%d}`+"\n", i, i, 1+i%3, i)
	}
	huge.WriteString(`{"v":1,"kind":"summary","algorithm":"test notes","nodes":3,"verdicts":[]}` + "\n")
	logs["huge"] = huge.Bytes()
	base := serveLogs(t, logs, "10k", "100k", "huge")
	ctx := browser(t)
	for i, name := range []string{"10k", "100k"} {
		open(t, ctx, fmt.Sprintf("%s/run/%d", base, i+1))
		sp, err := chromedp.Run(ctx, chromedp.Evaluate[speed](speedJS, chromedp.EvalAwaitPromise))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if min := map[string]int{"10k": 10_000, "100k": 100_000}[name]; sp.Events < min || sp.Played == 0 {
			t.Fatalf("%s: %d events loaded (want >= %d), %d played: %+v", name, sp.Events, min, sp.Played, sp)
		}
		t.Logf("%d events (%d MB): load %.0f ms; step back mean %.2f ms (max %.1f); step forward mean %.2f ms (max %.1f); playing: %.0f frames/s",
			sp.Events, len(logs[name])>>20, sp.Load, sp.Back.Mean, sp.Back.Max, sp.Fwd.Mean, sp.Fwd.Max, sp.FPS)
	}
	open(t, ctx, base+"/run/3")
	notice := eval[string](t, ctx, `document.getElementById("notice").textContent`)
	if !strings.Contains(notice, "260,000 events; the page shows the first 250,000") || !strings.Contains(notice, "fewer --nodes") {
		t.Errorf("past the limit: notice %q", notice)
	}
}

// TestBrowserLostMessage steps to a message the network loses: it leaves
// the messages in flight, the step says so, and the drawing marks it.
func TestBrowserLostMessage(t *testing.T) {
	raw := runLog(t, "election", "chang-roberts", "--nodes", "5", "--drop", "0.2", "--seed", "1", "--format", "json")
	base := serveLogs(t, map[string][]byte{"lossy": raw}, "lossy")
	ctx := browser(t)
	open(t, ctx, base+"/run/1")
	o := fold(t, raw, 5)
	drop := eval[int](t, ctx, `window.ringlab.v.run.events.findIndex(e => e.kind === "drop") + 1`)
	if drop < 1 {
		t.Fatal("no lost message in the log")
	}
	press(t, ctx, kb.ArrowRight, drop-1)
	before := read(t, ctx)
	press(t, ctx, kb.ArrowRight, 1)
	s := read(t, ctx)
	o.check(t, before)
	o.check(t, s)
	if !strings.HasPrefix(s.What, "the network loses ELECTION") || len(s.Flight) != len(before.Flight)-1 {
		t.Errorf("step %d: %q, in flight %d then %d", s.Step, s.What, len(before.Flight), len(s.Flight))
	}
	if counts := eval[string](t, ctx, `document.getElementById("counts").textContent`); !strings.Contains(counts, "lost so far 1") {
		t.Errorf("counts: %q", counts)
	}
}

// TestBrowserTopologies checks the layout the page picks: the header's
// topology and edges when there is a header, else a guess from the
// algorithm (YoYo's graph from the links its messages use).
func TestBrowserTopologies(t *testing.T) {
	yoyo := runLog(t, "election", "yoyo", "--topology", "grid", "--nodes", "12", "--layout", "random", "--seed", "2", "--format", "json")
	ra := runLog(t, "mutex", "ricart-agrawala", "--nodes", "4", "--requests", "1", "--seed", "1", "--format", "json")
	token := runLog(t, "mutex", "token-ring", "--nodes", "4", "--requests", "1", "--seed", "1", "--format", "json")
	h := withoutHeader(yoyo)
	yoyoHeader := withHeader(t, h, nil, "graph")
	first, rest, _ := bytes.Cut(yoyoHeader, []byte("\n"))
	yoyoHeader = append(append(bytes.Replace(first, []byte(`"kind":"header"`), []byte(`"kind":"header","edges":[[1,2],[2,3],[3,1]]`), 1), '\n'), rest...)
	logs := map[string][]byte{"yoyo": h, "yoyo-header": yoyoHeader, "ra": withoutHeader(ra), "token": withoutHeader(token)}
	base := serveLogs(t, logs, "yoyo", "yoyo-header", "ra", "token")
	ctx := browser(t)
	for i, want := range []string{"graph 17", "graph 3", "complete 0", "ring 0"} {
		open(t, ctx, fmt.Sprintf("%s/run/%d", base, i+1))
		if got := eval[string](t, ctx, `window.ringlab.v.topology + " " + window.ringlab.v.edges.length`); got != want {
			t.Errorf("run %d: %q, want %q", i+1, got, want)
		}
	}
}

// TestBrowserBidiControls: bidirectional controls in the log's names,
// algorithm and message fields (U+202E turns "N1‮evil" into "N1live")
// reach neither the page's text nor the names it draws; each shows as a
// space, as in the text output and the diagrams.
func TestBrowserBidiControls(t *testing.T) {
	raw := runLog(t, "election", "ring", "--seed", "2", "--format", "json")
	controls := "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c"
	names := []string{"N1\u202eevil", "N2\u2067evil", `N3\u202Eevil`, "N4\u200fevil", "N5\u061cevil"}
	log := withHeader(t, withoutHeader(raw), nil, "ring")
	// the third name as a JSON escape: it must be caught as well as a raw character
	h, err := json.Marshal(names)
	if err != nil {
		t.Fatal(err)
	}
	h = bytes.Replace(h, []byte(`N3\\u202Eevil`), []byte(`N3\u202Eevil`), 1)
	log = bytes.Replace(log, []byte(`"names":null`), append([]byte(`"names":`), h...), 1)
	// a message type, as a value and as a key of the summary's counts
	log = bytes.ReplaceAll(log, []byte(`ELECTION"`), []byte("ELEC\u202eTION\""))
	base := serveLogs(t, map[string][]byte{"bidi\u202e.ndjson": log}, "bidi\u202e.ndjson")
	ctx := browser(t)
	open(t, ctx, base+"/run/1")
	press(t, ctx, kb.ArrowRight, 6)
	text := eval[string](t, ctx, `document.body.innerText + "\n" + window.ringlab.v.names.join("\n") + "\n" + document.title`)
	if i := strings.IndexAny(text, controls); i >= 0 {
		t.Errorf("the page shows a bidirectional control: %q", text[max(0, i-30):min(len(text), i+30)])
	}
	for i := 1; i <= 5; i++ {
		if want := fmt.Sprintf("N%d evil", i); !strings.Contains(text, want) {
			t.Errorf("the page does not name node %d %q", i, want)
		}
	}
	if strings.Count(text, "ELEC TION") < 2 {
		t.Errorf("the page does not show the message type as %q:\n%.2000s", "ELEC TION", text)
	}
}
