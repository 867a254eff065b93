package trace

import "fmt"

// The SVG's marks and labels: what happened at each event, what each
// message carried, the legend and the footer. Labels go through the placer
// (svglabels.go) so that none covers another.

// marks draws the marks at events: a dot per send and receive, a cross
// per crash, a circle per recovery, a star per leader decision, and a red
// circle and a dashed line per violation, with its property named.
func (d *svgDiagram) marks() {
	for i := 0; i < d.shown; i++ {
		e := &d.ev[i]
		if e.Node < 1 || e.Node > d.n {
			continue
		}
		x, y := d.x(i), d.y(e.Node)
		switch e.Kind {
		case KindSend, KindRecv:
			d.p(`<circle cx="%.1f" cy="%.1f" r="2.6" fill="#333"/>`+"\n", x, y)
			d.pl.addDot(box{x - 3, y - 3, x + 3, y + 3})
		case KindCrash:
			d.p(`<g class="crash"><path d="M%.1f,%.1f l14,14 m0,-14 l-14,14" stroke="#c0392b" stroke-width="3"/><title>%s crashed</title></g>`+"\n", x-7, y-7, xmlText(d.h.Name(e.Node)))
			d.pl.addLabel(box{x - 7, y - 7, x + 7, y + 7})
		case KindRecover:
			d.p(`<circle cx="%.1f" cy="%.1f" r="6" fill="none" stroke="#27ae60" stroke-width="2.5"/>`+"\n", x, y)
			d.pl.addLabel(box{x - 7, y - 7, x + 7, y + 7})
		case KindLeader:
			d.p(`<text class="leader" x="%.1f" y="%.1f" font-size="18" fill="#d4ac0d" text-anchor="middle" dominant-baseline="middle">★<title>%s takes id %d as leader</title></text>`+"\n", x, y, xmlText(d.h.Name(e.Node)), e.LeaderID())
			d.pl.addLabel(box{x - svgStarBox, y - 9, x + svgStarBox, y + 9})
		case KindViolation:
			d.p(`<g class="violation"><line x1="%.1f" y1="%.0f" x2="%.1f" y2="%.0f" stroke="#e74c3c" stroke-width="1.5" stroke-dasharray="6 3"/>`, x, float64(svgTop-20), x, d.bottom()-20)
			d.p(`<circle cx="%.1f" cy="%.1f" r="9" fill="none" stroke="#e74c3c" stroke-width="3"/>`, x, y)
			d.p(`<title>%s</title></g>`+"\n", xmlText("violation of "+e.Property+": "+e.Detail))
			d.pl.addLabel(box{x - 10, y - 10, x + 10, y + 10})
		}
	}
	// The violations' names, before the other labels take their places.
	for i := 0; i < d.shown; i++ {
		e := &d.ev[i]
		if e.Kind != KindViolation || e.Node < 1 || e.Node > d.n {
			continue
		}
		text := "✗ " + e.Property
		w := textWidth(text, 11)
		x, y := d.x(i), d.y(e.Node)
		cands := []box{textBox(x+5, y+24, w, 11), textBox(x+5, y-14, w, 11), textBox(x-5-w, y+24, w, 11), textBox(x-5-w, y-14, w, 11), textBox(x+5, y+38, w, 11)}
		k := d.pl.place(cands)
		if k < 0 {
			d.crowded(d.col[i], d.col[i], w)
			continue
		}
		d.p(`<text x="%.1f" y="%.1f" font-size="11" font-weight="bold" fill="#e74c3c">%s</text>`+"\n", cands[k].x0, cands[k].y1-0.2*11, xmlText(text))
	}
}

