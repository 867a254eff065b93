package main

// The explorer's graph as a student reads it, on the four systems of
// issue #35: the nodes by the names of their states, the legend and the
// marks, each message on an arrow of its own in the order sent, labels
// that overlap nothing, names inside their nodes, a node's menu with no
// tooltip over it. One Chromium for all.

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

// graphFacts is what the page's graph shows, read in the browser.
type graphFacts struct {
	Panel    string            `json:"panel"`    // the nodes panel's text
	States   map[string]string `json:"states"`   // node -> the state drawn in it
	Legend   string            `json:"legend"`   // the legend's text
	Halo     []string          `json:"halo"`     // the nodes with a halo
	Ring     []string          `json:"ring"`     // the nodes with a critical section's ring
	Star     []string          `json:"star"`     // the nodes with a star
	Labels   int               `json:"labels"`   // message labels shown
	Hidden   int               `json:"hidden"`   // message labels left out
	Overlaps []string          `json:"overlaps"` // pairs of shown labels that intersect
	Spill    []string          `json:"spill"`    // node texts that spill out of their circle
	Arrows   int               `json:"arrows"`   // message lines with an arrowhead
	Msgs     int               `json:"msgs"`     // messages drawn
	Dirs     int               `json:"dirs"`     // messages drawn with a direction mark
}

const readGraph = `(() => {
	const q = (s) => [...document.querySelectorAll(s)];
	const nodes = (cls) => q("#graph .node").filter(g => g.querySelector(cls)).map(g => g.dataset.node);
	const states = {};
	for (const g of q("#graph .node")) states[g.dataset.node] = g.dataset.state;
	const shown = q("#graph .msg text").filter(t => t.getAttribute("display") !== "none");
	const boxes = shown.map(t => t.getBoundingClientRect());
	const overlaps = [];
	boxes.forEach((a, i) => boxes.forEach((b, j) => {
		if (i < j && a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom) overlaps.push(shown[i].textContent + " / " + shown[j].textContent);
	}));
	const spill = [];
	for (const g of q("#graph .node")) {
		const c = (g.querySelector(".body") || g.querySelector("circle")).getBoundingClientRect(), r = c.width / 2, cx = c.left + r, cy = c.top + r;
		for (const t of g.querySelectorAll("text")) {
			const b = t.getBoundingClientRect();
			for (const [x, y] of [[b.left, b.top], [b.right, b.top], [b.left, b.bottom], [b.right, b.bottom]])
				if (Math.hypot(x - cx, y - cy) > r + 0.5) { spill.push(t.textContent); break; }
		}
	}
	return {
		panel: document.getElementById("nodes").textContent, states, legend: (document.getElementById("legend") || {}).textContent || "",
		halo: nodes(".halo"), ring: nodes(".ring"), star: nodes(".star"),
		labels: shown.length, hidden: q("#graph .msg text").length - shown.length, overlaps, spill,
		arrows: q("#graph .mlink[marker-end]").length, msgs: q("#graph .msg").length, dirs: q("#graph .msg .dir").length,
	};
})()`

func readGraphFacts(t *testing.T, ctx context.Context) graphFacts {
	t.Helper()
	return eval[graphFacts](t, ctx, readGraph)
}

// readable fails t unless the graph and the nodes panel read as words:
// no Go dump, no overlapping labels, no text out of its node, every
// message with its direction.
func readable(t *testing.T, g graphFacts) {
	t.Helper()
	t.Logf("%d messages, %d labels shown, %d left out, %d arrows; legend %q", g.Msgs, g.Labels, g.Hidden, g.Arrows, g.Legend)
	for _, dump := range []string{"cfg:", "{", "[false", "[true"} {
		if strings.Contains(g.Panel, dump) {
			t.Errorf("the nodes panel prints Go values (%q): %s", dump, g.Panel)
		}
	}
	if len(g.Overlaps) > 0 {
		t.Errorf("%d pairs of message labels overlap, e.g. %q", len(g.Overlaps), g.Overlaps[0])
	}
	if len(g.Spill) > 0 {
		t.Errorf("node texts spill out of their circles: %q", g.Spill)
	}
	if g.Dirs != g.Msgs || (g.Msgs > 0 && g.Arrows == 0) {
		t.Errorf("%d messages, %d with a direction, %d arrows", g.Msgs, g.Dirs, g.Arrows)
	}
}

