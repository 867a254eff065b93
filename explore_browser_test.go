package main

// The scheduler's page in a browser: `check ALGO --serve` started
// in-process, headless Chromium clicking steps, messages and nodes to the
// violations the chapters describe, the page's fates checked on the way.
// Skipped without chromium, as the replay page's tests are.

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"

	"ringlab/engine/cli"
	"ringlab/engine/cliutil"
	"ringlab/engine/trace"
)

// explorerServer runs `ringlab ARGS --serve --addr 127.0.0.1:0` in-process
// and returns the page's base URL; the server stops (and its goroutine is
// waited for) when the test ends.
func explorerServer(t *testing.T, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	pr, pw := io.Pipe()
	done := make(chan int, 1)
	go func() {
		code := run(ctx, append(append([]string{"ringlab"}, args...), "--serve", "--addr", "127.0.0.1:0"), io.Discard, pw)
		pw.Close()
		done <- code
	}()
	drained := make(chan struct{})
	t.Cleanup(func() {
		cancel()
		if code := <-done; code != cliutil.ExitInterrupted {
			t.Errorf("ringlab %s --serve stopped with exit %d, want %d (interrupted)", strings.Join(args, " "), code, cliutil.ExitInterrupted)
		}
		<-drained
	})
	sc := bufio.NewScanner(pr)
	var url string
	var said []string
	for sc.Scan() {
		line := sc.Text()
		said = append(said, line)
		if rest, ok := strings.CutPrefix(line, "exploring "); ok {
			_, u, _ := strings.Cut(rest, " at ")
			url, _, _ = strings.Cut(u, "/explore")
			break
		}
	}
	go func() { _, _ = io.Copy(io.Discard, pr); close(drained) }()
	if url == "" {
		t.Fatalf("ringlab %s --serve never served: %q", strings.Join(args, " "), said)
	}
	return url
}

// openAt loads the page at path and waits until it shows that state.
func openAt(t *testing.T, ctx context.Context, base, path string) {
	t.Helper()
	u := base + "/explore"
	if path != "" {
		u += "?path=" + path
	}
	do(t, ctx, chromedp.Navigate(u))
	waitPath(t, ctx, path)
}

// waitPath waits until the page shows the state path reaches.
func waitPath(t *testing.T, ctx context.Context, path string) {
	t.Helper()
	js := `window.explorer && window.explorer.ready === true && window.explorer.path === ` + jsString(path)
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](js, chromedp.WithPollingTimeout(60*time.Second))); err != nil {
		got, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`(window.explorer && window.explorer.path) + " | " + document.getElementById("error").textContent`))
		t.Fatalf("the page never showed %q: %v (it shows %q)", path, err, got)
	}
}

func jsString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// click clicks the element sel names, then waits for the state path.
func click(t *testing.T, ctx context.Context, sel, path string) {
	t.Helper()
	cctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	if err := chromedp.Do(cctx, chromedp.Click(chromedp.CSS(sel))); err != nil {
		t.Fatalf("clicking %s: %v", sel, err)
	}
	if path != "\x00" {
		waitPath(t, ctx, path)
	}
}

// stepFate is the fate badge the page gives the enabled step labelled l
// ("" when it has none).
func stepFate(t *testing.T, ctx context.Context, sel string) string {
	t.Helper()
	return eval[string](t, ctx, `(() => { const e = document.querySelector(`+jsString(sel)+`); if (!e) return "missing";
		const b = e.querySelector(".badge[class*='f-']"); return b ? b.textContent : ""; })()`)
}

// page is what the page shows of one state, read from its text.
type page struct {
	Path     string   `json:"path"`
	Banner   string   `json:"banner"` // "" when hidden
	NoReturn []string `json:"noReturn"`
	Steps    []string `json:"steps"`
	Nodes    []string `json:"nodes"`
	Left     string   `json:"left"`
	Props    string   `json:"props"`
	Replay   string   `json:"replay"`
	Open     string   `json:"open"`
}

const readPage = `(() => ({
	path: window.explorer.path,
	banner: document.getElementById("banner").hidden ? "" : document.getElementById("banner").textContent,
	noReturn: [...document.querySelectorAll("#path li.noreturn")].map(li => li.dataset.index + " " + li.dataset.label),
	steps: [...document.querySelectorAll("#steps li")].map(li => li.textContent),
	nodes: [...document.querySelectorAll("#nodes .nd")].map(d => d.textContent),
	left: document.getElementById("left").textContent,
	props: document.getElementById("props").textContent,
	replay: document.getElementById("replay").textContent,
	open: document.getElementById("open").textContent,
}))()`

func readState(t *testing.T, ctx context.Context) page {
	t.Helper()
	return eval[page](t, ctx, readPage)
}