// eventLabels writes what a node did at an instant besides sending and
// receiving (its commands, states, notes, crash, recovery, leader) as one
// label beside its mark, its parts in the order they happened, each in
// its kind's colour.
func (d *svgDiagram) eventLabels() {
	type part struct{ text, fill string }
	var parts []part
	flush := func(nd, col int) {
		if len(parts) == 0 {
			return
		}
		x := d.colX[col]
		text := ""
		for k, pt := range parts {
			if k > 0 {
				text += " "
			}
			text += pt.text
		}
		w := textWidth(text, svgEvFont)
		y := d.y(nd)
		var cands []box
		for _, dy := range []float64{-6, 15, -18, 27, -30, 39} {
			cands = append(cands, textBox(x+5, y+dy, w, svgEvFont), textBox(x-5-w, y+dy, w, svgEvFont))
		}
		if k := d.pl.place(cands); k < 0 {
			d.crowded(col, col, w)
		} else {
			d.p(`<text x="%.1f" y="%.1f" font-size="%g">`, cands[k].x0, cands[k].y1-0.2*svgEvFont, svgEvFont)
			for j, pt := range parts {
				sep := ""
				if j > 0 {
					sep = " "
				}
				d.p(`<tspan fill="%s">%s%s</tspan>`, pt.fill, sep, xmlText(pt.text))
			}
			d.p("</text>\n")
		}
		parts = parts[:0]
	}
	last := -1 // the event whose node and instant parts holds
	for i := 0; i < d.shown; i++ {
		e := &d.ev[i]
		if e.Node < 1 || e.Node > d.n {
			continue
		}
		var pt part
		switch e.Kind {
		case KindState:
			pt = part{e.State, "#555"}
		case KindCmd:
			pt = part{e.Command(), "#7d3c98"}
		case KindNote:
			if d.byEvent[i] >= 0 {
				continue
			}
			pt = part{e.Note, "#888"}
		case KindCrash:
			pt = part{"crash", "#c0392b"}
		case KindRecover:
			pt = part{"recover", "#27ae60"}
		case KindLeader:
			pt = part{fmt.Sprintf("leader: id %d", e.LeaderID()), "#b7950b"}
		default:
			continue
		}
		if last >= 0 && (d.ev[last].Node != e.Node || d.col[last] != d.col[i]) {
			flush(d.ev[last].Node, d.col[last])
		}
		pt.text = Cut(OneLine(pt.text), svgEvCut)
		parts = append(parts, pt)
		last = i
	}
	if last >= 0 {
		flush(d.ev[last].Node, d.col[last])
	}
}

// labelGroups gathers the delivered messages that share one label: a
// broadcast (one sender, one instant, one label) and a gathering of
// answers (one receiver, one instant, one label) are labelled once.
func (d *svgDiagram) labelGroups() [][]int {
	parent := make([]int, len(d.ms))
	for i := range parent {
		parent[i] = i
	}
	var find func(int) int
	find = func(i int) int {
		if parent[i] != i {
			parent[i] = find(parent[i])
		}
		return parent[i]
	}
	type end struct {
		node, col int
		label     string
	}
	first := map[end]int{}
	join := func(k end, i int) {
		if j, ok := first[k]; ok {
			parent[find(i)] = find(j)
		} else {
			first[k] = i
		}
	}
	var shown []int
	for i, m := range d.ms {
		if !d.drawable(m) || m.recv < 0 || m.recv >= d.shown {
			continue
		}
		shown = append(shown, i)
		join(end{m.from, d.col[m.send], m.label}, i)
		join(end{-m.to, d.col[m.recv], m.label}, i)
	}
	var groups [][]int
	at := map[int]int{}
	for _, i := range shown {
		r := find(i)
		k, ok := at[r]
		if !ok {
			k = len(groups)
			at[r] = k
			groups = append(groups, nil)
		}
		groups[k] = append(groups[k], i)
	}
	return groups
}

// messageLabels writes the label of each group of messages beside one of
// its arrows, where it hides the least.
func (d *svgDiagram) messageLabels() {
	if !d.labels {
		return
	}
	for _, g := range d.labelGroups() {
		m := d.ms[g[0]]
		text := Cut(m.label, svgMsgCut)
		w := textWidth(text, svgMsgFont)
		var cands []box
		var own []segment
		for _, i := range g {
			x1, y1, x2, y2 := d.x(d.ms[i].send), d.y(d.ms[i].from), d.x(d.ms[i].recv), d.y(d.ms[i].to)
			own = append(own, segment{x1, y1, x2, y2})
		}
		for _, f := range []float64{0.5, 0.4, 0.6, 0.3, 0.7, 0.2, 0.8, 0.12, 0.88} {
			for _, s := range own {
				lx, ly := s.x1+(s.x2-s.x1)*f, s.y1+(s.y2-s.y1)*f
				cands = append(cands, textBox(lx-w/2, ly-3, w, svgMsgFont), textBox(lx-w/2, ly+10, w, svgMsgFont))
			}
		}
		k := d.pl.placeBeside(cands, own)
		if k < 0 {
			d.crowded(d.col[m.send], d.col[m.recv], w)
			continue
		}
		c := d.color[msgType(m)]
		d.p(`<text x="%.1f" y="%.1f" font-size="%g" fill="%s" text-anchor="middle" stroke="white" stroke-width="3" paint-order="stroke">%s</text>`+"\n",
			(cands[k].x0+cands[k].x1)/2, cands[k].y1-0.2*svgMsgFont, svgMsgFont, c, xmlText(text))
	}
}