func TestExplorerGraph(t *testing.T) {
	ctx := browser(t)
	t.Run("central", func(t *testing.T) { graphCentral(t, ctx) })
	t.Run("lamport", func(t *testing.T) { graphLamport(t, ctx) })
	t.Run("anonymous", func(t *testing.T) { graphAnonymous(t, ctx) })
	t.Run("ricart-agrawala", func(t *testing.T) { graphRicart(t, ctx) })
}

// The coordinator whose grant timeout is too short: BUSY (not the
// participant's RELEASED its struct also holds) with P2 as its holder,
// the two participants inside ringed and haloed, "coordinator" inside its
// circle, and its menu with no tooltip over it.
func graphCentral(t *testing.T, ctx context.Context) {
	base := explorerServer(t, "mutex", "check", "central", "--nodes", "3", "--grant-timeout", "10")
	openAt(t, ctx, base, "c2,c3,d2-1,t1:1,d1-2,d3-1,d1-3")
	g := readGraphFacts(t, ctx)
	readable(t, g)
	if g.States["1"] != "BUSY" || !strings.Contains(g.Panel, "holder: P2") || strings.Contains(g.Panel, "RELEASED") {
		t.Errorf("the coordinator: drawn %q, panel %q", g.States["1"], g.Panel)
	}
	if fmt.Sprint(g.Halo) != "[2 3]" || fmt.Sprint(g.Ring) != "[2 3]" || len(g.Star) != 0 {
		t.Errorf("halo on %v, ring on %v, star on %v; want both participants haloed and ringed", g.Halo, g.Ring, g.Star)
	}
	for _, entry := range []string{"BUSY", "HELD", "in the critical section", "a node of the violation", "moved by the last step"} {
		if !strings.Contains(g.Legend, entry) {
			t.Errorf("the legend lacks %q: %q", entry, g.Legend)
		}
	}
	click(t, ctx, `#graph .node[data-node="1"] circle`, "\x00")
	// the pointer leaves the node and comes back, as a hand does
	overlap := eval[string](t, ctx, `(() => {
		const n = document.querySelector('#graph .node[data-node="1"]');
		n.dispatchEvent(new MouseEvent("mouseleave")); n.dispatchEvent(new MouseEvent("mouseenter"));
		const m = document.getElementById("menu"), tp = document.getElementById("tip");
		if (m.hidden) return "no menu";
		if (tp.hidden) return "";
		const a = m.getBoundingClientRect(), b = tp.getBoundingClientRect();
		return a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom ? "the tooltip covers the menu" : "";
	})()`)
	if overlap != "" {
		t.Error(overlap)
	}
}

// Lamport without FIFO: on the link P1 -> P2 the ACQUIRE was sent before
// the ACK, which is the link's head; the page says so and draws the
// ACQUIRE nearer P2.
func graphLamport(t *testing.T, ctx context.Context) {
	base := explorerServer(t, "mutex", "check", "lamport", "--nodes", "2", "--policy", "random")
	openAt(t, ctx, base, "c1,c2,d2-1")
	g := readGraphFacts(t, ctx)
	readable(t, g)
	order := eval[string](t, ctx, `(() => {
		const m = [...document.querySelectorAll('#graph .msg[data-from="1"][data-to="2"]')];
		const p2 = document.querySelector('#graph .node[data-node="2"] circle').getBoundingClientRect();
		const dist = (e) => { const c = e.querySelector("circle").getBoundingClientRect(); return Math.hypot(c.x - p2.x, c.y - p2.y); };
		return m.sort((a, b) => dist(a) - dist(b)).map(e => e.dataset.order + ":" + e.textContent.slice(0, 3)).join(" ");
	})()`)
	if order != "1:ACQ 2:ACK" {
		t.Errorf("the link P1 -> P2 from P2 back: %q, want the ACQUIRE, sent first, nearest", order)
	}
	if fl := eval[string](t, ctx, `document.getElementById("flight").textContent`); !strings.Contains(fl, "ACQUIRE(T=1, id=1) P1 → P2 (sent #1 of 2") {
		t.Errorf("messages in flight: %q", fl)
	}
	if g.States["1"] != "WANTED" || !strings.Contains(g.Panel, "queue: (T=1 ID=1 Index=1), (T=1 ID=2 Index=2)") {
		t.Errorf("P1: %q; panel %q", g.States["1"], g.Panel)
	}
}

