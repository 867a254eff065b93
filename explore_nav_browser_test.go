package main

// The scheduler's page as a student reads it, in one Chromium: every step
// of the path and the history in words on the four cases of the issue, a
// history that indents only at forks, invalid and long paths that keep the
// page readable, and a student who finds Lamport's violation by following
// only the page's marks.

import (
	"bytes"
	"context"
	"regexp"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// shownPath is what the page shows of the path and the history.
type shownPath struct {
	Path   []string `json:"path"`   // each step's words, "" when it has none
	Labels []string `json:"labels"` // each step's label
	Tree   []string `json:"tree"`   // each history entry's words
	Forks  int      `json:"forks"`  // indented branches in the history
	Folded int      `json:"folded"` // history entries folded
	Lefts  []int    `json:"lefts"`  // each history entry's left edge, in pixels
	Error  string   `json:"error"`  // "" when hidden
	// the widths of the page and the history box and what they hold
	PageWidth, PageScroll, TreeWidth, TreeScroll int
}

const readPath = `(() => ({
	path: [...document.querySelectorAll("#path li[data-label]")].map(li => (li.querySelector(".words") || {}).textContent || ""),
	labels: [...document.querySelectorAll("#path li[data-label]")].map(li => li.dataset.label),
	tree: [...document.querySelectorAll("#tree li > a")].map(a => (a.querySelector(".words") || {}).textContent || ""),
	forks: document.querySelectorAll("#tree ul.fork").length,
	folded: [...document.querySelectorAll("#tree li.folded")].reduce((n, li) => n + +(/\d+/.exec(li.textContent) || [0])[0], 0),
	lefts: [...document.querySelectorAll("#tree li > a")].map(a => Math.round(a.getBoundingClientRect().left)),
	error: document.getElementById("error").hidden ? "" : document.getElementById("error").textContent,
	PageWidth: window.innerWidth, PageScroll: document.documentElement.scrollWidth,
	TreeWidth: document.getElementById("tree").clientWidth, TreeScroll: document.getElementById("tree").scrollWidth,
}))()`

// inWords fails unless every step of the path and of the history has
// words that are not its label, and the words of the steps want names
// say what want says.
func inWords(t *testing.T, s shownPath, want map[int]string) {
	t.Helper()
	if len(s.Path) == 0 || len(s.Tree) < len(s.Path) {
		t.Fatalf("path %q, history %q: want both", s.Path, s.Tree)
	}
	for i, w := range s.Path {
		if w == "" || w == s.Labels[i] {
			t.Errorf("step %d (%s) of the path has no words: %q", i+1, s.Labels[i], w)
		}
	}
	for i, w := range s.Tree {
		if w == "" {
			t.Errorf("history entry %d has no words", i+1)
		}
	}
	for i, w := range want {
		if !strings.Contains(s.Path[i-1], w) {
			t.Errorf("step %d in words: %q, want %q", i, s.Path[i-1], w)
		}
	}
}

func TestBrowserExplorerNavigation(t *testing.T) {
	ctx := browser(t)
	t.Run("lamport", func(t *testing.T) { lamportWords(t, ctx) })
	t.Run("central", func(t *testing.T) { centralHistory(t, ctx) })
	t.Run("anonymous", func(t *testing.T) {
		base := explorerServer(t, "election", "check", "anonymous", "--nodes", "3", "--initiators", "all")
		const p = "c1,c2,c3,d1-2,d2-3,d2-3,d3-1,d1-2"
		openAt(t, ctx, base, p)
		s := eval[shownPath](t, ctx, readPath)
		inWords(t, s, map[int]string{1: "give P1 its command", 5: "from P2 to P3"})
		if s.Path[4] == s.Path[5] {
			t.Errorf("two messages on the link P2 -> P3 read alike: %q", s.Path[4])
		}
		if f := eval[string](t, ctx, `document.getElementById("fate").textContent`); !strings.Contains(f, "Point of no return: step 2: give P2 its command") {
			t.Errorf("the point of no return in words: %q", f)
		}
	})
	t.Run("ricart-agrawala", func(t *testing.T) {
		base := explorerServer(t, "mutex", "check", "ricart-agrawala", "--nodes", "3")
		const p = "c2,d2-1,c1,c3,d1-2"
		openAt(t, ctx, base, p)
		inWords(t, eval[shownPath](t, ctx, readPath), map[int]string{2: "from P2 to P1", 5: "from P1 to P2"})
	})
	t.Run("student", func(t *testing.T) { studentWalk(t, ctx) })
	t.Run("long", func(t *testing.T) { longPaths(t, ctx) })
}

// Lamport without FIFO: P2's ACK and then its ACQUIRE, both d2-1, read
// differently.
func lamportWords(t *testing.T, ctx context.Context) {
	base := explorerServer(t, "mutex", "check", "lamport", "--nodes", "2", "--policy", "random")
	openAt(t, ctx, base, "c1,c2,d1-2,d2-1,d2-1")
	s := eval[shownPath](t, ctx, readPath)
	inWords(t, s, map[int]string{4: "deliver ACK", 5: "deliver ACQUIRE"})
	if s.Labels[3] != s.Labels[4] || s.Path[3] == s.Path[4] {
		t.Errorf("steps 4 and 5: %q %q, %q %q; want one label, two readings", s.Labels[3], s.Labels[4], s.Path[3], s.Path[4])
	}
	// the enabled steps too read words first, their labels small after
	if got := eval[string](t, ctx, `[...document.querySelectorAll("#steps li")].map(li => li.firstElementChild.className + ":" + li.firstElementChild.textContent).join("|")`); !strings.HasPrefix(got, "words:") || strings.Contains(got, "|:") {
		t.Errorf("the enabled steps: %q, want their words first", got)
	}
}

// The coordinator with a too-short grant timeout: its timer is named, the
// history forks once when the student goes back and takes another step,
// and only the branch indents; an invalid step keeps the valid prefix.
func centralHistory(t *testing.T, ctx context.Context) {
	base := explorerServer(t, "mutex", "check", "central", "--nodes", "3", "--grant-timeout", "10")
	openAt(t, ctx, base, "c2,c3,d2-1,t1:1,d3-1")
	click(t, ctx, `#path li[data-index="3"]`, "c2,c3,d2-1")
	click(t, ctx, `#steps li[data-label="d1-2"]`, "c2,c3,d2-1,d1-2")
	s := eval[shownPath](t, ctx, readPath)
	inWords(t, s, map[int]string{3: "deliver RequestAccess from P1 to coordinator"})
	if len(s.Tree) != 6 || s.Forks != 1 {
		t.Fatalf("history %q with %d fork(s), want 6 entries and one fork", s.Tree, s.Forks)
	}
	// the branch taken last goes on at the indentation of the run before
	// it; the other branch, t1:1 then d3-1, is indented once
	var timer int
	for i, w := range s.Tree {
		if strings.Contains(w, "the grant timeout") {
			timer = i
		}
	}
	for i, l := range s.Lefts {
		in := i == timer || i == timer+1
		if in != (l > s.Lefts[0]) {
			t.Errorf("history entry %d (%q) at x=%d, the first at %d: only the other branch indents", i+1, s.Tree[i], l, s.Lefts[0])
		}
	}
	// a step that is not enabled: the valid prefix, and the error
	do(t, ctx, chromedp.Navigate(base+"/explore?path=c2,c3,d2-1,d2-1"))
	waitPath(t, ctx, "c2,c3,d2-1")
	if s := eval[shownPath](t, ctx, readPath); len(s.Path) != 3 || !strings.Contains(s.Error, "Step 4 (d2-1) cannot be taken") {
		t.Errorf("c2,c3,d2-1,d2-1: %d step(s) shown, error %q; want the 3 valid ones and why step 4 is refused", len(s.Path), s.Error)
	}
}

// The student: from Lamport's initial state, clicks only the steps the
// page marks as on a shortest way to a violation, until the page shows
// the violation, in as many clicks as check's counterexample has steps.
func studentWalk(t *testing.T, ctx context.Context) {
	args := []string{"mutex", "check", "lamport", "--nodes", "2", "--policy", "random"}
	var out bytes.Buffer
	run(context.Background(), append([]string{"ringlab"}, args...), &out, &out)
	m := regexp.MustCompile(`--path (\S+)`).FindStringSubmatch(out.String())
	if m == nil {
		t.Fatalf("check found no violation: %s", out.String())
	}
	shortest := len(strings.Split(m[1], ","))
	base := explorerServer(t, args...)
	openAt(t, ctx, base, "")
	clicks := 0
	for eval[bool](t, ctx, `document.getElementById("banner").hidden`) {
		if clicks > shortest {
			t.Fatalf("%d clicks and no violation yet (check's: %d steps)", clicks, shortest)
		}
		label := eval[string](t, ctx, `(() => { const b = document.querySelector("#steps li .b-nearest"); return b ? b.parentElement.dataset.label : ""; })()`)
		if label == "" {
			t.Fatalf("after %d clicks, no step marked as the way to a violation", clicks)
		}
		path := eval[string](t, ctx, "window.explorer.path")
		if path != "" {
			path += ","
		}
		click(t, ctx, `#steps li[data-label="`+label+`"]`, path+label)
		clicks++
	}
	if clicks != shortest {
		t.Errorf("the student found the violation in %d clicks; check's counterexample has %d steps (%s)", clicks, shortest, m[1])
	}
}

// Long paths and long labels keep the page within the window: a 200-step
// history folds its middle and fits its box, unfolded too; a 5,000-step
// path shows the first steps the server takes, and an 8 KB label is
// echoed cut.
func longPaths(t *testing.T, ctx context.Context) {
	base := explorerServer(t, "mutex", "check", "central", "--nodes", "4", "--requests", "0", "--favour", "3", "--por=false", "--explore-time", "1s")
	const prefix, cycle = "c2,c4,d2-1,d4-1", "c3,d1-2,c2,c2,d3-1,d2-1,d1-2,d1-3,c3,d2-1,d3-1,d1-3"
	steps := strings.Split(prefix, ",")
	for len(steps) < 5000 {
		steps = append(steps, strings.Split(cycle, ",")...)
	}
	p200 := strings.Join(steps[:200], ",")
	openAt(t, ctx, base, p200)
	s := eval[shownPath](t, ctx, readPath)
	if len(s.Tree) != 40 || s.Folded != 160 || s.TreeScroll > s.TreeWidth || s.PageScroll > s.PageWidth {
		t.Errorf("200 steps: %d in the history and %d folded, %d px in a box of %d, page %d px in %d", len(s.Tree), s.Folded, s.TreeScroll, s.TreeWidth, s.PageScroll, s.PageWidth)
	}
	// unfolded, the 200 steps still fit
	click(t, ctx, "#tree li.folded", p200)
	if s := eval[shownPath](t, ctx, readPath); len(s.Tree) != 200 || s.TreeScroll > s.TreeWidth || s.PageScroll > s.PageWidth {
		t.Errorf("200 steps unfolded: %d in the history, %d px in a box of %d, page %d px in %d", len(s.Tree), s.TreeScroll, s.TreeWidth, s.PageScroll, s.PageWidth)
	}
	do(t, ctx, chromedp.Navigate(base+"/explore?path="+strings.Join(steps[:5000], ",")))
	waitPath(t, ctx, strings.Join(steps[:4096], ","))
	if s := eval[shownPath](t, ctx, readPath); s.PageScroll > s.PageWidth || !strings.Contains(s.Error, "5000 steps, more than 4096") {
		t.Errorf("5,000 steps: page %d px in %d, error %q", s.PageScroll, s.PageWidth, s.Error)
	}
	do(t, ctx, chromedp.Navigate(base+"/explore?path=c2,"+strings.Repeat("x", 8<<10)))
	waitPath(t, ctx, "c2")
	if s := eval[shownPath](t, ctx, readPath); len(s.Error) > 400 || !strings.Contains(s.Error, "xxx…") || s.PageScroll > s.PageWidth {
		t.Errorf("an 8 KB label: error of %d bytes %.400q, page %d px in %d; want it cut with …", len(s.Error), s.Error, s.PageScroll, s.PageWidth)
	}
}
