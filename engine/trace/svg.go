package trace

import (
	"fmt"
	"strings"

	"ringlab/engine/lang"
)

// svgRenderer draws a space-time diagram (Lamport's picture of a run) as a
// self-contained SVG: one horizontal line per node, time running right; an
// arrow per delivered message from its send to its receive, a lost one
// ending in a cross; critical sections as bars on the line; crashes,
// leader decisions and violations marked; a legend; and the command that
// replays the run in the footer. No script, no external resource.
type svgRenderer struct {
	collector
	lang lang.Lang // the language of the picture's words
}

func (r *svgRenderer) Flush() error { return r.flush(r.draw) }

// SVGMaxSlots and SVGMaxEvents bound the picture: the instants (columns
// of the time axis) and the events it draws; past either the diagram stops
// at an instant's end and says so.
const (
	SVGMaxSlots  = 1500
	SVGMaxEvents = 6000
)

// Geometry of the diagram, in pixels and font sizes.
const (
	svgStep       = 22   // a lost message's dashed line runs two of these
	svgMinGap     = 36   // between two instants
	svgMaxGap     = 240  // most an instant is widened to make room for labels
	svgPerArrow   = 14   // a gap's width for each arrow that crosses it
	svgLabelShare = 0.25 // share of a message label's width the gaps under its arrow hold
	svgRow        = 64   // between two nodes' lines
	svgTop        = 140  // above the first line
	svgFont       = 13   // node names
	svgLabels     = 160  // most messages that get a label on their arrow
	svgMsgFont    = 9.5  // message labels
	svgEvFont     = 10.0 // labels at events (states, commands, notes) and times
	svgMsgCut     = 40   // longest message label, in characters
	svgEvCut      = 26   // longest label at an event
	svgLegend     = 6    // message types per legend row
	svgStarBox    = 0.62 * 18 / 2
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

// svgDiagram is one drawing in progress. Time runs right on a true axis:
// every instant of the log (a run of events with the same time) is one
// column, and every event, arrow end and critical-section bar end of that
// instant sits on its column's line. Instants where nothing happens are
// left out; a gap between two instants is wide enough for the labels of
// the messages that cross it.
type svgDiagram struct {
	lang    lang.Lang
	b       strings.Builder
	h       *Header
	n       int
	ev      []Event
	sum     *Summary
	skipped int
	ms      []message
	byEvent []int
	labels  bool      // message arrows carry their labels
	extra   []float64 // each gap's widening, from the passes before
	more    []float64 // extra and the widening this pass asks for
	dropped int       // labels that found no place

	shown int       // events drawn: ev[:shown]
	colT  []int64   // each column's time
	colX  []float64 // each column's x
	col   []int     // each shown event's column
	left  float64   // x where the nodes' lines start
	right float64   // x where they end
	color map[string]string
	types []string // message types in order of first appearance
	pl    placer
}

func (d *svgDiagram) p(format string, args ...any) { fmt.Fprintf(&d.b, format, args...) }

// y is node i's line.
func (d *svgDiagram) y(i int) float64 { return svgTop + float64(i-1)*svgRow }

// x is event i's place on the time axis.
func (d *svgDiagram) x(i int) float64 { return d.colX[d.col[i]] }

func (d *svgDiagram) bottom() float64 { return d.y(max(d.n, 1)) + 56 }

// drawable reports whether m is drawn: its send is shown, its nodes exist.
func (d *svgDiagram) drawable(m message) bool {
	return m.send >= 0 && m.send < d.shown && m.from >= 1 && m.from <= d.n && m.to >= 1 && m.to <= d.n
}

// svgPasses bounds the drawings tried: each pass widens the gaps around
// the labels that found no place in the one before, so the picture is
// only as wide as its labels need. A picture too big for message labels
// is drawn once; a label at an event that finds no place is left out.
const svgPasses = 8

func (r *svgRenderer) draw() error {
	ms, byEvent := messages(r.ev)
	var extra []float64
	var d *svgDiagram
	for range svgPasses {
		d = &svgDiagram{lang: r.lang, h: r.header(), ev: r.ev, sum: r.sum, skipped: r.skipped, ms: ms, byEvent: byEvent, extra: extra}
		d.draw()
		if d.dropped == 0 || !d.labels {
			break
		}
		extra = d.more
	}
	_, err := r.w.WriteString(d.b.String())
	return err
}

// draw draws the whole picture into d.b.
func (d *svgDiagram) draw() {
	d.n = d.h.Nodes
	d.labels = len(d.ms) <= svgLabels
	d.layout()
	d.colours()
	width, height, footer := d.size()
	d.frame(width, height)
	d.axis()
	d.cycle()
	d.nodeLines()
	d.downTime()
	d.criticalSections()
	d.arrows()
	d.marks()
	d.eventLabels()
	d.messageLabels()
	d.legend()
	d.footer(footer)
	d.p("</svg>\n")
}

// layout cuts the events into instants and gives each instant its x.
func (d *svgDiagram) layout() {
	ev := d.ev
	d.shown = len(ev)
	d.col = make([]int, len(ev))
	for i := 0; i < len(ev); {
		if len(d.colT) == SVGMaxSlots || i >= SVGMaxEvents {
			d.shown = i
			break
		}
		j := i
		for j < len(ev) && ev[j].T == ev[i].T {
			d.col[j] = len(d.colT)
			j++
		}
		d.colT = append(d.colT, ev[i].T)
		i = j
	}
	// Each gap holds the two instants' time labels, widened where a label
	// found no place in a pass before.
	gap := make([]float64, max(len(d.colT)-1, 0))
	crossing := make([]int, len(gap))
	for k := range gap {
		gap[k] = max(svgMinGap, (d.tickWidth(k)+d.tickWidth(k+1))/2+10)
	}
	// and room for a share of the labels and for the arrows that cross it
	// (a fan of messages at one instant spreads out instead of bunching)
	for _, m := range d.ms {
		if !d.drawable(m) || m.recv < 0 || m.recv >= d.shown || d.col[m.recv] <= d.col[m.send] {
			continue
		}
		a, b := d.col[m.send], d.col[m.recv]
		if d.labels {
			need := (svgLabelShare*textWidth(Cut(m.label, svgMsgCut), svgMsgFont) + 16) / float64(b-a)
			for k := a; k < b; k++ {
				gap[k] = max(gap[k], need)
			}
		}
		for k := a; k < b; k++ {
			crossing[k]++
		}
	}
	for k := range gap {
		gap[k] = max(gap[k], min(svgPerArrow*float64(crossing[k]), svgMaxGap))
	}
	d.more = make([]float64, len(gap))
	for k := range gap {
		if k < len(d.extra) {
			d.more[k] = d.extra[k]
		}
		gap[k] = min(gap[k]+d.more[k], max(gap[k], svgMaxGap))
	}
	labelW := 0.0
	for i := 1; i <= d.n; i++ {
		labelW = max(labelW, textWidth(d.h.Label(i), svgFont))
	}
	d.left = 24 + labelW + 16
	d.colX = make([]float64, len(d.colT))
	pos := d.left + svgStep
	for k := range d.colX {
		d.colX[k] = pos
		if k < len(gap) {
			pos += gap[k]
		}
	}
	d.right = pos + 2*svgStep + 8 // room for a message lost at the last instant
}

// crowded records that a label of width w found no place between
// columns a and b (a == b: at column a): the gaps there widen next pass.
func (d *svgDiagram) crowded(a, b int, w float64) {
	d.dropped++
	if a == b {
		a, b = max(a-1, 0), min(b+1, len(d.more))
	}
	if b <= a {
		return
	}
	for k := a; k < b; k++ {
		d.more[k] += w / 3 / float64(b-a)
	}
}

func (d *svgDiagram) tickText(k int) string { return "t=" + d.h.FormatTime(d.colT[k]) }

func (d *svgDiagram) tickWidth(k int) float64 { return textWidth(d.tickText(k), svgEvFont) }

// colours gives each message type, in order of first appearance, a colour.
func (d *svgDiagram) colours() {
	d.color = map[string]string{}
	for _, m := range d.ms {
		t := msgType(m)
		if _, ok := d.color[t]; !ok {
			d.color[t] = svgPalette[len(d.types)%len(svgPalette)]
			d.types = append(d.types, t)
		}
	}
}

func msgType(m message) string { return strings.SplitN(m.label, "(", 2)[0] }

func (d *svgDiagram) verdicts() []Verdict {
	if d.sum == nil {
		return nil
	}
	return d.sum.Verdicts
}

// size returns the picture's width and height and the y of its footer.
func (d *svgDiagram) size() (width, height, footer float64) {
	legendRows := 1 + (len(d.types)+svgLegend-1)/svgLegend
	footer = d.bottom() + 28 + float64(legendRows)*22
	height = footer + float64(len(d.verdicts())+3)*18 + 10
	width = max(d.right+140, 760)
	return width, height, footer
}

// frame opens the picture: arrow heads, background, title and the unit.
func (d *svgDiagram) frame(width, height float64) {
	h := d.h
	d.p(`<?xml version="1.0" encoding="UTF-8"?>` + "\n")
	d.p(`<svg xmlns="http://www.w3.org/2000/svg" width="%.0f" height="%.0f" viewBox="0 0 %.0f %.0f" font-family="DejaVu Sans, Verdana, sans-serif">`+"\n", width, height, width, height)
	d.p(`<title>%s</title>`+"\n", xmlText("ringlab "+h.Algorithm+": space-time diagram"))
	d.p("<defs>\n")
	for _, t := range d.types {
		d.p(`<marker id="arrow-%s" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="%s"/></marker>`+"\n", colorID(d.color[t]), d.color[t])
	}
	d.p("</defs>\n")
	d.p(`<rect x="0" y="0" width="%.0f" height="%.0f" fill="white"/>`+"\n", width, height)
	title := d.lang.T("svg.title", h.Algorithm, d.n, h.Runtime)
	if h.Runtime == "sim" {
		title += d.lang.T("svg.seed", h.Seed)
	}
	d.p(`<text x="24" y="28" font-size="17" font-weight="bold">%s</text>`+"\n", xmlText(title))
	unit := d.lang.T("svg.ticks")
	switch {
	case h.Live():
		unit = d.lang.T("svg.live")
	case h.Runtime != "sim":
		unit = d.lang.T("svg.steps")
	}
	d.p(`<text x="24" y="48" font-size="12" fill="#555">%s</text>`+"\n", xmlText(unit))
	d.pl.bounds = box{d.left - 6, svgTop - 40, width - 8, d.bottom() - 20}
	d.pl.rowTop, d.pl.rowStep, d.pl.rows = svgTop, svgRow, d.n
}

// axis draws a line and a time label for every instant.
func (d *svgDiagram) axis() {
	for k, x := range d.colX {
		d.p(`<line class="tick" x1="%.1f" y1="%.0f" x2="%.1f" y2="%.0f" stroke="#eee"/>`+"\n", x, float64(svgTop-40), x, d.bottom()-22)
		d.p(`<text class="tick" x="%.1f" y="%.0f" font-size="%g" fill="#777" text-anchor="middle">%s</text>`+"\n", x, d.bottom()-10, svgEvFont, xmlText(d.tickText(k)))
	}
}

// nodeLines draws one line per node, its name on the left.
func (d *svgDiagram) nodeLines() {
	for i := 1; i <= d.n; i++ {
		d.p(`<text x="%.0f" y="%.1f" font-size="%d" text-anchor="end" dominant-baseline="middle">%s</text>`+"\n", d.left-10, d.y(i), svgFont, xmlText(d.h.Label(i)))
		d.p(`<line class="node" x1="%.0f" y1="%.1f" x2="%.0f" y2="%.1f" stroke="#444" stroke-width="1.5"/>`+"\n", d.left, d.y(i), d.right, d.y(i))
	}
}

// downTime dots a node's line from a crash to its recovery (or the end).
func (d *svgDiagram) downTime() {
	down := map[int]float64{}
	line := func(x0, x1, y float64) {
		d.p(`<line class="down" x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="white" stroke-width="3" stroke-dasharray="4 4"/>`+"\n", x0, y, x1, y)
	}
	for i := 0; i < d.shown; i++ {
		switch d.ev[i].Kind {
		case KindCrash:
			down[d.ev[i].Node] = d.x(i)
		case KindRecover:
			if x0, ok := down[d.ev[i].Node]; ok {
				line(x0, d.x(i), d.y(d.ev[i].Node))
				delete(down, d.ev[i].Node)
			}
		}
	}
	for nd := 1; nd <= d.n; nd++ {
		if x0, ok := down[nd]; ok {
			line(x0, d.right, d.y(nd))
		}
	}
}

// criticalSections draws each as a bar on its node's line from the time
// it entered to the time it left (the end of the picture if it did not).
func (d *svgDiagram) criticalSections() {
	for _, cs := range csIntervals(d.ev[:d.shown]) {
		x1 := d.right
		if cs.exit >= 0 {
			x1 = d.x(cs.exit)
		}
		x0, w := d.x(cs.enter), max(x1-d.x(cs.enter), 4)
		d.p(`<rect class="cs" x="%.1f" y="%.1f" width="%.1f" height="12" rx="3" fill="#5dade2" fill-opacity="0.55" stroke="#2e86c1"><title>%s in the critical section</title></rect>`+"\n",
			x0, d.y(cs.node)-6, w, xmlText(d.h.Name(cs.node)))
		d.pl.addLabel(box{x0, d.y(cs.node) - 6, x0 + w, d.y(cs.node) + 6})
	}
}

// arrows draws an arrow per delivered message and a dashed line ending in
// a cross per lost one.
func (d *svgDiagram) arrows() {
	for _, m := range d.ms {
		if !d.drawable(m) {
			continue
		}
		c := d.color[msgType(m)]
		x1, y1 := d.x(m.send), d.y(m.from)
		switch {
		case m.recv >= 0 && m.recv < d.shown:
			x2, y2 := d.x(m.recv), d.y(m.to)
			d.p(`<line class="msg" x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="%s" stroke-width="1.4" marker-end="url(#arrow-%s)"><title>%s: %s → %s</title></line>`+"\n",
				x1, y1, x2, y2, c, colorID(c), xmlText(m.label), xmlText(d.h.Name(m.from)), xmlText(d.h.Name(m.to)))
			d.pl.addArrow(segment{x1, y1, x2, y2})
		case m.drop >= 0 && m.drop < d.shown:
			x2, y2 := x1+2*svgStep, y1+(d.y(m.to)-y1)*0.5
			if d.ev[m.drop].Node == m.to {
				x2, y2 = d.x(m.drop), d.y(m.to)
			}
			d.p(`<line class="lost" x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="%s" stroke-width="1.4" stroke-dasharray="5 3"><title>%s lost: %s</title></line>`+"\n",
				x1, y1, x2, y2, c, xmlText(m.label), xmlText(d.ev[m.drop].Note))
			d.p(`<path d="M%.1f,%.1f l8,8 m0,-8 l-8,8" stroke="#c0392b" stroke-width="2.2"/>`+"\n", x2-4, y2-4)
			d.pl.addArrow(segment{x1, y1, x2, y2})
		}
	}
}

func colorID(c string) string { return strings.TrimPrefix(c, "#") }
