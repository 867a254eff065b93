package trace

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// svgRenderer draws a space-time diagram (Lamport's picture of a run) as a
// self-contained SVG: one horizontal line per node, time running right; an
// arrow per delivered message from its send to its receive, a lost one
// ending in a cross; critical sections as bars on the line; crashes,
// leader decisions and violations marked; a legend; and the command that
// replays the run in the footer. No script, no external resource.
type svgRenderer struct{ collector }

func (r *svgRenderer) Flush() error { return r.flush(r.draw) }

// SVGMaxSlots bounds the picture's width in event positions: past it the
// diagram stops and says so.
const SVGMaxSlots = 1500

// Geometry of the diagram, in pixels.
const (
	svgStep    = 22  // between two events of a node
	svgTickGap = 10  // extra space between two instants
	svgRow     = 64  // between two nodes' lines
	svgTop     = 140 // above the first line
	svgFont    = 13  // node names
	svgLabels  = 160 // most messages that get a label on their arrow
)

var svgPalette = []string{"#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#17becf", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22"}

// xmlText escapes text taken from a log for SVG text and attributes:
// markup signs become entities and characters XML forbids are dropped.
func xmlText(s string) string {
	var b strings.Builder
	for _, r := range OneLine(s) {
		switch {
		case r == '&':
			b.WriteString("&amp;")
		case r == '<':
			b.WriteString("&lt;")
		case r == '>':
			b.WriteString("&gt;")
		case r == '"':
			b.WriteString("&quot;")
		case r == '\'':
			b.WriteString("&#39;")
		case r == '\t' || (r >= 0x20 && r <= 0xD7FF) || (r >= 0xE000 && r <= 0xFFFD) || (r >= 0x10000 && r <= 0x10FFFF):
			b.WriteRune(r)
		}
	}
	return b.String()
}

func textWidth(s string, font float64) float64 {
	return float64(utf8.RuneCountInString(s)) * font * 0.62
}

func (r *svgRenderer) draw() error {
	h := r.header()
	n := h.Nodes
	ev := r.ev
	ms, byEvent := messages(ev)

	// x of every event: instants in order, each as wide as the busiest
	// node's run of events at it; a node's events at one instant side by
	// side. Commands, states and notes sit at their node's last position.
	x := make([]float64, len(ev))
	labelW := 0.0
	for i := 1; i <= n; i++ {
		labelW = max(labelW, textWidth(h.Label(i), svgFont))
	}
	left := 24 + labelW + 16
	pos := left + svgStep
	shown := len(ev)
	slots := 0
	for i := 0; i < len(ev); {
		j := i
		count := map[int]int{}
		for j < len(ev) && ev[j].T == ev[i].T {
			j++
		}
		width := 1
		for k := i; k < j; k++ {
			if major(ev[k].Kind) {
				count[ev[k].Node]++
				width = max(width, count[ev[k].Node])
			}
		}
		if slots+width > SVGMaxSlots {
			shown = i
			break
		}
		at := map[int]int{}
		for k := i; k < j; k++ {
			c := at[ev[k].Node]
			if major(ev[k].Kind) {
				at[ev[k].Node]++
				x[k] = pos + float64(c)*svgStep
			} else {
				x[k] = pos + float64(max(c-1, 0))*svgStep
			}
		}
		slots += width
		pos += float64(width)*svgStep + svgTickGap
		i = j
	}
	right := pos + svgStep
	y := func(i int) float64 { return svgTop + float64(i-1)*svgRow }
	bottom := y(max(n, 1)) + 56

	// Message types in order of first appearance pick the colours.
	color := map[string]string{}
	var types []string
	for _, m := range ms {
		t := strings.SplitN(m.label, "(", 2)[0]
		if _, ok := color[t]; !ok {
			color[t] = svgPalette[len(types)%len(svgPalette)]
			types = append(types, t)
		}
	}
	legendRows := 1 + (len(types)+5)/6
	footer := bottom + 28 + float64(legendRows)*22
	verdicts := []Verdict{}
	if r.sum != nil {
		verdicts = r.sum.Verdicts
	}
	height := footer + float64(len(verdicts)+3)*18 + 10
	width := max(right+20, 760)

	var b strings.Builder
	p := func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }
	p(`<?xml version="1.0" encoding="UTF-8"?>` + "\n")
	p(`<svg xmlns="http://www.w3.org/2000/svg" width="%.0f" height="%.0f" viewBox="0 0 %.0f %.0f" font-family="DejaVu Sans, Verdana, sans-serif">`+"\n", width, height, width, height)
	p(`<title>%s</title>`+"\n", xmlText("ringlab "+h.Algorithm+": space-time diagram"))
	p("<defs>\n")
	for _, t := range types {
		p(`<marker id="arrow-%s" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="%s"/></marker>`+"\n", colorID(color[t]), color[t])
	}
	p("</defs>\n")
	p(`<rect x="0" y="0" width="%.0f" height="%.0f" fill="white"/>`+"\n", width, height)
	title := fmt.Sprintf("%s — %d nodes, %s", h.Algorithm, n, h.Runtime)
	if h.Runtime == "sim" {
		title += fmt.Sprintf(", seed %d", h.Seed)
	}
	p(`<text x="24" y="28" font-size="17" font-weight="bold">%s</text>`+"\n", xmlText(title))
	unit := "time → in simulator ticks (ticks where nothing happens are left out; events of a node at one tick stand side by side)"
	switch {
	case h.Live():
		unit = "time → (a live run: events in the order they were logged)"
	case h.Runtime != "sim":
		unit = "time → (steps as the log counts them)"
	}
	p(`<text x="24" y="48" font-size="12" fill="#555">%s</text>`+"\n", xmlText(unit))

	// The time axis, under the last line.
	lastLabel := -1e9
	for i := 0; i < shown; i++ {
		if (i == 0 || ev[i].T != ev[i-1].T) && x[i]-lastLabel >= 48 {
			p(`<line x1="%.1f" y1="%.0f" x2="%.1f" y2="%.0f" stroke="#eee"/>`+"\n", x[i], float64(svgTop-40), x[i], bottom-22)
			p(`<text x="%.1f" y="%.0f" font-size="10" fill="#777" text-anchor="middle">t=%s</text>`+"\n", x[i], bottom-10, xmlText(h.FormatTime(ev[i].T)))
			lastLabel = x[i]
		}
	}

	// One line per node, its name on the left.
	for i := 1; i <= n; i++ {
		p(`<text x="%.0f" y="%.1f" font-size="%d" text-anchor="end" dominant-baseline="middle">%s</text>`+"\n", left-10, y(i), svgFont, xmlText(h.Label(i)))
		p(`<line class="node" x1="%.0f" y1="%.1f" x2="%.0f" y2="%.1f" stroke="#444" stroke-width="1.5"/>`+"\n", left, y(i), right, y(i))
	}
	// Down time: from a crash to its recovery (or the end), dotted over the line.
	down := map[int]float64{}
	for i := 0; i < shown; i++ {
		switch ev[i].Kind {
		case KindCrash:
			down[ev[i].Node] = x[i]
		case KindRecover:
			if x0, ok := down[ev[i].Node]; ok {
				p(`<line class="down" x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="white" stroke-width="3" stroke-dasharray="4 4"/>`+"\n", x0, y(ev[i].Node), x[i], y(ev[i].Node))
				delete(down, ev[i].Node)
			}
		}
	}
	for nd := 1; nd <= n; nd++ {
		x0, ok := down[nd]
		if !ok {
			continue
		}
		p(`<line class="down" x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="white" stroke-width="3" stroke-dasharray="4 4"/>`+"\n", x0, y(nd), right, y(nd))
	}
	// Critical sections.
	for _, cs := range csIntervals(ev[:shown]) {
		x1 := right
		if cs.exit >= 0 {
			x1 = x[cs.exit]
		}
		p(`<rect class="cs" x="%.1f" y="%.1f" width="%.1f" height="12" rx="3" fill="#5dade2" fill-opacity="0.55" stroke="#2e86c1"><title>%s in the critical section</title></rect>`+"\n",
			x[cs.enter], y(cs.node)-6, max(x1-x[cs.enter], 4), xmlText(h.Name(cs.node)))
	}
	// Messages.
	labels := len(ms) <= svgLabels
	var boxes [][4]float64 // labels placed so far: x0, y0, x1, y1
	place := func(cx, cy, w, hgt float64) bool {
		b := [4]float64{cx - w/2 - 2, cy - hgt, cx + w/2 + 2, cy + 2}
		for _, o := range boxes {
			if b[0] < o[2] && o[0] < b[2] && b[1] < o[3] && o[1] < b[3] {
				return false
			}
		}
		boxes = append(boxes, b)
		return true
	}
	for _, m := range ms {
		if m.send < 0 || m.send >= shown || m.from < 1 || m.from > n || m.to < 1 || m.to > n {
			continue
		}
		t := strings.SplitN(m.label, "(", 2)[0]
		c := color[t]
		x1, y1 := x[m.send], y(m.from)
		switch {
		case m.recv >= 0 && m.recv < shown:
			x2, y2 := x[m.recv], y(m.to)
			p(`<line class="msg" x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="%s" stroke-width="1.4" marker-end="url(#arrow-%s)"><title>%s: %s → %s</title></line>`+"\n",
				x1, y1, x2, y2, c, colorID(c), xmlText(m.label), xmlText(h.Name(m.from)), xmlText(h.Name(m.to)))
			if labels {
				text := Cut(m.label, 40)
				for _, f := range []float64{0.5, 0.35, 0.65, 0.25, 0.75} {
					lx, ly := x1+(x2-x1)*f, y1+(y2-y1)*f-3
					if place(lx, ly, textWidth(text, 9.5), 11) {
						p(`<text x="%.1f" y="%.1f" font-size="9.5" fill="%s" text-anchor="middle" stroke="white" stroke-width="3" paint-order="stroke">%s</text>`+"\n", lx, ly, c, xmlText(text))
						break
					}
				}
			}
		case m.drop >= 0 && m.drop < shown:
			x2, y2 := x1+2*svgStep, y1+(y(m.to)-y1)*0.5
			if ev[m.drop].Node == m.to {
				x2, y2 = x[m.drop], y(m.to)
			}
			p(`<line class="lost" x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="%s" stroke-width="1.4" stroke-dasharray="5 3"><title>%s lost: %s</title></line>`+"\n",
				x1, y1, x2, y2, c, xmlText(m.label), xmlText(ev[m.drop].Note))
			p(`<path d="M%.1f,%.1f l8,8 m0,-8 l-8,8" stroke="#c0392b" stroke-width="2.2"/>`+"\n", x2-4, y2-4)
		}
	}
	// Markers and labels at events.
	stack := map[int]int{} // labels already above a node at this x
	lastX := map[int]float64{}
	above := func(i int, text, fill string) {
		nd := ev[i].Node
		if lastX[nd] != x[i] {
			stack[nd] = 0
			lastX[nd] = x[i]
		}
		stack[nd]++
		p(`<text x="%.1f" y="%.1f" font-size="10" fill="%s" transform="rotate(-28 %.1f %.1f)">%s</text>`+"\n",
			x[i]+2, y(nd)-8-float64(stack[nd]-1)*11, fill, x[i]+2, y(nd)-8-float64(stack[nd]-1)*11, xmlText(Cut(text, 26)))
	}
	for i := 0; i < shown; i++ {
		e := &ev[i]
		if e.Node < 1 || e.Node > n {
			continue
		}
		switch e.Kind {
		case KindSend, KindRecv:
			p(`<circle cx="%.1f" cy="%.1f" r="2.6" fill="#333"/>`+"\n", x[i], y(e.Node))
		case KindState:
			above(i, e.State, "#555")
		case KindCmd:
			above(i, e.Cmd, "#7d3c98")
		case KindNote:
			if byEvent[i] < 0 {
				above(i, e.Note, "#888")
			}
		case KindCrash:
			p(`<g class="crash"><path d="M%.1f,%.1f l14,14 m0,-14 l-14,14" stroke="#c0392b" stroke-width="3"/><title>%s crashed</title></g>`+"\n", x[i]-7, y(e.Node)-7, xmlText(h.Name(e.Node)))
			above(i, "crash", "#c0392b")
		case KindRecover:
			p(`<circle cx="%.1f" cy="%.1f" r="6" fill="none" stroke="#27ae60" stroke-width="2.5"/>`+"\n", x[i], y(e.Node))
			above(i, "recover", "#27ae60")
		case KindLeader:
			p(`<text class="leader" x="%.1f" y="%.1f" font-size="18" fill="#d4ac0d" text-anchor="middle" dominant-baseline="middle">★<title>%s takes id %d as leader</title></text>`+"\n", x[i], y(e.Node), xmlText(h.Name(e.Node)), e.LeaderID())
			above(i, fmt.Sprintf("leader: id %d", e.LeaderID()), "#b7950b")
		case KindViolation:
			p(`<g class="violation"><line x1="%.1f" y1="%.0f" x2="%.1f" y2="%.0f" stroke="#e74c3c" stroke-width="1.5" stroke-dasharray="6 3"/>`, x[i], float64(svgTop-20), x[i], bottom-20)
			p(`<circle cx="%.1f" cy="%.1f" r="9" fill="none" stroke="#e74c3c" stroke-width="3"/>`, x[i], y(e.Node))
			p(`<title>%s</title></g>`+"\n", xmlText("violation of "+e.Property+": "+e.Detail))
			p(`<text x="%.1f" y="%.1f" font-size="11" font-weight="bold" fill="#e74c3c">%s</text>`+"\n", x[i]+5, y(e.Node)+22, xmlText("✗ "+e.Property))
		}
	}

	// Legend.
	ly := bottom + 10
	p(`<text x="24" y="%.1f" font-size="12" font-weight="bold">Legend</text>`+"\n", ly)
	lx := 90.0
	item := func(draw, text string) {
		p(draw+"\n", lx, ly-4)
		p(`<text x="%.1f" y="%.1f" font-size="11">%s</text>`+"\n", lx+30, ly, xmlText(text))
		lx += 40 + textWidth(text, 11)
	}
	has := map[string]bool{}
	for i := 0; i < shown; i++ {
		has[ev[i].Kind] = true
	}
	if has[KindEnterCS] {
		item(`<g transform="translate(%.1f %.1f)"><rect x="0" y="-6" width="24" height="12" rx="3" fill="#5dade2" fill-opacity="0.55" stroke="#2e86c1"/></g>`, "critical section")
	}
	if has[KindDrop] {
		item(`<g transform="translate(%.1f %.1f)"><path d="M0,0 l18,0" stroke="#555" stroke-dasharray="5 3"/><path d="M16,-4 l8,8 m0,-8 l-8,8" stroke="#c0392b" stroke-width="2.2"/></g>`, "lost message")
	}
	if has[KindCrash] {
		item(`<g transform="translate(%.1f %.1f)"><path d="M4,-7 l14,14 m0,-14 l-14,14" stroke="#c0392b" stroke-width="3"/></g>`, "crash")
	}
	if has[KindRecover] {
		item(`<g transform="translate(%.1f %.1f)"><circle cx="11" cy="0" r="6" fill="none" stroke="#27ae60" stroke-width="2.5"/></g>`, "recovery")
	}
	if has[KindLeader] {
		item(`<g transform="translate(%.1f %.1f)"><text x="11" y="0" font-size="18" fill="#d4ac0d" text-anchor="middle" dominant-baseline="middle">★</text></g>`, "leader decided")
	}
	if has[KindViolation] {
		item(`<g transform="translate(%.1f %.1f)"><circle cx="11" cy="0" r="8" fill="none" stroke="#e74c3c" stroke-width="3"/></g>`, "violation")
	}
	for k, t := range types {
		if k%6 == 0 && k > 0 {
			ly += 22
			lx = 90
		}
		c := color[t]
		item(fmt.Sprintf(`<g transform="translate(%%.1f %%.1f)"><line x1="0" y1="0" x2="22" y2="0" stroke="%s" stroke-width="1.4" marker-end="url(#arrow-%s)"/></g>`, c, colorID(c)), t)
	}

	// Footer: verdicts, cut, replay.
	fy := footer
	for _, v := range verdicts {
		fill := "#1e8449"
		if !v.OK {
			fill = "#c0392b"
		}
		p(`<text x="24" y="%.1f" font-size="12" fill="%s">%s</text>`+"\n", fy, fill, xmlText(Cut(VerdictLine(v), 160)))
		fy += 18
	}
	if shown < len(ev) || r.skipped > 0 {
		p(`<text x="24" y="%.1f" font-size="12" fill="#c0392b">%s</text>`+"\n", fy, xmlText(fmt.Sprintf(
			"✂ cut: the diagram shows the first %d of %d events; narrow the run (fewer nodes, requests or initiators) to see it all.", shown, len(ev)+r.skipped)))
		fy += 18
	}
	p(`<text x="24" y="%.1f" font-size="12" fill="#333">replay: <tspan font-family="DejaVu Sans Mono, monospace">%s</tspan></text>`+"\n", fy, xmlText(h.Replay+ReplayNote(h.Runtime)))
	p("</svg>\n")
	_, err := r.w.WriteString(b.String())
	return err
}

// major reports whether an event of kind takes a place of its own on its
// node's line.
func major(kind string) bool {
	switch kind {
	case KindCmd, KindState, KindNote, KindDup, KindViolation:
		return false
	}
	return true
}

func colorID(c string) string { return strings.TrimPrefix(c, "#") }