// legend explains the marks used and the colour of each message type.
func (d *svgDiagram) legend() {
	ly := d.bottom() + 10
	d.p(`<text x="24" y="%.1f" font-size="12" font-weight="bold">%s</text>`+"\n", ly, xmlText(d.lang.T("svg.legend")))
	lx := 90.0
	item := func(draw, text string) {
		d.p(draw+"\n", lx, ly-4)
		d.p(`<text x="%.1f" y="%.1f" font-size="11">%s</text>`+"\n", lx+30, ly, xmlText(text))
		lx += 40 + textWidth(text, 11)
	}
	has := map[string]bool{}
	for i := 0; i < d.shown; i++ {
		has[d.ev[i].Kind] = true
	}
	if has[KindEnterCS] {
		item(`<g transform="translate(%.1f %.1f)"><rect x="0" y="-6" width="24" height="12" rx="3" fill="#5dade2" fill-opacity="0.55" stroke="#2e86c1"/></g>`, d.lang.T("svg.cs"))
	}
	if has[KindDrop] {
		item(`<g transform="translate(%.1f %.1f)"><path d="M0,0 l18,0" stroke="#555" stroke-dasharray="5 3"/><path d="M16,-4 l8,8 m0,-8 l-8,8" stroke="#c0392b" stroke-width="2.2"/></g>`, d.lang.T("svg.lost"))
	}
	if has[KindCrash] {
		item(`<g transform="translate(%.1f %.1f)"><path d="M4,-7 l14,14 m0,-14 l-14,14" stroke="#c0392b" stroke-width="3"/></g>`, d.lang.T("svg.crash"))
	}
	if has[KindRecover] {
		item(`<g transform="translate(%.1f %.1f)"><circle cx="11" cy="0" r="6" fill="none" stroke="#27ae60" stroke-width="2.5"/></g>`, d.lang.T("svg.recovery"))
	}
	if has[KindLeader] {
		item(`<g transform="translate(%.1f %.1f)"><text x="11" y="0" font-size="18" fill="#d4ac0d" text-anchor="middle" dominant-baseline="middle">★</text></g>`, d.lang.T("svg.leader"))
	}
	if has[KindViolation] {
		item(`<g transform="translate(%.1f %.1f)"><circle cx="11" cy="0" r="8" fill="none" stroke="#e74c3c" stroke-width="3"/></g>`, d.lang.T("svg.violation"))
	}
	for k, t := range d.types {
		if k%svgLegend == 0 && k > 0 {
			ly += 22
			lx = 90
		}
		c := d.color[t]
		item(fmt.Sprintf(`<g transform="translate(%%.1f %%.1f)"><line x1="0" y1="0" x2="22" y2="0" stroke="%s" stroke-width="1.4" marker-end="url(#arrow-%s)"/></g>`, c, colorID(c)), t)
	}
}

// footer writes the verdicts, says where the picture was cut, and gives
// the command that replays the run.
func (d *svgDiagram) footer(fy float64) {
	for _, v := range d.verdicts() {
		fill := "#1e8449"
		switch {
		case v.NotReached:
			fill = "#64748b"
		case !v.OK:
			fill = "#c0392b"
		}
		d.p(`<text x="24" y="%.1f" font-size="12" fill="%s">%s</text>`+"\n", fy, fill, xmlText(Cut(VerdictLineIn(d.lang, v), 160)))
		fy += 18
	}
	if d.shown < len(d.ev) || d.skipped > 0 {
		d.p(`<text x="24" y="%.1f" font-size="12" fill="#c0392b">%s</text>`+"\n", fy, xmlText(d.lang.T("svg.cut", d.shown, len(d.ev)+d.skipped)))
		fy += 18
	}
	d.p(`<text x="24" y="%.1f" font-size="12" fill="#333">replay: <tspan font-family="DejaVu Sans Mono, monospace">%s</tspan></text>`+"\n", fy, xmlText(d.h.Replay+ReplayNote(d.h.Runtime)))
}
