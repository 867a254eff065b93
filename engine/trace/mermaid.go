package trace

import (
	"fmt"
	"strings"
)

// MermaidLimit is the size a Mermaid diagram stays under: Mermaid refuses
// text past about 50,000 characters by default.
const MermaidLimit = 45_000

// mermaidRenderer draws a sequence diagram (https://mermaid.js.org) the way
// the chapter draws one: participants declared in node order with their
// names, an arrow per delivered message labelled in short form, a cross
// per lost one, notes for state changes, commands and decisions, critical
// sections as shaded blocks, and violations in red where the checker
// flagged them.
type mermaidRenderer struct{ collector }

func (r *mermaidRenderer) Flush() error { return r.flush(r.draw) }

// mmText escapes text taken from a log for a Mermaid label: it stays on one
// line, and Mermaid's own signs (# ; < > & % and quotes) become its entity
// codes, so nothing in it can end the label or start a statement.
func mmText(s string, n int) string {
	s = Cut(OneLine(s), n)
	var b strings.Builder
	for _, r := range s {
		switch r {
		case '#':
			b.WriteString("#35;")
		case ';':
			b.WriteString("#59;")
		case '<':
			b.WriteString("#lt;")
		case '>':
			b.WriteString("#gt;")
		case '&':
			b.WriteString("#amp;")
		case '%':
			b.WriteString("#37;")
		case '"':
			b.WriteString("#quot;")
		case '\\':
			b.WriteString("#92;")
		case '{':
			b.WriteString("#123;")
		case '}':
			b.WriteString("#125;")
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// mmComment makes text safe in a %% comment: one line, and no "}%%" that
// could read as the end of a directive.
func mmComment(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(OneLine(s), "%%", "% %"), "}", ")")
}

// draw writes the diagram: the header and participants, the body of the
// events (cut where the text would pass MermaidLimit), then the footer.
func (r *mermaidRenderer) draw() error {
	h := r.header()
	var out strings.Builder
	w := func(format string, args ...any) { fmt.Fprintf(&out, format, args...) }
	w("%%%% ringlab: %s, %s, seed %d\n", mmComment(h.Algorithm), mmComment(h.Runtime), h.Seed)
	w("%%%% replay: %s\n", mmComment(h.Replay+ReplayNote(h.Runtime)))
	w("sequenceDiagram\n")
	for i := 1; i <= h.Nodes; i++ {
		w("    participant n%d as %s\n", i, mmText(h.Label(i), 60))
	}
	b := newMermaidBody(h.Nodes)
	cut := b.events(r.ev, out.Len())
	b.close()
	for _, l := range b.lines {
		out.WriteString(l)
		out.WriteByte('\n')
	}
	r.footer(w, b.all, cut)
	_, err := r.w.WriteString(out.String())
	return err
}

// footer writes what follows the events: a note saying where the diagram
// was cut (cut is the index of the last event drawn, or -1), the verdicts
// and the message count of the summary.
func (r *mermaidRenderer) footer(w func(string, ...any), all string, cut int) {
	if cut >= 0 || r.skipped > 0 {
		total := len(r.ev) + r.skipped
		shown := len(r.ev)
		if cut >= 0 {
			shown = cut + 1
		}
		w("    Note over %s: ✂ cut after %d of %d events: Mermaid draws at most about 50,000 characters.<br/>Narrow the run (fewer nodes, requests or initiators) or use --format svg.\n", all, shown, total)
	}
	s := r.sum
	if s == nil {
		return
	}
	var vs []string
	for _, v := range s.Verdicts {
		vs = append(vs, mmText(VerdictLine(v), 100))
	}
	if len(vs) > 0 {
		w("    Note over %s: %s\n", all, strings.Join(vs, "<br/>"))
	}
	w("    %%%% %s: %d messages\n", mmComment(s.Algorithm), s.Messages)
}

// mermaidBody collects the statements of a diagram's body. Consecutive
// notes at one node merge into one Note of up to four lines; critical
// sections are shaded blocks, open while any node is inside one.
type mermaidBody struct {
	n      int
	all    string   // the participants a note over everything spans
	lines  []string // statements, without their newline
	notes  []string // pending notes of noteAt
	noteAt int
	inCS   map[int]bool
	openCS int
}

func newMermaidBody(n int) *mermaidBody {
	all := "n1"
	if n > 1 {
		all = fmt.Sprintf("n1,n%d", n)
	}
	return &mermaidBody{n: n, all: all, inCS: map[int]bool{}}
}

func (b *mermaidBody) flushNotes() {
	if len(b.notes) > 0 {
		b.lines = append(b.lines, fmt.Sprintf("    Note over n%d: %s", b.noteAt, strings.Join(b.notes, "<br/>")))
		b.notes, b.noteAt = nil, 0
	}
}

// note adds a line to node i's pending note; a node out of range has none.
func (b *mermaidBody) note(i int, text string) {
	if i < 1 || i > b.n {
		return
	}
	if b.noteAt != i || len(b.notes) >= 4 {
		b.flushNotes()
	}
	b.noteAt = i
	b.notes = append(b.notes, mmText(text, 60))
}

// line adds a statement after the pending note.
func (b *mermaidBody) line(s string) { b.flushNotes(); b.lines = append(b.lines, s) }

// events adds the events in order until the text, size bytes before the
// body, would pass MermaidLimit; it returns the index of the last event
// added then, or -1 if all were. Pending notes are counted once flushed.
func (b *mermaidBody) events(ev []Event, size int) (cut int) {
	for i := range ev {
		e := &ev[i]
		if e.Node < 1 || e.Node > b.n || e.From > b.n || e.To > b.n || e.From < 0 || e.To < 0 {
			continue
		}
		before := len(b.lines)
		b.event(e)
		for _, l := range b.lines[before:] {
			size += len(l) + 1
		}
		if size > MermaidLimit {
			return i
		}
	}
	return -1
}

// event adds the statements of one event: an arrow per delivered or lost
// message (drawn at delivery, not at the send), a note for the others.
func (b *mermaidBody) event(e *Event) {
	switch e.Kind {
	case KindRecv:
		if e.From >= 1 {
			b.line(fmt.Sprintf("    n%d->>n%d: %s", e.From, e.To, mmText(Short(e.Msg), 70)))
		}
	case KindDrop:
		if e.From >= 1 && e.To >= 1 {
			b.line(fmt.Sprintf("    n%d-xn%d: %s lost (%s)", e.From, e.To, mmText(Short(e.Msg), 60), mmText(e.Note, 30)))
		}
	case KindDup:
		b.note(e.Node, "network duplicated "+Short(e.Msg))
	case KindSend: // drawn at delivery, as KindRecv
	case KindCmd:
		b.note(e.Node, e.Command())
	case KindState:
		b.note(e.Node, e.State)
	case KindNote:
		b.note(e.Node, e.Note)
	case KindEnterCS:
		b.enterCS(e.Node)
	case KindExitCS:
		b.note(e.Node, "◀ leaves the critical section")
		b.exitCS(e.Node)
	case KindCrash:
		b.note(e.Node, "✖ CRASH")
		b.exitCS(e.Node)
	case KindRecover:
		b.note(e.Node, "↻ RECOVER (state lost)")
	case KindLeader:
		l := fmt.Sprintf("★ leader: id %d", e.LeaderID())
		if e.Note != "" {
			l += " (" + e.Note + ")"
		}
		b.note(e.Node, l)
	case KindViolation:
		b.flushNotes()
		b.line("    rect rgb(255, 190, 190)")
		b.line(fmt.Sprintf("    Note over %s: ✗ VIOLATION of %s: %s", b.all, mmText(e.Property, 40), mmText(e.Detail, 110)))
		b.line("    end")
	default:
		b.note(e.Node, e.Kind)
	}
}

// enterCS opens the shaded block if no node was inside a critical section.
func (b *mermaidBody) enterCS(node int) {
	if b.openCS == 0 {
		b.line("    rect rgb(214, 234, 248)")
	}
	b.openCS++
	b.inCS[node] = true
	b.note(node, "▶ enters the critical section")
}

// exitCS closes the shaded block when the last node inside leaves (or
// crashes).
func (b *mermaidBody) exitCS(node int) {
	if !b.inCS[node] {
		return
	}
	delete(b.inCS, node)
	b.openCS--
	if b.openCS == 0 {
		b.line("    end")
	}
}

// close flushes the pending note and closes a block left open.
func (b *mermaidBody) close() {
	b.flushNotes()
	for ; b.openCS > 0; b.openCS-- {
		b.lines = append(b.lines, "    end")
	}
}
