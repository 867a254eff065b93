package trace

// CycleNote is the note a replayed lasso (a liveness counterexample: a
// prefix, then one turn of a cycle that repeats for ever) carries where
// its cycle begins. Every renderer shows it as a note; the SVG also
// draws the cycle, from this note to the end of the run, as a band with
// a bracket and an arrow back to its start, and the browser page
// highlights the cycle's steps.
const CycleNote = "⟳ cycle: repeats from here"

// CycleStart is the index in evs of the note that begins a lasso's cycle
// (CycleNote), or -1.
func CycleStart(evs []Event) int {
	for i := range evs {
		if evs[i].Kind == KindNote && evs[i].Note == CycleNote {
			return i
		}
	}
	return -1
}

// cycle draws a lasso's cycle, from its note to the last instant shown,
// as a shaded band across every node's line, a bracket above it labelled
// "cycle: repeats for ever", and under the bracket a dashed arrow from
// the cycle's end back to its start: after its last step the run is in
// the state it began the cycle in. Nothing when the run has no cycle.
func (d *svgDiagram) cycle() {
	at := CycleStart(d.ev[:d.shown])
	if at < 0 || len(d.colX) == 0 {
		return
	}
	// the band begins after the prefix: between the note's instant and
	// the next when the prefix's last step shares the note's instant
	x0, x1 := d.x(at)-10, d.colX[len(d.colX)-1]+10
	if c := d.col[at]; at > 0 && d.col[at-1] == c && c+1 < len(d.colX) {
		x0 = (d.colX[c] + d.colX[c+1]) / 2
	}
	top, bottom := float64(svgTop-40), d.bottom()-22
	d.p(`<g class="cycle">` + "\n")
	d.p(`<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="#f9e79f" fill-opacity="0.35" stroke="#d4ac0d" stroke-dasharray="6 4"/>`+"\n",
		x0, top, x1-x0, bottom-top)
	const label, bracket, back = 66.0, 74.0, 90.0
	d.p(`<path d="M%.1f,%.1f V%.1f H%.1f V%.1f" fill="none" stroke="#b7950b" stroke-width="2"/>`+"\n", x0, bracket+8, bracket, x1, bracket+8)
	d.p(`<text x="%.1f" y="%.1f" font-size="12" font-weight="bold" fill="#7d6608" text-anchor="middle">%s</text>`+"\n",
		(x0+x1)/2, label, xmlText("⟳ cycle: repeats for ever"))
	d.p(`<path d="M%.1f,%.1f C%.1f,%.1f %.1f,%.1f %.1f,%.1f" fill="none" stroke="#b7950b" stroke-width="1.4" stroke-dasharray="5 3"/>`+"\n",
		x1-4, bracket+10, x1-4, back, x1-30, back, (x0+x1)/2, back)
	d.p(`<path d="M%.1f,%.1f H%.1f" fill="none" stroke="#b7950b" stroke-width="1.4" stroke-dasharray="5 3"/>`+"\n", (x0+x1)/2, back, x0+12)
	d.p(`<path d="M%.1f,%.1f l9,-5 v10 z" fill="#b7950b"/>`+"\n", x0+4, back)
	d.p(`<text x="%.1f" y="%.1f" font-size="%g" fill="#7d6608" text-anchor="start">%s</text>`+"\n",
		x1+6, back+4, svgEvFont, xmlText("↩ back to the start"))
	d.p("</g>\n")
}