// The anonymous ring: Candidate, Elected and Installed where the page
// drew 1, 2 and 3; a star on each node that took itself for the leader,
// a halo on the two the violation names. The ring of 64, all candidates,
// keeps its 64 labels apart.
func graphAnonymous(t *testing.T, ctx context.Context) {
	base := explorerServer(t, "election", "check", "anonymous", "--nodes", "3", "--initiators", "all")
	openAt(t, ctx, base, "c1,c2")
	if g := readGraphFacts(t, ctx); g.States["1"] != "Candidate" || g.States["3"] != "Follower" {
		t.Errorf("after c1,c2: %v", g.States)
	}
	openAt(t, ctx, base, "c1,c2,c3,d1-2,d2-3,d2-3,d3-1,d1-2")
	g := readGraphFacts(t, ctx)
	readable(t, g)
	if g.States["1"] != "Elected" || g.States["2"] != "Installed" || fmt.Sprint(g.Star) != "[1 2 3]" || fmt.Sprint(g.Halo) != "[2 3]" {
		t.Errorf("states %v, stars on %v, halo on %v", g.States, g.Star, g.Halo)
	}
	if !strings.Contains(g.Legend, "leader") || !strings.Contains(g.Legend, "Elected") {
		t.Errorf("the legend: %q", g.Legend)
	}
	big := explorerServer(t, "election", "check", "anonymous", "--nodes", "64", "--initiators", "all", "--explore-states", "1")
	openAt(t, ctx, big, allCommands(64))
	g = readGraphFacts(t, ctx)
	readable(t, g)
	if g.Msgs != 64 || g.Labels+g.Hidden != 64 {
		t.Errorf("64 candidates: %d messages, %d labels shown, %d left out", g.Msgs, g.Labels, g.Hidden)
	}
}

// Ricart-Agrawala: every REQUEST of three nodes labelled, none over
// another, each direction of a link on its own line; with 64 nodes and
// 4 requesting, 252 messages and still no overlap (a label without room
// is left out, and the legend says how many).
func graphRicart(t *testing.T, ctx context.Context) {
	base := explorerServer(t, "mutex", "check", "ricart-agrawala", "--nodes", "3")
	openAt(t, ctx, base, "c1,c2,c3")
	g := readGraphFacts(t, ctx)
	readable(t, g)
	if g.Msgs != 6 || g.Labels != 6 || g.Arrows != 6 {
		t.Errorf("3 requests: %d messages, %d labels, %d arrows; want 6 of each", g.Msgs, g.Labels, g.Arrows)
	}
	apart := eval[float64](t, ctx, `(() => {
		const ls = [...document.querySelectorAll("#graph .mlink")].map(l => ["x1", "y1", "x2", "y2"].map(a => +l.getAttribute(a)));
		let least = Infinity;
		for (const a of ls) for (const b of ls) if (a !== b) least = Math.min(least, Math.hypot(a[0] - b[2], a[1] - b[3]) + Math.hypot(a[2] - b[0], a[3] - b[1]));
		return least;
	})()`)
	if apart < 10 {
		t.Errorf("two directions of a link share a line (ends %.1f apart)", apart)
	}
	big := explorerServer(t, "mutex", "check", "ricart-agrawala", "--nodes", "64", "--explore-states", "1")
	openAt(t, ctx, big, allCommands(4))
	g = readGraphFacts(t, ctx)
	readable(t, g)
	if g.Msgs != 4*63 || g.Labels == 0 || (g.Hidden > 0) != strings.Contains(g.Legend, fmt.Sprintf("%d message label(s) left out", g.Hidden)) {
		t.Errorf("4 of 64 requesting: %d messages, %d labels shown, %d left out; legend %q", g.Msgs, g.Labels, g.Hidden, g.Legend)
	}
}

// allCommands is the path c1,c2,…,cN.
func allCommands(n int) string {
	ls := make([]string, n)
	for i := range ls {
		ls[i] = fmt.Sprintf("c%d", i+1)
	}
	return strings.Join(ls, ",")
}
