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

func (r *mermaidRenderer) draw() error {
	h := r.header()
	n := h.Nodes
	var out strings.Builder
	w := func(format string, args ...any) { fmt.Fprintf(&out, format, args...) }
	w("%%%% ringlab: %s, %s, seed %d\n", mmComment(h.Algorithm), mmComment(h.Runtime), h.Seed)
	w("%%%% replay: %s\n", mmComment(h.Replay+ReplayNote(h.Runtime)))
	w("sequenceDiagram\n")
	for i := 1; i <= n; i++ {
		w("    participant n%d as %s\n", i, mmText(h.Label(i), 60))
	}
	all := "n1"
	if n > 1 {
		all = fmt.Sprintf("n1,n%d", n)
	}

	var body []string
	var notes []string // pending notes of noteAt
	noteAt := 0
	flushNotes := func() {
		if len(notes) > 0 {
			body = append(body, fmt.Sprintf("    Note over n%d: %s", noteAt, strings.Join(notes, "<br/>")))
			notes, noteAt = nil, 0
		}
	}
	note := func(i int, text string) {
		if i < 1 || i > n {
			return
		}
		if noteAt != i || len(notes) >= 4 {
			flushNotes()
		}
		noteAt = i
		notes = append(notes, mmText(text, 60))
	}
	line := func(s string) { flushNotes(); body = append(body, s) }
	inCS := map[int]bool{}
	openCS := 0
	size := out.Len()
	cut := -1
	for i := range r.ev {
		e := &r.ev[i]
		before := len(body)
		if e.Node < 1 || e.Node > n || e.From > n || e.To > n || e.From < 0 || e.To < 0 {
			continue
		}
		switch e.Kind {
		case KindRecv:
			if e.From >= 1 {
				line(fmt.Sprintf("    n%d->>n%d: %s", e.From, e.To, mmText(Short(e.Msg), 70)))
			}
		case KindDrop:
			if e.From >= 1 && e.To >= 1 {
				line(fmt.Sprintf("    n%d-xn%d: %s lost (%s)", e.From, e.To, mmText(Short(e.Msg), 60), mmText(e.Note, 30)))
			}
		case KindDup:
			note(e.Node, "network duplicated "+Short(e.Msg))
		case KindSend:
			// drawn at delivery
		case KindCmd:
			note(e.Node, e.Command())
		case KindState:
			note(e.Node, e.State)
		case KindNote:
			note(e.Node, e.Note)
		case KindEnterCS:
			if openCS == 0 {
				line("    rect rgb(214, 234, 248)")
			}
			openCS++
			inCS[e.Node] = true
			note(e.Node, "▶ enters the critical section")
		case KindExitCS, KindCrash:
			if e.Kind == KindCrash {
				note(e.Node, "✖ CRASH")
			} else {
				note(e.Node, "◀ leaves the critical section")
			}
			if inCS[e.Node] {
				delete(inCS, e.Node)
				openCS--
				if openCS == 0 {
					line("    end")
				}
			}
		case KindRecover:
			note(e.Node, "↻ RECOVER (state lost)")
		case KindLeader:
			l := fmt.Sprintf("★ leader: id %d", e.LeaderID())
			if e.Note != "" {
				l += " (" + e.Note + ")"
			}
			note(e.Node, l)
		case KindViolation:
			flushNotes()
			line("    rect rgb(255, 190, 190)")
			line(fmt.Sprintf("    Note over %s: ✗ VIOLATION of %s: %s", all, mmText(e.Property, 40), mmText(e.Detail, 110)))
			line("    end")
		default:
			note(e.Node, e.Kind)
		}
		for _, l := range body[before:] {
			size += len(l) + 1
		}
		if size > MermaidLimit {
			cut = i
			break
		}
	}
	flushNotes()
	for ; openCS > 0; openCS-- {
		body = append(body, "    end")
	}
	for _, l := range body {
		out.WriteString(l)
		out.WriteByte('\n')
	}
	if cut >= 0 || r.skipped > 0 {
		total := len(r.ev) + r.skipped
		shown := len(r.ev)
		if cut >= 0 {
			shown = cut + 1
		}
		w("    Note over %s: ✂ cut after %d of %d events: Mermaid draws at most about 50,000 characters.<br/>Narrow the run (fewer nodes, requests or initiators) or use --format svg.\n", all, shown, total)
	}
	if s := r.sum; s != nil {
		var vs []string
		for _, v := range s.Verdicts {
			vs = append(vs, mmText(VerdictLine(v), 100))
		}
		if len(vs) > 0 {
			w("    Note over %s: %s\n", all, strings.Join(vs, "<br/>"))
		}
		w("    %%%% %s: %d messages\n", mmComment(s.Algorithm), s.Messages)
	}
	_, err := r.w.WriteString(out.String())
	return err
}