// The chapter's slow holder, clicked step by step from the initial state
// of `mutex check central --grant-timeout 10`: both requests given from
// the node menus, P1's request delivered from its dot, the coordinator's
// grant timer fired from its node menu (it takes the permission back while
// P1's grant is on its way), P1's grant delivered (P1 enters), P2's
// request delivered (the coordinator, free, grants it) and P2's grant
// delivered: two in the critical section. Until P2's grant arrives P1 may
// still leave first, so every state before is one where the violation is
// only reachable and the last step is the point of no return.
func TestExplorerCentralSlowHolder(t *testing.T) {
	base := explorerServer(t, "mutex", "check", "central", "--nodes", "3", "--grant-timeout", "10")
	ctx := browser(t)
	openAt(t, ctx, base, "")
	if s := readState(t, ctx); s.Banner != "" || len(s.NoReturn) != 0 || !strings.Contains(s.Left, "fewest") {
		t.Fatalf("the initial state: %+v (error: %q)", s, eval[string](t, ctx, `document.getElementById("error").textContent`))
	}
	click(t, ctx, `#graph .node[data-node="2"] circle`, "\x00")
	click(t, ctx, `#menu .item[data-label="c2"]`, "c2")
	click(t, ctx, `#graph .node[data-node="3"] circle`, "\x00")
	click(t, ctx, `#menu .item[data-label="c3"]`, "c2,c3")
	click(t, ctx, `#graph .msg[data-from="2"][data-to="1"] circle`, "\x00")
	if got := eval[string](t, ctx, `document.getElementById("menu").textContent`); !strings.Contains(got, "deliver RequestAccess from P1 to coordinator") {
		t.Errorf("the message's menu: %q", got)
	}
	click(t, ctx, `#menu .item[data-label="d2-1"]`, "c2,c3,d2-1")
	click(t, ctx, `#graph .node[data-node="1"] circle`, "\x00")
	if got := eval[string](t, ctx, `document.getElementById("menu").textContent`); !strings.Contains(got, "fire coordinator's timer 1, the grant timeout") || !strings.Contains(got, "crash: none allowed") {
		t.Errorf("the coordinator's menu: %q", got)
	}
	click(t, ctx, `#menu .item[data-label="t1:1"]`, "c2,c3,d2-1,t1:1")
	click(t, ctx, `#steps li[data-label="d1-2"]`, "c2,c3,d2-1,t1:1,d1-2")
	click(t, ctx, `#steps li[data-label="d3-1"]`, "c2,c3,d2-1,t1:1,d1-2,d3-1")
	s := readState(t, ctx)
	if s.Banner != "" || len(s.NoReturn) != 0 {
		t.Errorf("before P2's grant arrives the violation is avoidable, the page says %+v", s)
	}
	if got := stepFate(t, ctx, `#steps li[data-label="d1-3"]`); got != "unavoidable" {
		t.Errorf("delivering P2's grant is marked %q, want unavoidable", got)
	}
	click(t, ctx, `#steps li[data-label="d1-3"]`, "c2,c3,d2-1,t1:1,d1-2,d3-1,d1-3")
	s = readState(t, ctx)
	if !strings.Contains(s.Banner, "VIOLATION of mutual exclusion at step 7") || !strings.Contains(s.Banner, "P1 and P2 are in the critical section at once") {
		t.Errorf("banner: %q", s.Banner)
	}
	if len(s.NoReturn) != 1 || s.NoReturn[0] != "7 d1-3" {
		t.Errorf("point of no return: %q, want step 7 (d1-3)", s.NoReturn)
	}
	if !strings.HasSuffix(s.Replay, "ringlab mutex check central --nodes 3 --grant-timeout 10 --path c2,c3,d2-1,t1:1,d1-2,d3-1,d1-3") ||
		s.Open != "ringlab mutex check central --nodes 3 --grant-timeout 10 --serve --path c2,c3,d2-1,t1:1,d1-2,d3-1,d1-3" {
		t.Errorf("commands: %q / %q", s.Replay, s.Open)
	}
	do(t, ctx, chromedp.MouseEvent(input.DispatchMouseEventTypeMouseMoved, 1390, 990))
	screenshot(t, ctx, "explore-central.png")

	// The URL of this state, opened fresh, shows the same state; back and
	// forward move along the history.
	url := eval[string](t, ctx, `location.href`)
	fresh := browser(t)
	do(t, fresh, chromedp.Navigate(url))
	waitPath(t, fresh, s.Path)
	if again := readState(t, fresh); !equalPages(again, s) {
		t.Errorf("the URL opened fresh shows\n%+v\nthe page showed\n%+v", again, s)
	}
	click(t, ctx, "#back", "c2,c3,d2-1,t1:1,d1-2,d3-1")
	click(t, ctx, "#fwd", s.Path)
	// Another choice at an earlier state forks the history; both branches
	// stay in the tree, and forward follows the last one taken.
	click(t, ctx, `#path li[data-index="3"]`, "c2,c3,d2-1")
	click(t, ctx, `#steps li[data-label="d1-2"]`, "c2,c3,d2-1,d1-2")
	branches := eval[string](t, ctx, `[...document.querySelectorAll("#tree a")].map(a => a.dataset.path).filter(p => p.startsWith("c2,c3,d2-1,")).filter(p => p.split(",").length === 4).join(" ")`)
	if branches != "c2,c3,d2-1,t1:1 c2,c3,d2-1,d1-2" {
		t.Errorf("the fork's branches in the tree: %q", branches)
	}
	click(t, ctx, "#back", "c2,c3,d2-1")
	if got := eval[string](t, ctx, `[...document.querySelectorAll("#steps li")].filter(li => li.querySelector(".b-seen")).map(li => li.dataset.label).join()`); got != "t1:1,d1-2" {
		t.Errorf("steps to a state already seen: %q, want t1:1,d1-2", got)
	}
	click(t, ctx, "#fwd", "c2,c3,d2-1,d1-2")
	click(t, ctx, `#tree a[data-path="`+s.Path+`"]`, s.Path)

	// The page's --path replays the trace it shows: the same deliveries
	// in the same order, the same messages, the same violation.
	replayMatches(t, s, []string{"2-1", "1-2", "3-1", "1-3"})
}

func equalPages(a, b page) bool {
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	return bytes.Equal(ja, jb)
}

// replayMatches runs the page's replay command with --format json and
// checks its trace against what the page shows: the deliveries, in order
// (from-to), the messages sent so far, the violation.
func replayMatches(t *testing.T, s page, deliveries []string) {
	t.Helper()
	args, err := cli.SplitCommand(s.Replay)
	if err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	if code := run(context.Background(), append(args, "--format", "json"), &out, &errb); code != cliutil.ExitViolation {
		t.Fatalf("%s: exit %d, want 3\n%s", s.Replay, code, errb.String())
	}
	var recv []string
	var sum trace.Summary
	violation := ""
	for line := range strings.SplitSeq(strings.TrimSpace(out.String()), "\n") {
		var e trace.Event
		if err := json.Unmarshal([]byte(line), &e); err != nil {
			t.Fatal(err)
		}
		switch e.Kind {
		case trace.KindRecv:
			recv = append(recv, strconv.Itoa(e.From)+"-"+strconv.Itoa(e.To))
		case trace.KindViolation:
			if violation == "" {
				violation = e.Detail
			}
		case "summary":
			if err := json.Unmarshal([]byte(line), &sum); err != nil {
				t.Fatal(err)
			}
		}
	}
	if strings.Join(recv, ",") != strings.Join(deliveries, ",") {
		t.Errorf("the replay delivers %v, the page's path %v", recv, deliveries)
	}
	if violation == "" || !strings.Contains(s.Banner, violation) {
		t.Errorf("the replay's violation %q, the page's banner %q", violation, s.Banner)
	}
	if want := "sent so far " + strconv.Itoa(int(sum.Messages)) + ";"; !strings.Contains(s.Left, want) {
		t.Errorf("the replay sent %d messages, the page says %q", sum.Messages, s.Left)
	}
}

// Lamport's algorithm without FIFO: after P2's request reaches P1, P1's
// ACK overtakes P1's own earlier ACQUIRE on the link to P2. Delivering the
// ACK first (clicked on its dot) lets P2 enter with P1's request unknown
// to it: from there a violation of mutual exclusion is unavoidable, the
// point of no return; delivering the ACQUIRE first is safe. (P2's entry
// breaks the grant order at once; the page looks at mutual exclusion.)
func TestExplorerLamportOvertaking(t *testing.T) {
	base := explorerServer(t, "mutex", "check", "lamport", "--nodes", "2", "--policy", "random", "--property", "mutual-exclusion")
	ctx := browser(t)
	openAt(t, ctx, base, "")
	click(t, ctx, `#steps li[data-label="c1"]`, "c1")
	click(t, ctx, `#steps li[data-label="c2"]`, "c1,c2")
	click(t, ctx, `#steps li[data-label="d2-1"]`, "c1,c2,d2-1")
	// two messages on the link P1 -> P2: the ACK sent last, the ACQUIRE first
	if got := eval[string](t, ctx, `document.getElementById("flight").textContent`); !strings.Contains(got, "ACK(T=3, id=0) P1 → P2") || !strings.Contains(got, "ACQUIRE(T=1, id=1) P1 → P2") {
		t.Fatalf("in flight: %q", got)
	}
	ack := eval[string](t, ctx, `[...document.querySelectorAll("#graph .msg")].filter(g => g.textContent.startsWith("ACK")).map(g => g.dataset.k).join()`)
	acq := eval[string](t, ctx, `[...document.querySelectorAll("#graph .msg")].filter(g => g.textContent.startsWith("ACQUIRE")).map(g => g.dataset.k).join()`)
	if len(ack) != 1 || len(acq) != 1 {
		t.Fatalf("dots: ACK at %q, ACQUIRE at %q", ack, acq)
	}
	ackLabel, acqLabel := "d1-2", "d1-2.1"
	if ack != "0" {
		ackLabel, acqLabel = "d1-2.1", "d1-2"
	}
	click(t, ctx, `#graph .msg[data-from="1"][data-to="2"][data-k="`+acq+`"] circle`, "\x00")
	if got := stepFate(t, ctx, `#menu .item[data-label="`+acqLabel+`"]`); got != "safe" {
		t.Errorf("delivering the ACQUIRE first is marked %q, want safe", got)
	}
	click(t, ctx, `#graph .msg[data-from="1"][data-to="2"][data-k="`+ack+`"] circle`, "\x00")
	if got := stepFate(t, ctx, `#menu .item[data-label="`+ackLabel+`"]`); got != "unavoidable" {
		t.Errorf("the overtaking ACK is marked %q, want unavoidable", got)
	}
	click(t, ctx, `#menu .item[data-label="`+ackLabel+`"]`, "c1,c2,d2-1,"+ackLabel)
	s := readState(t, ctx)
	if s.Banner != "" || len(s.NoReturn) != 1 || s.NoReturn[0] != "4 "+ackLabel {
		t.Errorf("after the overtaking: banner %q, point of no return %q (want step 4)", s.Banner, s.NoReturn)
	}
	if txt := eval[string](t, ctx, `document.getElementById("doom").textContent`); !strings.Contains(txt, "unavoidable") {
		t.Errorf("no warning that the violation is unavoidable: %q", txt)
	}
	// the rest in one click: the shortest way to the violation
	do(t, ctx, chromedp.Click(chromedp.CSS("#shortest")))
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](`window.explorer.ready && !document.getElementById("banner").hidden`, chromedp.WithPollingTimeout(60*time.Second))); err != nil {
		t.Fatal(err)
	}
	s = readState(t, ctx)
	if !strings.Contains(s.Banner, "VIOLATION of mutual exclusion") || len(s.NoReturn) != 1 || s.NoReturn[0] != "4 "+ackLabel {
		t.Errorf("after the shortest way: %+v", s)
	}
	do(t, ctx, chromedp.MouseEvent(input.DispatchMouseEventTypeMouseMoved, 1390, 990))
	screenshot(t, ctx, "explore-lamport.png")
}

// The anonymous ring, every node a candidate: once two processes are
// candidates every vote stops at the next candidate, which takes it for
// its own, and both end Installed (the chapter's negative example), so the
// second start is the point of no return; the first is not (the others
// may still forward its vote round the ring).
func TestExplorerAnonymousTwoLeaders(t *testing.T) {
	base := explorerServer(t, "election", "check", "anonymous", "--nodes", "3", "--initiators", "all")
	ctx := browser(t)
	openAt(t, ctx, base, "")
	if got := stepFate(t, ctx, `#steps li[data-label="c1"]`); got != "reachable" {
		t.Errorf("the first start is marked %q, want reachable", got)
	}
	click(t, ctx, `#steps li[data-label="c1"]`, "c1")
	if got := stepFate(t, ctx, `#steps li[data-label="c2"]`); got != "unavoidable" {
		t.Errorf("the second start is marked %q, want unavoidable", got)
	}
	path := "c1"
	for _, l := range []string{"c2", "c3", "d1-2", "d2-3", "d2-3", "d3-1", "d1-2"} {
		path += "," + l
		click(t, ctx, `#steps li[data-label="`+l+`"]`, path)
	}
	s := readState(t, ctx)
	if !strings.Contains(s.Banner, "VIOLATION of uniqueness") || !strings.Contains(s.Banner, "each consider themselves leader") {
		t.Errorf("banner: %q", s.Banner)
	}
	if len(s.NoReturn) != 1 || s.NoReturn[0] != "2 c2" {
		t.Errorf("point of no return: %q, want step 2 (c2)", s.NoReturn)
	}
	do(t, ctx, chromedp.MouseEvent(input.DispatchMouseEventTypeMouseMoved, 1390, 990))
	screenshot(t, ctx, "explore-anonymous.png")
	replayMatches(t, s, []string{"1-2", "2-3", "2-3", "3-1", "1-2"})
}
